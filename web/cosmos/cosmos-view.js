// The Cosmos DB mode of the page: wires its controls to the engine worker (through client.js) and
// renders reports, inside the root it is given (the #cosmos-view panel of index.html).
//
//   const cosmos = mountCosmosView(root, client, {statusNode: document.body});
//   cosmos.renderCharts();   // when the mode shows again (charts need a width)
//   cosmos.destroy();
//
// Every element it reads is looked up inside root; statusNode carries data-state (loading |
// ready | error) and data-runs (finished runs), which the tests wait on.
// The main thread never parses the data; it only sends sources to the worker and draws what comes
// back. Text that came from the user or the data (keys, values, file names, error messages) is
// only ever inserted with textContent.
//
// Two analyses of the same source may be on screen: 'main' (the key typed in section 2) and,
// when the user builds one, 'synthetic' (the same data under a synthetic key). The worker keeps
// both (protocol.js slots), so container-only changes (throughput, hash version, growth,
// workload, routing) are re-modelled with client.model() without reading the data again.
import {logBins, renderConcentration, renderHistogram} from '../common/charts.js';
import {shortEpk} from './container-charts.js';
import {
  rangeOf, renderAdvisor, renderContainer, renderFindings, renderGrowth, renderSyntheticCompare, renderWorkload,
  describeSynthetic,
} from './container-view.js';
import {fillTable, h, keyNode, scopedById, setFigure as setFigureNode, submitForm} from '../common/dom.js';
import {
  formatBytes, formatDecimal, formatInt, formatKey, formatMs, formatPercent, progressBytes, progressShare, sourceSize,
} from '../common/format.js';
import {SourceKind} from '../worker/protocol.js';
import {limitText, limitValue} from '../common/limits.js';
import {caretExcerpt} from '../common/text-position.js';
import {mountCompareView} from './compare-view.js';

const PAGE_SIZE = 25;
const PROGRESS_DELAY_MS = 500;
const LOGICAL = 'cosmos_logical_partition_bytes';
const LOGICAL_LIMIT = () => limitValue(LOGICAL);
/** Typing in a number field re-models after this pause (Enter or leaving the field applies at once). */
const SETTLE_MS = 400;
const SYNTHETIC_SLOT = 'synthetic';
/** The key of the first pass over own data, which only samples its candidate paths. */
const PROBE_KEY = '/id';

/** The container a page starts with, and that an example's "container" settings start from. */
const DEFAULT_SETTINGS = Object.freeze({
  hash_version: '2',
  large_partition_keys: true,
  ru_per_second: 400,
  autoscale: false,
  growth: 1,
  grown_ru_per_second: 0,
  weight_path: '',
  // No request rates until the user gives some: throttling is judged only against numbers the
  // user chose (an example may bring its own).
  workload: Object.freeze({
    point_reads_per_second: 0, writes_per_second: 0, queries_per_second: 0,
    spread: 'uniform', zipf_exponent: 1, read_factor: 1, write_factor: 1, query_ru: 3,
  }),
});

/**
 * Mounts the Cosmos DB mode on `root` (the markup of index.html's #cosmos-view) with `client`
 * (web/worker/client.js): analyses the first example at once. Returns {renderCharts, destroy}.
 */
export function mountCosmosView(root, client, {statusNode = root, examplesBase = new URL('examples/', document.baseURI)} = {}) {
  const byId = scopedById(root);
  const el = {
    exampleSelect: byId('example-select'),
    exampleDescription: byId('example-description'),
    exampleLesson: byId('example-lesson'),
    dropzone: byId('dropzone'),
    fileInput: byId('file-input'),
    pasteInput: byId('paste-input'),
    analyzeButton: byId('analyze-button'),
    keyForm: byId('key-form'),
    keyInput: byId('key-input'),
    keyCandidates: byId('key-candidates'),
    sourceLine: byId('source-line'),
    candidates: byId('candidates'),
    candidatesNote: byId('candidates-note'),
    keyPickNote: byId('key-pick-note'),
    candidateRows: byId('candidate-rows'),
    progress: byId('progress'),
    progressText: byId('progress-text'),
    progressTrack: byId('progress-track'),
    progressBar: byId('progress-bar'),
    cancelButton: byId('cancel-button'),
    errorPanel: byId('error-panel'),
    errorTitle: byId('error-title'),
    errorMessage: byId('error-message'),
    errorLocation: byId('error-location'),
    errorExcerpt: byId('error-excerpt'),
    errorHint: byId('error-hint'),
    results: byId('results'),
    insights: byId('insights'),
    histogram: byId('histogram'),
    concentration: byId('concentration'),
    partitionRows: byId('partition-rows'),
    pagePrev: byId('page-prev'),
    pageNext: byId('page-next'),
    pageStatus: byId('page-status'),
    viewSwitch: byId('view-switch'),
    // Container.
    containerForm: byId('container-form'),
    hashVersion: byId('hash-version'),
    largeKeys: byId('large-keys'),
    largeKeysLabel: byId('large-keys-label'),
    ruManual: root.querySelector('input[name="throughput-mode"][value="manual"]'),
    ruAutoscale: root.querySelector('input[name="throughput-mode"][value="autoscale"]'),
    ruLabel: byId('ru-label'),
    ruInput: byId('ru-input'),
    quickRuInput: byId('quick-ru-input'),
    partitionMap: byId('partition-map'),
    routeForm: byId('route-form'),
    routeInput: byId('route-input'),
    routeClear: byId('route-clear'),
    // Workload.
    workloadForm: byId('workload-form'),
    readsInput: byId('reads-input'),
    writesInput: byId('writes-input'),
    queriesInput: byId('queries-input'),
    spreadSelect: byId('spread-select'),
    weightPath: byId('weight-path'),
    weightPathLabel: byId('weight-path-label'),
    zipfInput: byId('zipf-input'),
    zipfLabel: byId('zipf-label'),
    readFactor: byId('read-factor'),
    writeFactor: byId('write-factor'),
    queryRu: byId('query-ru'),
    demandChart: byId('demand-chart'),
    // Growth.
    growthForm: byId('growth-form'),
    growthInput: byId('growth-input'),
    grownRuInput: byId('grown-ru-input'),
    mapBefore: byId('map-before'),
    mapAfter: byId('map-after'),
    // Synthetic keys.
    syntheticForm: byId('synthetic-form'),
    syntheticKind: byId('synthetic-kind'),
    syntheticPaths: byId('synthetic-paths'),
    syntheticBase: byId('synthetic-base'),
    syntheticSeparator: byId('synthetic-separator'),
    syntheticBuckets: byId('synthetic-buckets'),
    syntheticSeed: byId('synthetic-seed'),
    syntheticSuffixPath: byId('synthetic-suffix-path'),
    syntheticRemove: byId('synthetic-remove'),
    syntheticNote: byId('synthetic-note'),
  };

  /** The sections that need report.container (hidden for an engine without the container model). */
  const containerSections = ['container-panel', 'workload-panel', 'growth-panel', 'synthetic-panel', 'advisor-panel']
    .map((id) => root.querySelector(`[data-testid="${id}"]`));

  const state = {
    /** The report of the main analysis (the key typed in section 2). */
    report: null,
    /** The report of the synthetic-key analysis of the same source, or null. */
    synReport: null,
    /** The synthetic key the synthetic analysis used (protocol.js SyntheticKey), or null. */
    synthetic: null,
    /** Which report the results show: 'plain' (main) or 'synthetic'. */
    view: 'plain',
    /** The query routing filter (an array of key values) for the report on view, or null. */
    route: null,
    /** The weightPath the analyses on screen were read with. */
    analyzedWeightPath: undefined,
    /** The container options last sent, to skip a model() that would change nothing. */
    lastModelKey: '',
    /** 'analysis' or 'model' while the newest run is in flight. */
    busyKind: null,
    /** Settings changed during an analysis: re-model when it ends. */
    pendingApply: false,
    /** What the worker holds as "last source": {kind, label, text?}. */
    source: null,
    /** The Source (protocol.js) last sent for analysis, to send again after an engine restart. */
    sourceRequest: null,
    /** True after an engine restart until the next analysis succeeds: the worker holds nothing. */
    engineLost: false,
    /** The source of the report on screen. */
    reportSource: null,
    /** The key paths of the latest run. */
    keyPaths: [],
    page: 0,
    runSeq: 0,
    runs: 0,
    examples: [],
    showAllAdvice: false,
    progress: null,
    /** What the progress bar says is being read besides the source ('synthetic key'). */
    progressLabel: '',
    /** The V1/V2 choice to return to when a hierarchical key forced MultiHash. */
    singleHash: null,
    /** The key the advisor picked for the loaded data: {path, verdict, rank, of}, or null. */
    keyPick: null,
    /** The key the page itself put in the key input (an example's or a pick), or null. */
    pageKey: null,
  };

  // An engine failure restarts the worker (client.js): the analyses and the source it held are
  // gone, so the next step sends the source again instead of re-modelling what is no longer there.
  client.addEventListener('restart', () => {
    state.engineLost = true;
  });

  // Section 12: candidate keys side by side, judged under the container settings of the view.
  const compareView = mountCompareView(root.querySelector('[data-testid="compare-root"]'), client, {
    containerOptions: () => containerOptions('main'),
    currentKey: () => ({key_paths: currentKeyPaths()}),
  });

  // ---------------------------------------------------------------------------------------------
  // Small DOM helpers (text only): h and keyNode live in dom.js.

  function setBusyState(value) {
    statusNode.dataset.state = value;
  }

  // ---------------------------------------------------------------------------------------------
  // Running analyses.

  /**
   * The key paths typed in the key input. One path, or up to three for a hierarchical key, separated
   * by commas: "/tenantId, /userId" (a comma followed by "/" starts the next path).
   */
  function currentKeyPaths() {
    return el.keyInput.value.trim().split(/\s*,\s*(?=\/)/);
  }

  /**
   * Runs one step of work in the worker. `start(onProgress)` resolves to
   * {main?, syn?, view?, weightPath?}: the reports to show (syn: null drops the synthetic one).
   * A newer run supersedes an older one (the worker cancels an analysis in flight); only the newest
   * run touches the page. kind: 'analysis' (reads the data) or 'model' (re-models, no reading).
   */
  async function run(start, {kind = 'analysis', onError} = {}) {
    const seq = ++state.runSeq;
    setBusyState('busy');
    state.busyKind = kind;
    state.progress = null;
    const timer = setTimeout(() => {
      if (seq === state.runSeq) showProgress();
    }, PROGRESS_DELAY_MS);
    try {
      const outcome = await start((p) => {
        if (seq !== state.runSeq) return;
        state.progress = p;
        if (!el.progress.hidden) updateProgress();
      });
      if (seq !== state.runSeq) return;
      hideError();
      accept(outcome);
      renderAll();
      finishRun(outcome.error ? 'error' : 'ready');
      if (outcome.error) showError(outcome.error);
    } catch (e) {
      if (seq !== state.runSeq) return;
      onError?.(e);
      showError(e);
      finishRun('error');
    } finally {
      clearTimeout(timer);
      if (seq === state.runSeq) {
        el.progress.hidden = true;
        state.busyKind = null;
        state.progressLabel = '';
        if (state.pendingApply) {
          state.pendingApply = false;
          queueMicrotask(applySettings);
        }
      }
    }
  }

  /** Takes the reports of a finished run into the state. */
  function accept({main, syn, view, weightPath, synthetic, remodelled = false}) {
    if (main) {
      state.report = main;
      state.reportSource = state.source;
      // A re-model keeps the same logical partitions: stay on the page of the table being read.
      if (!remodelled) state.page = 0;
    }
    if (weightPath !== undefined) state.analyzedWeightPath = weightPath || undefined;
    if (syn !== undefined) {
      state.synReport = syn;
      if (synthetic !== undefined) state.synthetic = synthetic;
      if (!syn) state.synthetic = null;
    }
    if (view) state.view = view;
    if (!state.synReport) state.view = 'plain';
  }

  function finishRun(outcome) {
    state.runs++;
    statusNode.dataset.runs = String(state.runs);
    setBusyState(outcome);
  }

  /** The report the results show. */
  function viewReport() {
    return state.view === 'synthetic' && state.synReport ? state.synReport : state.report;
  }

  // ---------------------------------------------------------------------------------------------
  // Settings: the container, workload and growth controls as the engine's ContainerOptions.

  function numberFrom(input, fallback, {min = -Infinity} = {}) {
    const v = input.value.trim() === '' ? NaN : Number(input.value);
    return Number.isFinite(v) ? Math.max(min, v) : fallback;
  }

  /** The weightPath analyses should read: the field of the 'field' spread, when one is typed. */
  function wantedWeightPath() {
    const path = el.weightPath.value.trim();
    return el.spreadSelect.value === 'field' && path ? path : undefined;
  }

  /** ContainerOptions (protocol.js) for the analysis in `slot` ('main' or 'synthetic'). */
  function containerOptions(slot) {
    let hash = el.hashVersion.value;
    // A synthetic key is one string: V2 when the plain key is hierarchical.
    if (slot === SYNTHETIC_SLOT && hash === 'multihash') hash = '2';
    const weighted = el.spreadSelect.value === 'field' && state.analyzedWeightPath !== undefined;
    const viewSlot = state.view === 'synthetic' && state.synReport ? SYNTHETIC_SLOT : 'main';
    const d = DEFAULT_SETTINGS.workload;
    return {
      hash_version: hash,
      large_partition_keys: hash === '1' ? el.largeKeys.checked : true,
      ru_per_second: numberFrom(el.ruInput, DEFAULT_SETTINGS.ru_per_second, {min: 0}),
      autoscale: el.ruAutoscale.checked,
      growth: numberFrom(el.growthInput, 1, {min: 1}),
      grown_ru_per_second: numberFrom(el.grownRuInput, 0, {min: 0}),
      workload: {
        point_reads_per_second: numberFrom(el.readsInput, 0, {min: 0}),
        writes_per_second: numberFrom(el.writesInput, 0, {min: 0}),
        queries_per_second: numberFrom(el.queriesInput, 0, {min: 0}),
        // 'field' needs the weights of an analysis read with the field; uniform until then.
        spread: el.spreadSelect.value === 'field' ? (weighted ? 'field' : 'uniform') : el.spreadSelect.value,
        zipf_exponent: numberFrom(el.zipfInput, d.zipf_exponent, {min: 0.01}),
        read_factor: numberFrom(el.readFactor, d.read_factor, {min: 0}),
        write_factor: numberFrom(el.writeFactor, d.write_factor, {min: 0}),
        query_ru: numberFrom(el.queryRu, d.query_ru, {min: 0}),
      },
      route: slot === viewSlot ? state.route : null,
      top_per_range: 20,
    };
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
    const d = DEFAULT_SETTINGS;
    const w = {...d.workload, ...(settings.workload ?? {})};
    el.hashVersion.value = ['1', '2', 'multihash'].includes(settings.hash_version) ? settings.hash_version : d.hash_version;
    state.singleHash = null;
    el.largeKeys.checked = settings.large_partition_keys ?? d.large_partition_keys;
    el.ruInput.value = String(settings.ru_per_second ?? d.ru_per_second);
    el.quickRuInput.value = el.ruInput.value;
    el.ruAutoscale.checked = !!(settings.autoscale ?? d.autoscale);
    el.ruManual.checked = !el.ruAutoscale.checked;
    el.growthInput.value = String(settings.growth ?? d.growth);
    el.grownRuInput.value = String(settings.grown_ru_per_second ?? d.grown_ru_per_second);
    el.readsInput.value = String(w.point_reads_per_second);
    el.writesInput.value = String(w.writes_per_second);
    el.queriesInput.value = String(w.queries_per_second);
    el.spreadSelect.value = ['uniform', 'field', 'zipf'].includes(w.spread) ? w.spread : 'uniform';
    el.zipfInput.value = String(w.zipf_exponent);
    el.readFactor.value = String(w.read_factor);
    el.writeFactor.value = String(w.write_factor);
    el.queryRu.value = String(w.query_ru);
    el.weightPath.value = settings.weight_path ?? w.weight_path ?? d.weight_path;
    state.route = null;
    el.routeInput.value = '';
    const syn = settings.synthetic;
    if (syn && typeof syn === 'object') {
      el.syntheticKind.value = ['concat', 'random_suffix', 'hash_suffix'].includes(syn.kind) ? syn.kind : 'hash_suffix';
      el.syntheticPaths.value = Array.isArray(syn.paths) ? syn.paths.join(', ') : '';
      el.syntheticSeparator.value = syn.separator ?? '-';
      el.syntheticBuckets.value = String(syn.buckets ?? 400);
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
      const paths = el.syntheticPaths.value.trim().split(/\s*,\s*(?=\/)/).filter((p) => p !== '');
      if (paths.length < 2 || paths.length > 5) throw new Error('A concatenated key needs 2 to 5 properties, separated by commas.');
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

  // ---------------------------------------------------------------------------------------------
  // Starting work.

  /**
   * Analyzes `source` (or, without one, the worker's last source again) with the key typed and the
   * settings, then the synthetic key when one is in use and depends on the typed key.
   */
  function analyzeAll({source, label, extra = {}, pickKey = false} = {}) {
    // Own data starts from its own paths: never from the previous example's key.
    if (pickKey) el.keyInput.value = PROBE_KEY;
    setKeyPick(null);
    const keyPaths = currentKeyPaths();
    const keyChanged = JSON.stringify(keyPaths) !== JSON.stringify(state.keyPaths);
    state.keyPaths = keyPaths;
    syncHashVersion(keyPaths);
    if (source || keyChanged) clearRoute();
    const weightPath = wantedWeightPath() ?? (el.spreadSelect.value === 'field' ? state.analyzedWeightPath : undefined);
    if (source) {
      state.source = {kind: source.kind, name: source.name ?? null, label, ...extra};
      compareView.sourceChanged();
      // New data: the synthetic analysis of the old data goes.
      if (state.synthetic || state.synReport) client.release(SYNTHETIC_SLOT).catch(() => {});
      state.synthetic = null;
      state.synReport = null;
      state.view = 'plain';
    } else if (!state.source) {
      return undefined;
    }
    // A suffix key builds on the typed key, so it is read again; a concatenation stands alone.
    if (source) state.sourceRequest = source;
    // After an engine restart the worker holds no source and no analysis: send the source again.
    const send = source ?? (state.engineLost ? state.sourceRequest : null);
    const lost = state.engineLost;
    const synthetic = state.synthetic;
    const rereadSynthetic = !!synthetic &&
      (lost || synthetic.kind !== 'concat' || weightPath !== state.analyzedWeightPath);
    const weighted = weightPath !== undefined;
    const mainContainer = withWeights(containerOptions('main'), weighted);
    const synContainer = synthetic ? withWeights(containerOptions(SYNTHETIC_SLOT), weighted) : null;
    state.lastModelKey = modelKey(mainContainer, synContainer);
    return run(async (onProgress) => {
      let main = send
        ? await client.analyze({source: send, keyPaths, weightPath, container: mainContainer, onProgress})
        : await client.reanalyze({keyPaths, weightPath, container: mainContainer, onProgress});
      if (lost) state.engineLost = false;
      if (pickKey) {
        // The first pass sampled the candidate paths; the advisor's best one is the key.
        const pick = advisorPick(main);
        if (pick && pick.path !== PROBE_KEY) {
          el.keyInput.value = pick.path;
          state.keyPaths = [pick.path];
          main = await client.reanalyze({keyPaths: [pick.path], weightPath, container: mainContainer, onProgress});
        }
        setKeyPick(pick, main);
        state.pageKey = el.keyInput.value;
      }
      if (!rereadSynthetic) return {main, weightPath: weightPath ?? ''};
      state.progressLabel = 'synthetic key';
      try {
        const syn = await client.reanalyze({slot: SYNTHETIC_SLOT, keyPaths: [keyPaths[0]], weightPath, synthetic,
                                            container: synContainer, onProgress});
        return {main, syn, synthetic, weightPath: weightPath ?? ''};
      } catch (error) {
        if (error.cancelled) throw error;
        return {main, syn: null, weightPath: weightPath ?? '', error};
      }
    });
  }

  /** ContainerOptions with the 'field' spread when the analysis carries weights. */
  function withWeights(container, weighted) {
    if (el.spreadSelect.value === 'field' && weighted) container.workload.spread = 'field';
    return container;
  }

  function analyzeSource(source, label, extra = {}, {pickKey = false} = {}) {
    return analyzeAll({source, label, extra, pickKey});
  }

  /**
   * Whether the key input still holds a key the page put there (an example's, or the pick for
   * earlier data): new data then starts from its own paths. A key the user typed is kept.
   */
  function keyIsThePages() {
    const typed = el.keyInput.value.trim();
    return typed === '' || typed === state.pageKey;
  }

  /**
   * The advisor's best candidate that is not poor (report.advisor, best first), or null. The
   * engine's advisor already judges an export's system properties (/_rid, /_etag, ...) poor.
   */
  function advisorPick(report) {
    const candidates = report?.advisor?.candidates ?? [];
    const pick = candidates.find((c) => c.verdict !== 'poor');
    if (!pick) return null;
    return {path: pick.path, verdict: pick.verdict, rank: pick.rank, of: candidates.length};
  }

  /** Says which key the advisor picked for the loaded data (or that none could be). */
  function setKeyPick(pick, report = null) {
    state.keyPick = pick;
    el.keyPickNote.hidden = !report;
    if (!report) return;
    el.keyPickNote.textContent = pick
      ? `Picked by the key advisor for this data: ${pick.path} (${pick.verdict}, best of ${formatInt(pick.of)} ` +
        'candidate paths, ranked in the list below). Type another key to compare.'
      : `No candidate path of this data is a good key; showing ${PROBE_KEY}. Pick one from the list below.`;
  }

  function reanalyze() {
    return analyzeAll();
  }

  /** Analyzes the same data under the synthetic key of the form, next to the plain key. */
  function analyzeSynthetic() {
    if (!state.report || !state.source) return;
    let synthetic;
    try {
      synthetic = syntheticFromForm();
    } catch (e) {
      showError({codeName: 'bad_request', message: e.message});
      return;
    }
    const keyPaths = state.keyPaths;
    const weightPath = state.analyzedWeightPath;
    // The view moves to the synthetic key, whose values differ: the route of the plain key goes.
    clearRoute();
    const synContainer = withWeights(containerOptions(SYNTHETIC_SLOT), weightPath !== undefined);
    state.lastModelKey = modelKey(withWeights(containerOptions('main'), weightPath !== undefined), synContainer);
    state.progressLabel = 'synthetic key';
    return run(async (onProgress) => {
      // After an engine restart the worker has no source to read the synthetic key from: send it.
      let main;
      if (state.engineLost && state.sourceRequest) {
        main = await client.analyze({source: state.sourceRequest, keyPaths, weightPath, onProgress,
                                     container: withWeights(containerOptions('main'), weightPath !== undefined)});
        state.engineLost = false;
      }
      const syn = await client.reanalyze({slot: SYNTHETIC_SLOT, keyPaths: [keyPaths[0]], weightPath, synthetic,
                                          container: synContainer, onProgress});
      el.syntheticNote.textContent = '';
      return {main, syn, synthetic, view: 'synthetic'};
    });
  }

  function removeSynthetic() {
    client.release(SYNTHETIC_SLOT).catch(() => {});
    state.synReport = null;
    state.synthetic = null;
    switchView('plain');
  }

  /** Shows the plain or the synthetic key's results. The route belongs to one key, so it goes. */
  function switchView(view) {
    const changed = state.view !== view;
    state.view = view;
    if (changed) clearRoute();
    renderAll();
    if (changed) applySettings();
  }

  function clearRoute() {
    state.route = null;
    el.routeInput.value = '';
  }

  /**
   * Applies the container controls: re-models both analyses (fast, no reading), or reads the data
   * again when the 'field' spread needs a field the analyses were not read with.
   */
  function applySettings() {
    syncControls();
    if (!state.report) return;
    if (state.busyKind === 'analysis') {
      state.pendingApply = true;
      return;
    }
    const wanted = wantedWeightPath();
    if (state.engineLost || (wanted !== undefined && wanted !== state.analyzedWeightPath)) {
      analyzeAll();
      return;
    }
    const weighted = state.analyzedWeightPath !== undefined;
    const main = withWeights(containerOptions('main'), weighted);
    const syn = state.synReport ? withWeights(containerOptions(SYNTHETIC_SLOT), weighted) : null;
    const key = modelKey(main, syn);
    if (key === state.lastModelKey) return;
    state.lastModelKey = key;
    const routeSent = !!(main.route || syn?.route);
    run(async () => {
      const mainReport = await client.model({container: main});
      const synReport = syn ? await client.model({slot: SYNTHETIC_SLOT, container: syn}) : undefined;
      compareView.settingsChanged();
      return {main: mainReport, syn: synReport, remodelled: true};
    }, {
      kind: 'model',
      onError: () => {
        // A route the engine refuses (say, too many values) must not stick to every later change.
        if (routeSent) {
          state.route = null;
          state.lastModelKey = '';
        }
      },
    });
  }

  function analyzeFile(file) {
    if (!file) return;
    selectOwnData();
    analyzeSource({kind: SourceKind.FILE, file, name: file.name}, `${file.name} (${formatBytes(file.size)})`, {},
                  {pickKey: keyIsThePages()});
  }

  function analyzePaste() {
    const text = el.pasteInput.value;
    selectOwnData();
    analyzeSource({kind: SourceKind.TEXT, text, name: 'pasted text'}, 'pasted text', {text},
                  {pickKey: keyIsThePages()});
  }

  function analyzeExample(example) {
    el.keyInput.value = example.key;
    state.pageKey = example.key;
    el.exampleDescription.textContent = example.description ?? '';
    const container = example.container && typeof example.container === 'object' ? example.container : {};
    applySettingsToControls({...container, synthetic: example.synthetic ?? container.synthetic});
    el.exampleLesson.hidden = typeof example.lesson !== 'string';
    el.exampleLesson.replaceChildren(h('strong', {text: 'Lesson: '}), example.lesson ?? '');
    const url = new URL(example.file, examplesBase).href;
    analyzeSource({kind: SourceKind.URL, url, name: example.file}, `example ${example.file}`);
  }

  function selectOwnData() {
    let own = el.exampleSelect.querySelector('option[data-own]');
    if (!own) {
      own = h('option', {text: 'Your own data'});
      own.value = '';
      own.dataset.own = '';
      own.disabled = true;
      el.exampleSelect.append(own);
    }
    own.selected = true;
    el.exampleDescription.textContent = '';
    el.exampleLesson.hidden = true;
  }

  // ---------------------------------------------------------------------------------------------
  // Progress.

  function showProgress() {
    el.progress.hidden = false;
    el.results.classList.add('stale');
    updateProgress();
  }

  function updateProgress() {
    const p = state.progress;
    if (!p) {
      el.progressTrack.classList.add('indeterminate');
      el.progressText.textContent = 'Starting the engine…';
      return;
    }
    const items = `${formatInt(p.items)} items`;
    const name = [state.source?.name, state.progressLabel ? `(${state.progressLabel})` : ''].filter(Boolean).join(' ');
    const what = name ? `${name}: ` : '';
    // A gzip source's bar follows the compressed bytes (the only total known).
    const share = progressShare(p);
    if (share !== null) {
      el.progressTrack.classList.remove('indeterminate');
      el.progressBar.style.width = `${(share * 100).toFixed(1)}%`;
      el.progressTrack.setAttribute('aria-valuenow', String(Math.round(share * 100)));
      el.progressText.textContent = `Analyzing ${what}${progressBytes(p)} (${formatPercent(share)}) · ${items}`;
    } else {
      el.progressTrack.classList.add('indeterminate');
      el.progressTrack.removeAttribute('aria-valuenow');
      el.progressText.textContent = `Analyzing ${what}${progressBytes(p)} · ${items}`;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Errors.

  const ERROR_HINTS = {
    bad_key_path: 'A key path is a JSON pointer: it starts with "/", like /customerId or /address/city. ' +
      'Inside a field name write ~1 for "/" and ~0 for "~".',
    malformed_json: 'The data is not valid JSON at that spot. NDJSON needs one complete object after another; ' +
      'a JSON array needs commas between its objects.',
    truncated_input: 'The input ended in the middle of a value: is a closing bracket or brace missing?',
    not_an_object: 'Every item must be a JSON object ({…}): one object, an array of objects, or NDJSON.',
    empty_input: 'There is nothing to analyze: paste some JSON or choose a file.',
    invalid_utf8: 'The file is not UTF-8 text. Save it as UTF-8 and try again.',
    too_deep: 'An item nests objects or arrays deeper than the parser allows.',
    item_too_large: 'One item is larger than the engine can hold at once.',
    io: 'The data could not be read.',
    bad_option: 'A container, workload or synthetic-key setting is out of range, or a routed key has the wrong number ' +
      'of values (one per key path; fewer for a prefix of a hierarchical key).',
    no_analysis: 'Analyze some data first.',
    bad_request: '',
    cancelled: 'Choose data or a key to start again.',
    worker_failed: 'The engine could not start. Reload the page; if that does not help, the browser may not support module workers.',
    engine_load: 'The engine could not start. Reload the page.',
  };

  function showError(e) {
    const cancelled = e.codeName === 'cancelled';
    el.errorTitle.textContent = cancelled ? 'Analysis cancelled' : 'Could not analyze the data';
    el.errorMessage.textContent = (e.message || 'Unknown error.') +
      (e.codeName === 'engine_failed' && state.sourceRequest ? ' The next step reads the data again.' : '');
    el.errorPanel.dataset.code = e.codeName ?? '';

    el.errorLocation.replaceChildren();
    // Fields that do not apply are -1 (offsets, indexes) or 0 (line, column).
    const loc = e.location;
    const has = (v, min) => typeof v === 'number' && v >= min;
    const keyPathError = e.codeName === 'bad_key_path';
    const entries = [];
    let excerpt = null;
    if (loc && keyPathError) {
      // The location is inside the key path text, not the data.
      const path = state.keyPaths.find((p) => e.message.includes(JSON.stringify(p))) ?? state.keyPaths[0] ?? '';
      if (has(loc.column, 1)) {
        entries.push(['position in the key path', formatInt(loc.column), 'column']);
        excerpt = `key path: ${path}\n${' '.repeat('key path: '.length + Array.from(path.slice(0, loc.column - 1)).length)}^`;
      }
    } else if (loc) {
      if (has(loc.line, 1)) entries.push(['line', formatInt(loc.line), 'line']);
      if (has(loc.column, 1)) entries.push(['column', formatInt(loc.column), 'column']);
      if (has(loc.byte_offset, 0)) entries.push(['byte offset', formatInt(loc.byte_offset), 'byte-offset']);
      if (has(loc.item_index, 0)) entries.push(['item', `#${formatInt(loc.item_index)}`, 'item-index']);
      if (state.source?.kind === SourceKind.TEXT && has(loc.line, 1)) excerpt = caretExcerpt(state.source.text, loc.line, loc.column);
    }
    if (e.codeName && !cancelled) {
      entries.push(['code', e.code != null ? `${e.codeName} (${e.code})` : e.codeName, 'code']);
    }
    for (const [label, value, testid] of entries) {
      el.errorLocation.append(h('div', {testid: `error-${testid}`}, [h('dt', {text: label}), h('dd', {text: value})]));
    }

    el.errorExcerpt.hidden = !excerpt;
    el.errorExcerpt.textContent = excerpt ?? '';
    el.errorHint.textContent = ERROR_HINTS[e.codeName] ?? '';
    el.errorPanel.hidden = false;
    el.errorPanel.scrollIntoView({block: 'nearest'});
    if (state.report) {
      el.results.classList.add('stale');
      el.results.setAttribute('aria-describedby', 'error-title');
    }
  }

  function hideError() {
    el.errorPanel.hidden = true;
    el.results.classList.remove('stale');
    el.results.removeAttribute('aria-describedby');
  }

  // ---------------------------------------------------------------------------------------------
  // Rendering a report.

  function setFigure(testid, text, value, options) {
    setFigureNode(root.querySelector(`[data-testid="${testid}"]`), text, value, options);
  }

  function setSub(testid, content) {
    const node = root.querySelector(`[data-testid="${testid}"]`);
    node.replaceChildren(...(Array.isArray(content) ? content : [content]));
  }

  function partitionedBytes(report) {
    return report.bytes - (report.invalid_key?.bytes ?? 0);
  }

  /** A report's key in words: the paths, or how its synthetic key is built. */
  function keyDescription(report) {
    if (report?.synthetic) return `synthetic key ${describeSynthetic(report.synthetic, state.keyPaths[0] ?? report.key_paths[0])}`;
    return `key ${report.key_paths.join(', ')}`;
  }

  /** Renders everything from the reports in the state. */
  function renderAll() {
    const report = viewReport();
    if (!report) return;
    const src = state.reportSource;
    const formatName = {ndjson: 'NDJSON', array: 'JSON array', object: 'single object'}[report.format] ?? report.format;
    // A gzip source says both sizes: every size of the report is the decompressed JSON's.
    const read = report.source?.compressedBytes !== undefined
      ? `${sourceSize({bytes: report.input_bytes, compressedBytes: report.source.compressedBytes})} read`
      : `${formatBytes(report.input_bytes)} read`;
    const parts = [src?.label ?? 'data', formatName, read];
    if (report.timing) parts.push(`${report.timing.bytesPerSecond === null ? 'modelled' : 'analyzed'} in ${formatMs(report.timing.ms)}`);
    el.sourceLine.textContent = `${parts.join(' · ')} · ${keyDescription(report)}`;
    el.sourceLine.dataset.bytes = String(report.input_bytes);
    if (report.source?.compressedBytes !== undefined) el.sourceLine.dataset.compressedBytes = String(report.source.compressedBytes);
    else delete el.sourceLine.dataset.compressedBytes;

    const synthetic = report === state.synReport;
    el.viewSwitch.hidden = !state.synReport;
    for (const radio of el.viewSwitch.querySelectorAll('input')) radio.checked = radio.value === (synthetic ? 'synthetic' : 'plain');
    el.results.dataset.view = synthetic ? 'synthetic' : 'plain';
    el.syntheticRemove.disabled = !state.synReport;

    renderSummary(report);
    renderInsights(report);
    renderCandidates(state.report);
    el.results.hidden = false;
    renderFindings(root, report);
    const hasContainer = !!report.container;
    for (const section of containerSections) section.hidden = !hasContainer && section.dataset.testid !== 'synthetic-panel';
    if (hasContainer) {
      renderSyntheticCompare(root, state.report, state.synReport, {basePath: state.keyPaths[0] ?? state.report.key_paths[0]});
      renderAdvisor(root, state.report, {currentPaths: state.report.key_paths, onUse: useKeyPath, showAll: state.showAllAdvice,
                                   onToggle: () => {
                                     state.showAllAdvice = !state.showAllAdvice;
                                     renderAll();
                                   }});
      // A routing example from the data: its largest key.
      const largest = report.largest_partition?.key;
      if (largest && !largest.some((v) => v !== null && typeof v === 'object')) {
        el.routeInput.placeholder = largest.length === 1 ? JSON.stringify(largest[0]) : JSON.stringify(largest);
      }
    }
    syncControls();
    renderCharts();
    renderPartitionPage();
  }

  /** Uses `path` as the partition key (from the advisor). */
  function useKeyPath(path) {
    el.keyInput.value = path;
    reanalyze();
    el.keyInput.scrollIntoView({block: 'center', behavior: 'smooth'});
  }

  function renderSummary(report) {
    setFigure('summary-items', formatInt(report.items), report.items);
    setFigure('summary-partitions', formatInt(report.partition_count), report.partition_count,
              {level: report.partition_count === 1 && report.items > 1 ? 'warn' : ''});
    setFigure('summary-bytes', formatBytes(report.bytes), report.bytes, {title: `${formatInt(report.bytes)} bytes`});
    const largest = report.largest_partition;
    if (largest) {
      setFigure('summary-largest', formatBytes(largest.bytes), largest.bytes, {
        title: `${formatInt(largest.bytes)} bytes, ${formatPercent(largest.bytes / LOGICAL_LIMIT())} of the ` +
          `${limitText(LOGICAL)} limit`,
        level: largest.bytes > LOGICAL_LIMIT() ? 'bad' : largest.bytes > LOGICAL_LIMIT() / 2 ? 'warn' : '',
      });
      setSub('summary-largest-key', [h('span', {text: 'key '}), keyNode(largest.key),
        h('span', {text: ` · ${formatInt(largest.items)} items`})]);
    } else {
      setFigure('summary-largest', '–', 0);
      setSub('summary-largest-key', h('span', {text: 'no partitions'}));
    }
    setFigure('summary-mean', formatBytes(report.mean_partition_bytes), report.mean_partition_bytes,
              {title: `${formatDecimal(report.mean_partition_bytes)} bytes`});
    const top = report.top1_percent ?? {partitions: 0, bytes: 0, share: 0};
    setFigure('summary-top1', formatPercent(top.share), top.share,
              {level: top.share > 0.5 && report.partition_count >= 100 ? 'warn' : ''});
    setSub('summary-top1-sub', h('span', {
      text: `${formatInt(top.partitions)} partition${top.partitions === 1 ? '' : 's'}, ${formatBytes(top.bytes)}`,
    }));
    const gini = report.gini ?? 0;
    setFigure('summary-gini', formatDecimal(gini), gini, {level: gini >= 0.6 ? 'warn' : ''});
    setSub('summary-gini-sub', h('span', {
      text: report.partition_count <= 1 ? 'one partition' : gini < 0.3 ? 'fairly even' : gini < 0.6 ? 'moderately skewed' : 'strongly skewed',
    }));
    setFigure('summary-undefined', formatInt(report.undefined_key_items), report.undefined_key_items,
              {level: report.undefined_key_items > 0 ? 'warn' : ''});
    const invalid = report.invalid_key?.items ?? 0;
    setFigure('summary-invalid', formatInt(invalid), invalid, {level: invalid > 0 ? 'bad' : ''});
    const oversized = report.oversized_items?.count ?? 0;
    setFigure('summary-oversized', formatInt(oversized), oversized, {level: oversized > 0 ? 'bad' : ''});
  }

  function describeLocation(x) {
    const bits = [];
    if (x.line != null) bits.push(`line ${formatInt(x.line)}`);
    if (x.column != null) bits.push(`column ${formatInt(x.column)}`);
    if (x.item_index != null) bits.push(`item #${formatInt(x.item_index)}`);
    return bits.join(', ');
  }

  /** The engine's judgement of the key (`insights`, docs/report.md): "{0}" in a message is keys[0]. */
  function renderInsights(report) {
    el.insights.replaceChildren(...(report.insights ?? []).map((insight) => {
      const content = insight.message.split(/(\{\d+\})/).filter((part) => part !== '').map((part) => {
        const index = /^\{(\d+)\}$/.exec(part)?.[1];
        return index !== undefined && insight.keys[Number(index)] ? keyNode(insight.keys[Number(index)]) : part;
      });
      const item = h('li', {className: insight.level}, content);
      item.dataset.code = insight.code;
      return item;
    }));
  }

  function renderCandidates(report) {
    const cp = report.candidate_paths ?? {sampled_items: 0, paths: []};
    // Most suitable first: the advisor's rank (coverage, cardinality, spread), else as sampled.
    const advice = new Map((report.advisor?.candidates ?? []).map((a) => [a.path, a]));
    const rankOf = (c) => advice.get(c.path)?.rank ?? Infinity;
    const paths = [...(cp.paths ?? [])].sort((a, b) => rankOf(a) - rankOf(b));
    const current = report.key_paths.length === 1 ? report.key_paths[0] : null;
    el.keyCandidates.replaceChildren(...paths.map((c) => {
      const option = document.createElement('option');
      option.value = c.path;
      option.label = `${formatInt(c.distinct)}${c.distinct_capped ? '+' : ''} distinct values`;
      return option;
    }));
    el.candidatesNote.textContent = paths.length
      ? `(${formatInt(paths.length)} scalar paths seen in the first ${formatInt(cp.sampled_items)} items` +
        `${advice.size ? ', most suitable first' : ''})`
      : '(none found)';
    el.candidateRows.replaceChildren(...paths.map((c) => {
      const button = h('button', {className: `path-button${c.path === current ? ' current' : ''}`, text: c.path,
                                  title: `Re-analyze with ${c.path}`});
      button.type = 'button';
      button.addEventListener('click', () => {
        el.keyInput.value = c.path;
        reanalyze();
      });
      const share = cp.sampled_items ? ` (${formatPercent(c.items / cp.sampled_items)})` : '';
      const types = h('td', {}, ['string', 'number', 'boolean', 'null']
        .filter((t) => c.types?.[t] > 0)
        .map((t) => h('span', {className: 'type-chip', text: `${t} ${formatInt(c.types[t])}`})));
      const a = advice.get(c.path);
      const verdict = h('td', {className: a ? `verdict verdict-${a.verdict}` : '', text: a ? a.verdict : '–',
                               title: a ? a.reasons.join('\n') : 'the key advisor needs the container model'});
      const tr = h('tr', {}, [
        h('td', {}, [button]),
        h('td', {className: 'num', text: `${formatInt(c.items)}${share}`}),
        h('td', {className: 'num', text: `${c.distinct_capped ? '≥ ' : ''}${formatInt(c.distinct)}`}),
        types,
        verdict,
      ]);
      tr.dataset.path = c.path;
      return tr;
    }));
  }

  function renderCharts() {
    const report = viewReport();
    if (!report || el.results.hidden) return;
    try {
      renderHistogram(el.histogram, report);
      renderConcentration(el.concentration, report);
      fillSizeTables(report);
    } catch (e) {
      el.histogram.replaceChildren(h('p', {className: 'hint', text: `The chart could not be drawn: ${e.message}`}));
    }
    if (!report.container) return;
    try {
      renderContainer(root, report, {mapEl: el.partitionMap, showRoute: !!state.route});
      renderWorkload(root, report, {demandEl: el.demandChart});
      renderGrowth(root, report, {beforeEl: el.mapBefore, afterEl: el.mapAfter});
    } catch (e) {
      el.partitionMap.replaceChildren(h('p', {className: 'hint', text: `The container could not be drawn: ${e.message}`}));
      throw e;
    }
  }

  /** The table views of the histogram and the concentration curve: the same numbers as text. */
  function fillSizeTables(report) {
    const sizes = report.partition_bytes ?? Float64Array.from(report.partitions ?? [], (p) => p.bytes);
    fillTable(root.querySelector('[data-testid="histogram-table"]'),
              [{label: 'partition size from'}, {label: 'to'}, {label: 'partitions', num: true}, {label: 'bytes in all', num: true}],
              logBins(sizes).filter((b) => b.count > 0)
                .map((b) => [formatBytes(b.x0), formatBytes(b.x1), formatInt(b.count), formatBytes(b.bytes)]),
              {caption: 'Partitions per size bin'});
    let total = 0;
    for (let i = 0; i < sizes.length; i++) total += sizes[i];
    const rows = [];
    for (const share of [0.01, 0.05, 0.1, 0.25, 0.5, 1]) {
      const n = Math.min(sizes.length, Math.max(1, Math.ceil(sizes.length * share)));
      let bytes = 0;
      for (let i = 0; i < n; i++) bytes += sizes[i];
      if (sizes.length) rows.push([`largest ${formatPercent(share)}`, formatInt(n), formatBytes(bytes), formatPercent(total ? bytes / total : 0)]);
    }
    fillTable(root.querySelector('[data-testid="concentration-table"]'),
              [{label: 'partitions'}, {label: 'count', num: true}, {label: 'bytes', num: true}, {label: 'share of bytes', num: true}],
              rows, {caption: 'Share of the bytes held by the largest partitions'});
  }

  function renderPartitionPage() {
    const report = viewReport();
    const ranges = report.container?.before?.ranges ?? null;
    const partitions = report.partitions ?? [];
    const pages = Math.max(1, Math.ceil(partitions.length / PAGE_SIZE));
    state.page = Math.min(Math.max(0, state.page), pages - 1);
    const from = state.page * PAGE_SIZE;
    const rows = partitions.slice(from, from + PAGE_SIZE);
    const partitioned = partitionedBytes(report);
    el.partitionRows.replaceChildren(...rows.map((p, i) => {
      const range = ranges && p.epk ? rangeOf(p.epk, ranges) : null;
      const share = partitioned > 0 ? p.bytes / partitioned : 0;
      const fill = h('div', {className: 'share-fill'});
      // Scale bars to the largest partition so small shares stay visible.
      const top = partitions[0]?.bytes || 1;
      fill.style.width = `${Math.max(0.5, (p.bytes / top) * 100).toFixed(2)}%`;
      const tr = h('tr', {}, [
        h('td', {className: 'num', text: formatInt(from + i + 1)}),
        h('td', {}, [keyNode(p.key)]),
        h('td', {className: 'num', text: formatInt(p.items)}),
        h('td', {className: 'num', text: formatBytes(p.bytes), title: `${formatInt(p.bytes)} bytes`}),
        h('td', {className: 'col-share'}, [h('div', {className: 'share'}, [h('div', {className: 'share-track'}, [fill]),
                                                     h('span', {className: 'share-text', text: formatPercent(share)})])]),
        h('td', {className: 'num col-largest', text: formatBytes(p.largest_item_bytes),
                 title: `item #${formatInt(p.largest_item_index)}, ${formatInt(p.largest_item_bytes)} bytes`}),
        h('td', {className: 'col-epk epk', text: p.epk ? shortEpk(p.epk, 12) : '–',
                 title: p.epk ? `effective partition key ${p.epk}` : 'no EPK (no container model)'}),
        h('td', {className: 'num col-range', text: range ? `P${range.id}` : '–',
                 title: range ? `physical partition P${range.id}, EPK range [${range.min || '""'}, ${range.max})` : ''}),
      ]);
      tr.dataset.key = formatKey(p.key);
      if (p.epk) tr.dataset.epk = p.epk;
      if (range) tr.dataset.range = String(range.id);
      return tr;
    }));
    if (rows.length === 0) {
      el.partitionRows.append(h('tr', {}, [Object.assign(h('td', {text: 'No partitions.'}), {colSpan: 8})]));
    }
    const total = report.partition_count;
    let status = rows.length
      ? `Showing ${formatInt(from + 1)}–${formatInt(from + rows.length)} of ${formatInt(total)} partitions`
      : `Showing 0 of ${formatInt(total)} partitions`;
    if (report.partitions_omitted > 0) {
      status += ` (the largest ${formatInt(partitions.length)} are listed)`;
    }
    el.pageStatus.textContent = status;
    el.pageStatus.dataset.shown = String(rows.length);
    el.pageStatus.dataset.total = String(total);
    el.pagePrev.disabled = state.page === 0;
    el.pageNext.disabled = state.page >= pages - 1;
  }

  // ---------------------------------------------------------------------------------------------
  // Examples.

  async function loadExamples() {
    const indexUrl = new URL('index.json', examplesBase);
    const response = await fetch(indexUrl);
    if (!response.ok) throw new Error(`examples/index.json: HTTP ${response.status}`);
    const list = await response.json();
    state.examples = (Array.isArray(list) ? list : []).filter((e) =>
      e && typeof e.id === 'string' && typeof e.file === 'string' && typeof e.key === 'string');
    el.exampleSelect.replaceChildren(...state.examples.map((e) => {
      const option = h('option', {text: typeof e.title === 'string' ? e.title : e.id});
      option.value = e.id;
      return option;
    }));
  }

  // ---------------------------------------------------------------------------------------------
  // Events.

  el.exampleSelect.addEventListener('change', () => {
    const example = state.examples.find((e) => e.id === el.exampleSelect.value);
    if (example) analyzeExample(example);
  });

  el.fileInput.addEventListener('change', () => {
    const file = el.fileInput.files?.[0];
    el.fileInput.value = '';
    analyzeFile(file);
  });

  let dragDepth = 0;
  el.dropzone.addEventListener('dragenter', (event) => {
    event.preventDefault();
    dragDepth++;
    el.dropzone.classList.add('dragging');
  });
  el.dropzone.addEventListener('dragover', (event) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  el.dropzone.addEventListener('dragleave', () => {
    if (--dragDepth <= 0) {
      dragDepth = 0;
      el.dropzone.classList.remove('dragging');
    }
  });
  el.dropzone.addEventListener('drop', (event) => {
    event.preventDefault();
    dragDepth = 0;
    el.dropzone.classList.remove('dragging');
    analyzeFile(event.dataTransfer?.files?.[0]);
  });
  // A file dropped next to the drop zone must not replace the page.
  const keepPage = (event) => {
    if (!el.dropzone.contains(event.target)) event.preventDefault();
  };
  for (const type of ['dragover', 'drop']) window.addEventListener(type, keepPage);

  el.analyzeButton.addEventListener('click', analyzePaste);
  el.pasteInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      analyzePaste();
    }
  });

  el.keyForm.addEventListener('submit', (event) => {
    event.preventDefault();
    reanalyze();
  });

  // Enter applies the typed key in every engine: while WebKit (Safari) shows the datalist's
  // suggestions it keeps the Enter key for the list, and the form would not submit.
  el.keyInput.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    submitForm(el.keyForm);
  });

  // Picking a suggestion from the datalist applies it at once (typing waits for Enter).
  el.keyInput.addEventListener('input', (event) => {
    const picked = !(event instanceof InputEvent) || event.inputType === 'insertReplacementText';
    const known = state.report?.candidate_paths?.paths?.some((c) => c.path === el.keyInput.value);
    if (picked && known) reanalyze();
  });

  el.cancelButton.addEventListener('click', () => {
    client.cancel().catch(() => {});
  });

  el.pagePrev.addEventListener('click', () => {
    state.page--;
    renderPartitionPage();
  });
  el.pageNext.addEventListener('click', () => {
    state.page++;
    renderPartitionPage();
  });

  // Container, workload and growth settings: a change applies at once (Enter, leaving a field,
  // picking an option); typing in a number field applies after a short pause.
  let settleTimer = 0;
  function settingsChanged(event) {
    clearTimeout(settleTimer);
    if (event.type === 'input' && event.target.type === 'number') {
      settleTimer = setTimeout(applySettings, SETTLE_MS);
    } else if (event.type === 'change') {
      applySettings();
    }
  }
  for (const form of [el.containerForm, el.workloadForm, el.growthForm]) {
    form.addEventListener('input', settingsChanged);
    form.addEventListener('change', settingsChanged);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      clearTimeout(settleTimer);
      applySettings();
    });
  }
  // The key bar's RU/s (always in reach) and the container form's are one setting: each edit of
  // one is replayed on the other, as if typed there.
  el.quickRuInput.addEventListener('input', () => {
    el.ruInput.value = el.quickRuInput.value;
    el.ruInput.dispatchEvent(new Event('input', {bubbles: true}));
  });
  el.quickRuInput.addEventListener('change', () => {
    el.ruInput.value = el.quickRuInput.value;
    el.ruInput.dispatchEvent(new Event('change', {bubbles: true}));
  });
  el.quickRuInput.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    el.ruInput.value = el.quickRuInput.value;
    clearTimeout(settleTimer);
    applySettings();
  });
  el.ruInput.addEventListener('input', () => { el.quickRuInput.value = el.ruInput.value; });
  // Enter in a number field of these forms (they have no submit button) applies too.
  for (const form of [el.containerForm, el.workloadForm, el.growthForm]) {
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
        event.preventDefault();
        clearTimeout(settleTimer);
        applySettings();
      }
    });
  }

  el.growthForm.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-growth]');
    if (!button) return;
    let factor = Number(button.dataset.growth);
    if (button.dataset.growth === 'storage') {
      // The engine's smallest whole growth past one physical partition's storage quota.
      factor = viewReport()?.container?.growth_to_split ?? 1;
    }
    el.growthInput.value = String(factor);
    clearTimeout(settleTimer);
    applySettings();
  });

  el.routeForm.addEventListener('submit', (event) => {
    event.preventDefault();
    try {
      state.route = parseRoute(el.routeInput.value);
    } catch (e) {
      showError({codeName: 'bad_request', message: e.message});
      return;
    }
    applySettings();
  });
  el.routeClear.addEventListener('click', () => {
    clearRoute();
    applySettings();
  });

  el.syntheticKind.addEventListener('change', syncControls);
  el.syntheticForm.addEventListener('submit', (event) => {
    event.preventDefault();
    analyzeSynthetic();
  });
  el.syntheticRemove.addEventListener('click', removeSynthetic);
  el.viewSwitch.addEventListener('change', (event) => {
    if (event.target.name === 'view') switchView(event.target.value);
  });

  let resizeFrame = 0;
  let lastWidth = 0;
  const resizes = new ResizeObserver((entries) => {
    const width = Math.round(entries[0].contentRect.width);
    if (width === lastWidth) return;
    lastWidth = width;
    cancelAnimationFrame(resizeFrame);
    resizeFrame = requestAnimationFrame(renderCharts);
  });
  resizes.observe(el.histogram);

  // ---------------------------------------------------------------------------------------------
  // Start: load the engine and the examples, then analyze the first example.

  (async () => {
    try {
      await loadExamples();
    } catch (e) {
      el.exampleSelect.replaceChildren(h('option', {text: 'Examples unavailable'}));
      state.runSeq++;
      showError({codeName: 'io', message: `The bundled examples could not be loaded: ${e.message}`});
      finishRun('error');
      return;
    }
    if (state.examples.length > 0) analyzeExample(state.examples[0]);
    else finishRun('ready');
  })();

  syncControls();

  return {
    /** Draws the charts again (they need a width: call when the mode shows). */
    renderCharts,
    /**
     * Where the data on screen came from, for sharing: {kind: 'example' | 'file' | 'text' | ...,
     * name, file?: File, text?: string}, or null before any.
     */
    source() {
      const s = state.sourceRequest;
      if (!s) return null;
      if (s.kind === SourceKind.URL) return {kind: 'example', name: s.name ?? null};
      return {kind: s.kind, name: s.name ?? null, file: s.file, text: s.text};
    },
    /** Tears the view down: no observer or page listener left, `root` emptied. */
    destroy() {
      compareView.destroy();
      resizes.disconnect();
      cancelAnimationFrame(resizeFrame);
      clearTimeout(settleTimer);
      for (const type of ['dragover', 'drop']) window.removeEventListener(type, keepPage);
      root.replaceChildren();
    },
  };
}
