// The engine's limits, defaults, thresholds and vocabulary (engine/include/partplay/core/limits.h,
// core/defaults.h, report/vocabulary.h), as the worker's init reply carries them. The page never
// writes a quota, a default, a threshold or an enum list itself: views read them from here.
// client.js fills both tables once the engine is loaded, before any report arrives.
// scripts/lint-web-rules.mjs fails `make test` when a number of the engine's table appears in web/.
//
//   limitValue('cosmos_logical_partition_bytes')   // 21474836480
//   limitText('cosmos_logical_partition_bytes')    // "20 GB"
//   engineDefault('container').ru_per_second       // 400
//   engineEnum('spread_kinds')                      // ['uniform', 'field', 'zipf']
const table = new Map();
let vocabulary = null;

/** Keeps the engine's table ([{id, value, unit, kind, label, source}]). */
export function setLimits(list) {
  for (const limit of list ?? []) table.set(limit.id, Object.freeze({...limit}));
}

/** The entry `id`; throws when the engine has no such limit (a typo, or no init reply yet). */
export function limit(id) {
  const found = table.get(id);
  if (!found) throw new Error(`The engine reported no limit "${id}" (is the engine loaded?)`);
  return found;
}

export const limitValue = (id) => limit(id).value;

/** The limit's quantity as its label starts: "20 GB", "10,000 RU/s", "2 billion cells". */
export function limitText(id) {
  return limit(id).label.replace(/ per .*$|: .*$/, '');
}

/** Fills every [data-limit="id"] inside `root` with the engine's quantity (limitText). */
export function fillLimits(root) {
  for (const node of root.querySelectorAll('[data-limit]')) node.textContent = limitText(node.dataset.limit);
}

const deepFreeze = (v) => {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
};

/** Keeps the engine's vocabulary ({defaults, enums}; report/vocabulary.h). */
export function setVocabulary(v) {
  if (v) vocabulary = deepFreeze(structuredClone(v));
}

/** Whether the engine's vocabulary has arrived (false while it loads, or when it failed to). */
export const hasVocabulary = () => vocabulary !== null;

function vocabularyPart(part, name) {
  const found = vocabulary?.[part]?.[name];
  if (found === undefined) throw new Error(`The engine reported no ${part} "${name}" (is the engine loaded?)`);
  return found;
}

/** A default the engine assumes when not told: 'container' (ContainerOptions), 'synthetic'. */
export const engineDefault = (name) => vocabularyPart('defaults', name);

/** The names the engine accepts for an option: 'hash_versions', 'spread_kinds', 'synthetic_kinds'. */
export const engineEnum = (name) => vocabularyPart('enums', name);
