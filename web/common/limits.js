// The engine's limits and quotas (engine/include/partplay/core/limits.h), as the worker's init
// reply carries them. The page never writes a quota itself: views read the value and the label
// from here. client.js fills the table once the engine is loaded, before any report arrives.
//
//   limitValue('cosmos_logical_partition_bytes')   // 21474836480
//   limitText('cosmos_logical_partition_bytes')    // "20 GB"
const table = new Map();

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
  return limit(id).label.replace(/ per .*$/, '');
}
