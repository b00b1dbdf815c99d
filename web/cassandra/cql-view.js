// The Cassandra view: the CQL console, the results grid, the token ring with its controls, the
// per-node load and the Cosmos DB Cassandra API comparison, rendered from its own markup
// (cql-markup.js) into the root it is given. Every piece of engine work goes to the worker through
// client.js (protocol.js "CQL requests"); the view only sends requests and draws what comes back,
// and every figure and verdict it shows is the engine's (the ring's `replication`, the layout's
// `cosmos`, the limits table). Text from scripts and results goes in as text only.
//
//   const cassandra = mountCassandraView(root, client, {examplesBase});   // root: an empty element
//   cassandra.activate();     // on the first switch to the Cassandra mode: the examples, the first
//                             // one in the editor (not run: the session starts empty), the empty ring
//   cassandra.deactivate();   // the mode is hidden
//   cassandra.shareState();   // {script, example, nodes, vnodes}: what a share link keeps
//   await cassandra.restoreState({script, nodes, vnodes});   // drives the view to it
//   cassandra.destroy();      // stops its observers and in-flight load, empties root
// Every element it reads is looked up inside root (scopedById); nothing outside root is touched.
//
// The parts, one concern each, share the context `v` (elements, state, request queue and each
// other's functions): cql-console.js (examples, editor, run, reset), cql-results.js (the results
// grid), cql-ring-panel.js (ring form, replication, ring, ownership, load), cql-cosmos-panel.js
// (the Cosmos DB Cassandra API panel) and cql-bulk-load.js (JSON and CSV loads).
//
// Events (CustomEvent on root, bubbling): 'cql:view' {detail: the CqlView on screen} after every
// answer that changes it; 'cql:results' {detail: {results, script}} after each script run.
// root carries data-cql-state ('idle' | 'busy' | 'ready' | 'error'), data-cql-runs (requests
// finished) and data-cql-pending (requests queued or running), which the end-to-end tests wait on.
import {h, scopedById, scopedByTestId} from '../common/dom.js';
import {bulkLoadPart} from './cql-bulk-load.js';
import {consolePart} from './cql-console.js';
import {cosmosPanelPart} from './cql-cosmos-panel.js';
import {cassandraMarkup} from './cql-markup.js';
import {resultsPart} from './cql-results.js';
import {ringPanelPart} from './cql-ring-panel.js';

export {formatOfName} from './cql-bulk-load.js';
export {replicationText} from './cql-text.js';
export {cosmosFigures} from './cql-cosmos-panel.js';
export {quorumText} from './cql-text.js';

/**
 * Mounts the Cassandra view into `root` once the engine is loaded (its markup shows the engine's
 * bounds and defaults); the handle works at once. Options: {examplesBase} (examples/cql/).
 */
export function mountCassandraView(root, client, {examplesBase = new URL('examples/cql/', document.baseURI)} = {}) {
  let view = null;
  let wanted = false;
  let destroyed = false;
  const mounted = client.ready.then(() => {
    if (destroyed) return;
    root.innerHTML = cassandraMarkup();
    view = wireCassandraView(root, client, {examplesBase});
    if (wanted) view.activate();
  }, (e) => {
    if (!destroyed) root.replaceChildren(h('p', {className: 'callout bad', text: `The Cassandra view needs the engine: ${e?.message ?? e}`}));
  });
  return {
    /** The mode shows: on the first call, the examples load and the first one waits in the editor (not run). */
    activate() {
      wanted = true;
      return view ? view.activate() : mounted.then(() => view?.activate());
    },
    deactivate() {
      wanted = false;
    },
    /** Tears the view down: no more redraws, the load in flight cancelled, `root` emptied. */
    destroy() {
      destroyed = true;
      view?.destroy();
      root.replaceChildren();
    },
    /** What a share link needs: {script, example, nodes, vnodes} (plain values). */
    shareState() {
      return view ? view.shareState() : {};
    },
    /** Drives the view to a shared state; resolves once its requests have finished. */
    async restoreState(state) {
      await mounted;
      return view?.restoreState(state);
    },
    /** Resolves once the markup is rendered and wired. */
    ready: mounted,
  };
}

function wireCassandraView(root, client, {examplesBase}) {
  const byId = scopedById(root);
  const byTestId = scopedByTestId(root);
  const el = {
    panel: root,
    example: byId('cql-example'),
    exampleDescription: byId('cql-example-description'),
    editor: byId('cql-editor'),
    run: byId('cql-run'),
    reset: byId('cql-reset'),
    status: byId('cql-status'),
    results: byId('cql-results'),
    empty: byId('cql-empty'),
    loadTable: byId('cql-load-table'),
    loadInput: byId('cql-load-input'),
    loadStatus: byId('cql-load-status'),
    progress: byId('cql-progress'),
    progressText: byId('cql-progress-text'),
    progressTrack: byId('cql-progress-track'),
    progressBar: byId('cql-progress-bar'),
    loadCancel: byId('cql-load-cancel'),
    loadAgain: byId('cql-load-again'),
    loadExample: byId('cql-load-example'),
    loadFailures: byId('cql-load-failures'),
    formatJson: byId('cql-load-format-json'),
    formatCsv: byId('cql-load-format-csv'),
    csvOptions: byId('cql-csv-options'),
    csvHeader: byId('cql-csv-header'),
    csvDelimiter: byId('cql-csv-delimiter'),
    csvNull: byId('cql-csv-null'),
    csvQuote: byId('cql-csv-quote'),
    csvEscape: byId('cql-csv-escape'),
    csvDatetime: byId('cql-csv-datetimeformat'),
    csvColumns: byId('cql-csv-columns'),
    ringForm: byId('ring-form'),
    ringNodes: byId('ring-nodes'),
    ringVnodes: byId('ring-vnodes'),
    ringDatacenters: byId('ring-datacenters'),
    ringRacks: byId('ring-racks'),
    ringDcNames: byId('ring-dc-names'),
    ringSeed: byId('ring-seed'),
    ringSeedLabel: byId('ring-seed-label'),
    ringError: byId('ring-form-error'),
    table: byId('cql-table'),
    replication: byId('replication'),
    cosmosToggle: byId('cosmos-api'),
    cosmosPanel: byId('cosmos-api-panel'),
    cosmosRu: byId('cosmos-ru'),
    cosmosExplain: byId('cosmos-explain'),
    cosmosCompare: byId('cosmos-compare-rows'),
    ringChart: byId('ring-chart'),
    ringCaption: byId('ring-caption'),
    selection: byId('ring-selection'),
    ownershipHeading: byId('ownership-heading'),
    ownershipNote: byId('ownership-note'),
    loadHeading: byId('load-heading'),
    loadHint: byId('load-hint'),
    loadChart: byId('load-chart'),
  };

  const state = {
    started: false,
    runs: 0,
    examples: [],
    /** The last run: {list, script, nodes (names when it ran), generation, timing}. */
    results: null,
    /** The CqlView on screen (protocol.js). */
    view: null,
    /** Bumped by every ring change: replicas computed on an older ring are stale. */
    generation: 0,
    /** The selected partition: {token, key, replicas, generation}. */
    selected: null,
    /** A batch's partitions marked on the ring: {partitions: [{table, token, key}], generation}. */
    batchMarks: null,
    cosmos: false,
    /** Rows shown per result index (the rest behind "Show more"). */
    shownRows: new Map(),
    /** The cql-load in flight: an AbortController. */
    loadAbort: null,
    /** The last file loaded ({source, name}), for "Load it again" with other options. */
    lastLoad: null,
    /** The example on screen that offers a file to load ({file, table, format, csv, after}), or null. */
    exampleLoad: null,
    queue: Promise.resolve(),
    /** Requests queued or running. */
    pending: 0,
    /** The Cosmos DB RU/s of the view on screen. */
    viewRu: null,
  };

  // The context the parts share; each part adds its functions to it.
  const v = {root, client, examplesBase, el, state, byId, byTestId, enqueue, showRequestError};

  // -------------------------------------------------------------------------------------------
  // Requests: one at a time, in order; the panel says when it is busy.

  function setState(value) {
    el.panel.dataset.cqlState = value;
  }

  function enqueue(task) {
    state.pending++;
    el.panel.dataset.cqlPending = String(state.pending);
    const next = state.queue.then(async () => {
      setState('busy');
      let outcome = 'ready';
      try {
        await task();
      } catch (e) {
        outcome = 'error';
        // Errors shown next to their control (a load, a ring) are not repeated in the status line.
        if (!e?.cancelled && !e?.shown) showRequestError(e);
      } finally {
        state.runs++;
        state.pending--;
        el.panel.dataset.cqlRuns = String(state.runs);
        el.panel.dataset.cqlPending = String(state.pending);
        setState(outcome);
      }
    });
    state.queue = next.catch(() => {});
    return next;
  }

  function showRequestError(e) {
    el.status.textContent = `${e?.message ?? e}`;
    el.status.classList.add('bad');
    el.status.dataset.code = e?.codeName ?? '';
  }

  Object.assign(v, cosmosPanelPart(v));
  Object.assign(v, resultsPart(v));
  Object.assign(v, ringPanelPart(v));
  Object.assign(v, consolePart(v));
  Object.assign(v, bulkLoadPart(v));
  const {ru, acceptView, renderResults, ringFromControls, refreshView, loadExamples, showExample, useExample, runScript} = v;

  // An engine failure restarts the worker (client.js): the session it held is gone. Say so, put
  // the ring of the controls back and show the empty session; the script stays in the editor.
  client.addEventListener('restart', onRestart);
  function onRestart({detail}) {
    if (!state.started) return;
    enqueue(async () => {
      let ring = null;
      try {
        ring = ringFromControls();
      } catch {
        // The controls hold no valid ring: the fresh session keeps its default one.
      }
      const view = ring ? await client.ring({ring, ru: ru()}) : await client.cqlView({ru: ru()});
      v.forgetRing(ring ? JSON.stringify(ring) : '');
      state.generation++;
      state.results = null;
      state.selected = null;
      state.batchMarks = null;
      renderResults();
      acceptView(view);
      el.status.textContent = `${detail.error.message} The session was reset: its keyspaces, tables and rows are ` +
        'gone; run the script again to rebuild them.';
      el.status.classList.add('bad');
      el.status.dataset.code = detail.error.codeName;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Start (on the first switch to the Cassandra mode).

  /** Starts the view once (the first example in the editor, not run); every call awaits that same start. */
  function activate() {
    state.activation ??= start();
    return state.activation;
  }

  async function start() {
    state.started = true;
    setState('busy');
    try {
      await loadExamples();
    } catch (e) {
      el.example.replaceChildren(h('option', {text: 'Examples unavailable'}));
      showRequestError(e);
      state.runs++;
      el.panel.dataset.cqlRuns = String(state.runs);
      setState('error');
      return;
    }
    // The first example waits in the editor: the session starts empty, and holds only what the
    // user runs (issue 40: its keyspace used to exist before anything ran).
    const first = state.examples[0];
    let shown = false;
    if (first) {
      el.example.value = first.id;
      try {
        await showExample(first);
        shown = true;
      } catch (e) {
        showRequestError(e);
      }
    }
    await refreshView();
    await state.queue;
    if (shown && !state.results && el.editor.dataset.example === first.id && !el.status.classList.contains('bad')) {
      el.status.textContent = 'Not run yet: the session is empty. Run (Ctrl+Enter) runs the example above.';
    }
  }

  /** Tears the view down: no more redraws, the load in flight cancelled, `root` emptied. */
  function destroy() {
    client.removeEventListener('restart', onRestart);
    v.disconnect();
    v.cancel();
    root.replaceChildren();
  }

  /** What a share link needs: the script, the example it came from, the ring's size. */
  function shareState() {
    const number = (input) => {
      const n = Number(input.value);
      return Number.isFinite(n) && n > 0 ? n : undefined;
    };
    return {script: el.editor.value, example: el.example.value || undefined,
            nodes: number(el.ringNodes), vnodes: number(el.ringVnodes)};
  }

  /**
   * Drives the view to `shared` ({script, example, nodes, vnodes}, each optional): the ring first,
   * then the script (or, without one, the example); resolves once every request has finished.
   */
  async function restoreState(shared = {}) {
    await activate();
    await state.queue;
    if (shared.nodes || shared.vnodes) {
      if (shared.nodes) el.ringNodes.value = String(shared.nodes);
      if (shared.vnodes) el.ringVnodes.value = String(shared.vnodes);
      v.applyRing();
    }
    if (typeof shared.script === 'string') {
      el.editor.value = shared.script;
      // The selector names the example the sharer's script came from, or none.
      const from = state.examples.find((e) => e.id === shared.example);
      el.example.value = from ? from.id : '';
      el.exampleDescription.textContent = from?.description ?? '';
      runScript();
    } else if (shared.example && el.example.value !== shared.example) {
      const example = state.examples.find((e) => e.id === shared.example);
      if (!example) throw new Error(`this page has no CQL example "${shared.example}"`);
      el.example.value = example.id;
      await useExample(example);
    }
    await state.queue;
  }

  return {activate, destroy, shareState, restoreState};
}
