// The Cosmos DB view's settings: its container, workload, growth, routing and synthetic-key
// controls read as the engine's options (protocol.js ContainerOptions, SyntheticKey) and written
// back from an example's settings or the engine's defaults (report/vocabulary.h through
// web/common/limits.js). Nothing here judges: out-of-range values are the engine's to refuse.
//
//   const settings = createSettings({el, state, currentKeyPaths});
//   client.model({container: settings.containerOptions('main')});
import {h} from '../common/dom.js';
import {engineDefault, engineEnum, hasVocabulary, limitValue} from '../common/limits.js';
import {splitKeyParts} from '../common/key-text.js';

/** The worker slot of the synthetic-key analysis (protocol.js slots). */
export const SYNTHETIC_SLOT = 'synthetic';

/**
 * The container a page starts with, and that an example's "container" settings start from: the
 * engine's defaults. No request rates until the user gives some: throttling is judged only against
 * numbers the user chose (an example may bring its own).
 */
const defaultSettings = () => ({weight_path: '', ...engineDefault('container')});

/** `ctx`: {el (cosmos-elements.js), state (the view's), currentKeyPaths()}. */
export function createSettings(ctx) {
  const {el, state} = ctx;
  const currentKeyPaths = () => ctx.currentKeyPaths();


  function numberFrom(input, fallback, {min = -Infinity} = {}) {
    const v = input.value.trim() === '' ? NaN : Number(input.value);
    return Number.isFinite(v) ? Math.max(min, v) : fallback;
  }

  /** The weightPath analyses should read: the field of the 'field' spread, when one is typed. */
  function wantedWeightPath() {
    const path = el.weightPath.value.trim();
    return el.spreadSelect.value === 'field' && path ? path : undefined;
  }

  /** The shared-database options from its checkbox and rows: {shared_database, shared_with} or none. */
  function sharedOptions() {
    if (!el.sharedDatabase.checked || el.ruServerless.checked) return {};
    const rows = [...el.sharedWith.tBodies[0].rows].map((tr) => {
      const [name, gb, ru] = tr.querySelectorAll('input');
      return {name: name.value.trim(), storage_gb: numberFrom(gb, 0), demand_ru: numberFrom(ru, 0)};
    });
    return {shared_database: true, shared_with: rows};
  }

  /** A row of the shared database's other containers: name, storage in GB, the RU/s it asks for. */
  function addSharedRow() {
    const body = el.sharedWith.tBodies[0];
    const n = body.rows.length + 1;
    const input = (type, value, label) => h('input', {attrs: {type, value, 'aria-label': label, ...(type === 'number' ? {min: '0'} : {})}});
    const remove = h('button', {className: 'small', text: '✕', title: 'Remove this container',
                                attrs: {type: 'button', 'aria-label': `remove container ${n}`}});
    const tr = h('tr', {testid: 'shared-row'}, [input('text', `container ${n}`, `container ${n}: name`),
      input('number', '', `container ${n}: storage in GB`), input('number', '', `container ${n}: RU/s it asks for`), remove]
      .map((node) => h('td', {}, [node])));
    remove.addEventListener('click', () => {
      tr.remove();
      el.containerForm.dispatchEvent(new Event('change', {bubbles: true}));
    });
    body.append(tr);
  }

  /** ContainerOptions (protocol.js) for the analysis in `slot` ('main' or 'synthetic'). */
  function containerOptions(slot) {
    let hash = el.hashVersion.value;
    // A synthetic key is one string: V2 when the plain key is hierarchical.
    if (slot === SYNTHETIC_SLOT && hash === 'multihash') hash = '2';
    const weighted = el.spreadSelect.value === 'field' && state.analyzedWeightPath !== undefined;
    const viewSlot = state.view === 'synthetic' && state.synReport ? SYNTHETIC_SLOT : 'main';
    const defaults = defaultSettings();
    const d = defaults.workload;
    return {
      hash_version: hash,
      large_partition_keys: hash === '1' ? el.largeKeys.checked : true,
      // Serverless: no RU/s (its capacity follows its storage); created: blank is "as now".
      ...(el.ruServerless.checked ? {serverless: true}
        : {ru_per_second: numberFrom(el.ruInput, defaults.ru_per_second, {min: 0}),
           ...(el.createdRuInput.value.trim() ? {created_ru_per_second: numberFrom(el.createdRuInput, 0, {min: 0})} : {})}),
      autoscale: el.ruAutoscale.checked,
      ...sharedOptions(),
      growth: numberFrom(el.growthInput, defaults.growth, {min: 1}),
      grown_ru_per_second: numberFrom(el.grownRuInput, defaults.grown_ru_per_second, {min: 0}),
      workload: {
        point_reads_per_second: numberFrom(el.readsInput, d.point_reads_per_second, {min: 0}),
        writes_per_second: numberFrom(el.writesInput, d.writes_per_second, {min: 0}),
        queries_per_second: numberFrom(el.queriesInput, d.queries_per_second, {min: 0}),
        // 'field' needs the weights of an analysis read with the field; uniform until then.
        spread: el.spreadSelect.value === 'field' ? (weighted ? 'field' : 'uniform') : el.spreadSelect.value,
        zipf_exponent: numberFrom(el.zipfInput, d.zipf_exponent, {min: 0.01}),
        read_factor: numberFrom(el.readFactor, d.read_factor, {min: 0}),
        write_factor: numberFrom(el.writeFactor, d.write_factor, {min: 0}),
        query_ru: numberFrom(el.queryRu, d.query_ru, {min: 0}),
      },
      route: slot === viewSlot ? state.route : null,
      top_per_range: defaults.top_per_range,
    };
  }

  /** The controls' container settings as a link carries them; applySettingsToControls reads them back. */
  function settingsForLink() {
    const c = containerOptions('main');
    delete c.route;
    delete c.top_per_range;
    c.workload.spread = el.spreadSelect.value;  // 'field' even before the field is read
    if (el.spreadSelect.value === 'field') c.weight_path = el.weightPath.value;
    return c;
  }

  function modelKey(main, syn) {
    return JSON.stringify([main, syn]);
  }

  /** MultiHash for a hierarchical key; V1/V2 only for one path. */
  function syncHashVersion(keyPaths) {
    const hierarchical = keyPaths.length > 1;
    for (const option of el.hashVersion.options) {
      option.disabled = hierarchical && option.value !== 'multihash';
    }
    if (hierarchical && el.hashVersion.value !== 'multihash') {
      state.singleHash = el.hashVersion.value;
      el.hashVersion.value = 'multihash';
    } else if (!hierarchical && el.hashVersion.value === 'multihash' && state.singleHash) {
      el.hashVersion.value = state.singleHash;
      state.singleHash = null;
    }
    syncControls();
  }

  /** Shows the controls that apply (large keys for V1, the field or exponent of the spread, autoscale wording). */
  function syncControls() {
    const v1 = el.hashVersion.value === '1';
    el.largeKeys.disabled = !v1;
    if (!v1) el.largeKeys.checked = true;
    el.largeKeysLabel.classList.toggle('disabled', !v1);
    el.largeKeysLabel.title = v1 ? '' : 'V2 and MultiHash containers always accept large partition keys.';
    el.ruLabel.textContent = el.ruAutoscale.checked ? 'Autoscale maximum RU/s' : 'Provisioned RU/s';
    const serverless = el.ruServerless.checked;
    el.ruInput.disabled = serverless;
    el.createdRuInput.disabled = serverless;
    el.sharedDatabase.disabled = serverless;
    const shared = el.sharedDatabase.checked && !serverless;
    el.sharedWith.hidden = !shared;
    el.sharedAdd.hidden = !shared;
    if (shared && el.sharedWith.tBodies[0].rows.length === 0) addSharedRow();
    el.weightPathLabel.hidden = el.spreadSelect.value !== 'field';
    el.zipfLabel.hidden = el.spreadSelect.value !== 'zipf';
    const kind = el.syntheticKind.value;
    for (const label of el.syntheticForm.querySelectorAll('label[data-for]')) {
      label.hidden = !label.dataset.for.split(' ').includes(kind);
    }
    el.syntheticBase.value = state.keyPaths[0] ?? currentKeyPaths()[0] ?? '';
  }

  /** Puts an example's (or the default) container settings into the controls. */
  function applySettingsToControls(settings = {}) {
    if (!hasVocabulary()) return;  // the engine did not load: the analysis reports why
    const d = defaultSettings();
    const w = {...d.workload, ...(settings.workload ?? {})};
    el.hashVersion.value = engineEnum('hash_versions').includes(settings.hash_version) ? settings.hash_version : d.hash_version;
    state.singleHash = null;
    el.largeKeys.checked = settings.large_partition_keys ?? d.large_partition_keys;
    el.ruInput.value = String(settings.ru_per_second ?? d.ru_per_second);
    el.quickRuInput.value = el.ruInput.value;
    el.ruAutoscale.checked = !!(settings.autoscale ?? d.autoscale);
    el.ruServerless.checked = !!settings.serverless && !el.ruAutoscale.checked;
    el.ruManual.checked = !el.ruAutoscale.checked && !el.ruServerless.checked;
    el.createdRuInput.value = settings.created_ru_per_second ? String(settings.created_ru_per_second) : '';
    el.growthInput.value = String(settings.growth ?? d.growth);
    el.grownRuInput.value = String(settings.grown_ru_per_second ?? d.grown_ru_per_second);
    el.readsInput.value = String(w.point_reads_per_second);
    el.writesInput.value = String(w.writes_per_second);
    el.queriesInput.value = String(w.queries_per_second);
    el.spreadSelect.value = engineEnum('spread_kinds').includes(w.spread) ? w.spread : d.workload.spread;
    el.zipfInput.value = String(w.zipf_exponent);
    el.readFactor.value = String(w.read_factor);
    el.writeFactor.value = String(w.write_factor);
    el.queryRu.value = String(w.query_ru);
    el.weightPath.value = settings.weight_path ?? w.weight_path ?? d.weight_path;
    // A shared-throughput database's other containers (an example has none; a link may).
    el.sharedDatabase.checked = !!settings.shared_database;
    el.sharedWith.tBodies[0].replaceChildren();
    for (const row of Array.isArray(settings.shared_with) ? settings.shared_with : []) {
      addSharedRow();
      const [name, gb, ru] = el.sharedWith.tBodies[0].lastElementChild.querySelectorAll('input');
      name.value = String(row.name ?? '');
      gb.value = String(row.storage_gb ?? '');
      ru.value = String(row.demand_ru ?? '');
    }
    state.route = null;
    el.routeInput.value = '';
    const syn = settings.synthetic;
    if (syn && typeof syn === 'object') {
      const synDefaults = engineDefault('synthetic');
      el.syntheticKind.value = engineEnum('synthetic_kinds').includes(syn.kind) && syn.kind !== synDefaults.kind
        ? syn.kind : 'hash_suffix';
      el.syntheticPaths.value = Array.isArray(syn.paths) ? syn.paths.join(', ') : '';
      el.syntheticSeparator.value = syn.separator ?? synDefaults.separator;
      el.syntheticBuckets.value = String(syn.buckets ?? synDefaults.buckets);
      el.syntheticSeed.value = String(syn.seed ?? 1);
      el.syntheticSuffixPath.value = syn.suffix_path ?? '';
      el.syntheticNote.textContent = 'Suggested by this example: press “Analyze with this key” to compare.';
    } else {
      el.syntheticNote.textContent = '';
    }
  }

  /** The synthetic key in the form, as protocol.js SyntheticKey; throws an Error with a message. */
  function syntheticFromForm() {
    const kind = el.syntheticKind.value;
    const separator = el.syntheticSeparator.value;
    if (kind === 'concat') {
      const paths = splitKeyParts(el.syntheticPaths.value);
      const [min, max] = [limitValue('candidate_min_concat_paths'), limitValue('candidate_max_concat_paths')];
      if (paths.length < min || paths.length > max) throw new Error(`A concatenated key needs ${min} to ${max} properties, separated by commas.`);
      return {kind, paths, separator};
    }
    const buckets = Math.round(numberFrom(el.syntheticBuckets, 0));
    if (!(buckets >= 1)) throw new Error('N, the number of suffixes, must be at least 1.');
    if (kind === 'random_suffix') {
      return {kind, separator, buckets, seed: Math.max(0, Math.round(numberFrom(el.syntheticSeed, 0)))};
    }
    const suffixPath = el.syntheticSuffixPath.value.trim();
    if (!suffixPath) throw new Error('A pre-calculated suffix needs the property it is computed from, such as /vin.');
    return {kind, separator, buckets, suffix_path: suffixPath};
  }

  /** Parses the route input: a JSON value, an array of values (a hierarchical key or prefix), or bare text (a string). */
  function parseRoute(text) {
    const trimmed = text.trim();
    if (trimmed === '') return null;
    let value;
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = trimmed;
    }
    const isUndefined = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v !== null && typeof v === 'object' && !isUndefined(v)) {
        throw new Error('A partition key value is a string, a number, true, false, null or {} (undefined).');
      }
    }
    return values;
  }

  /**
   * The engine's vocabulary in the controls: only the hash versions, spreads and synthetic kinds
   * the engine accepts are offered, and the synthetic-key builder starts from its defaults.
   */
  function applyVocabulary() {
    for (const [select, name] of [[el.hashVersion, 'hash_versions'], [el.spreadSelect, 'spread_kinds'],
      [el.syntheticKind, 'synthetic_kinds']]) {
      const known = engineEnum(name);
      for (const option of [...select.options]) if (!known.includes(option.value)) option.remove();
    }
    const syn = engineDefault('synthetic');
    el.syntheticSeparator.value = syn.separator;
    el.syntheticBuckets.value = String(syn.buckets);
  }

  el.sharedAdd.addEventListener('click', () => {
    addSharedRow();
    el.containerForm.dispatchEvent(new Event('change', {bubbles: true}));
  });

  return {applyVocabulary, numberFrom, wantedWeightPath, containerOptions, settingsForLink, modelKey, syncHashVersion,
          syncControls, applySettingsToControls, syntheticFromForm, parseRoute};
}
