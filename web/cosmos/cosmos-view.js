// The Cosmos DB mode of the page: renders its markup (cosmos-template.js) into the root it is
// given, wires its controls to the engine worker (through client.js) and shows the reports. This
// file runs analyses and wires events; its concerns live beside it: the elements
// (cosmos-elements.js), the settings as engine options (cosmos-settings.js), progress and errors
// (cosmos-status.js), the results (cosmos-results.js, container-view.js), key comparison
// (compare-view.js).
//
//   const cosmos = mountCosmosView(root, client, {statusNode: document.body});
//   cosmos.activate();        // when the mode shows again (charts need a width)
//   cosmos.shareState();      // {e, k, h, r, d?}: what a link restores (restoreState)
//   cosmos.destroy();
//
// The handle is web/common/view.js's. Every element it reads is looked up inside root;
// statusNode carries data-state (loading | ready | error) and data-runs (finished runs), which
// the tests wait on, and root emits 'pp:run' and 'pp:source' (view.js VIEW_EVENTS).
// The main thread never parses the data; it only sends sources to the worker and draws what comes
// back. Text that came from the user or the data (keys, values, file names, error messages) is
// only ever inserted with textContent.
//
// Two analyses of the same source may be on screen: 'main' (the key typed in section 2) and,
// when the user builds one, 'synthetic' (the same data under a synthetic key). The worker keeps
// both (protocol.js slots), so container-only changes (throughput, hash version, growth,
// workload, routing) are re-modelled with client.model() without reading the data again.
import {h, submitForm} from '../common/dom.js';
import {formatBytes, formatInt} from '../common/format.js';
import {fillLimits, hasVocabulary} from '../common/limits.js';
import {VIEW_EVENTS, emitViewEvent, renderTemplate} from '../common/view.js';
import {SourceKind} from '../worker/protocol.js';
import {mountCompareView} from './compare-view.js';
import {cosmosElements} from './cosmos-elements.js';
import {wireExports} from './cosmos-exports.js';
import {createLink} from './cosmos-link.js';
import {createResults} from './cosmos-results.js';
import {SYNTHETIC_SLOT, createSettings} from './cosmos-settings.js';
import {createStatus} from './cosmos-status.js';
import {COSMOS_TEMPLATE} from './cosmos-template.js';

const PROGRESS_DELAY_MS = 500;
/** Typing in a number field re-models after this pause (Enter or leaving the field applies at once). */
const SETTLE_MS = 400;  // lint-ok: typing pause (ms)
/** The key of the first pass over own data, which only samples its candidate paths. */
const PROBE_KEY = '/id';

/**
 * Mounts the Cosmos DB mode on `root` with `client` (web/worker/client.js): renders its template
 * (cosmos-template.js) into root and analyses the first example at once. Returns the view handle
 * of web/common/view.js plus source() and renderCharts().
 */
export function mountCosmosView(root, client, {statusNode = root, examplesBase = new URL('examples/', document.baseURI)} = {}) {
  renderTemplate(root, COSMOS_TEMPLATE);
  const el = cosmosElements(root);

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
    emitViewEvent(root, VIEW_EVENTS.RUN, {state: value, runs: state.runs});
  }

  /** Resolvers waiting for the next finished run (restoreState). */
  const runWaiters = [];
  const nextRun = () => new Promise((resolve) => runWaiters.push(resolve));
  /** Resolves once no run is in flight and at least one has finished. */
  async function idle() {
    while (state.runs === 0 || ['busy', 'loading'].includes(statusNode.dataset.state)) await nextRun();
  }
  /** Runs `action` (which starts a run) and resolves when that run has finished. */
  async function runAfter(action) {
    const finished = nextRun();
    action();
    await finished;
    await idle();
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

  let sharedSource = null;
  function finishRun(outcome) {
    state.runs++;
    statusNode.dataset.runs = String(state.runs);
    setBusyState(outcome);
    if (state.sourceRequest !== sharedSource) {
      sharedSource = state.sourceRequest;
      emitViewEvent(root, VIEW_EVENTS.SOURCE, {source: handle.source()});
    }
    for (const resolve of runWaiters.splice(0)) resolve();
  }

  /** The report the results show. */
  function viewReport() {
    return state.view === 'synthetic' && state.synReport ? state.synReport : state.report;
  }

  // Settings (cosmos-settings.js), progress and errors (cosmos-status.js), results
  // (cosmos-results.js): the view's concerns, each over the same elements and state.
  const ctx = {root, el, state, containerSections, currentKeyPaths, viewReport, reanalyze};
  const {
    applyVocabulary, numberFrom, wantedWeightPath, containerOptions, settingsForLink, modelKey, syncHashVersion, syncControls,
    applySettingsToControls, syntheticFromForm, parseRoute,
  } = createSettings(ctx);
  ctx.syncControls = syncControls;
  const {showProgress, updateProgress, showError, hideError} = createStatus(ctx);
  const {renderAll, renderCharts, renderPartitionPage} = createResults(ctx);

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
      // New data: a link's note on the data it carried (or did not) no longer applies, and the
      // previous data's paths go while this data is read.
      el.sharedDataNote.hidden = true;
      el.candidateRows.replaceChildren();
      el.keyCandidates.replaceChildren();
      el.candidatesNote.textContent = `(reading ${source.name ?? 'the data'}…)`;
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
      // The examples, and the engine's defaults the first example's settings start from (a
      // failed engine is reported by the analysis itself).
      await Promise.all([loadExamples(), client.ready.catch(() => null)]);
      if (hasVocabulary()) {
        fillLimits(root);
        applyVocabulary();
      }
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

  wireExports(root, {report: viewReport, title: () => `${state.source?.name ?? 'data'}, key ` +
    (state.view === 'synthetic' && state.synReport ? 'synthetic' : state.keyPaths.join(', '))});
  const link = createLink({el, state, client, compareView, settingsForLink, applySettingsToControls, parseRoute,
                           syncControls, selectOwnData, switchView, idle, runAfter});
  const handle = {
    element: root,
    /** The mode shows: charts drawn while hidden have no width, so they are drawn again. */
    activate() {
      requestAnimationFrame(renderCharts);
    },
    deactivate() {},
    /** Draws the charts again (they need a width: call when the mode shows). */
    renderCharts,
    shareState: link.shareState,
    restoreState: link.restoreState,
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
  return handle;
}
