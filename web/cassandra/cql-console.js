// The Cassandra view's console: the example scripts, the editor, Run and Reset, and running a
// script through the worker (client.cql). Part of the Cassandra view (cql-view.js): `v` is the
// view's context (its elements, state, request queue and the other parts' functions).
import {h} from '../common/dom.js';

/** The console part: {runScript, runStatements, loadExamples, showExample, useExample}; wires its controls. */
export function consolePart(v) {
  const {el, state, client, examplesBase} = v;
  const enqueue = (task) => v.enqueue(task);
  const ru = () => v.ru();
  const acceptView = (view) => v.acceptView(view);
  const renderResults = (options) => v.renderResults(options);
  const showRequestError = (e) => v.showRequestError(e);
  const offerExampleLoad = (load) => v.offerExampleLoad(load);

  function runScript({focusError = true} = {}) {
    const script = el.editor.value;
    return enqueue(() => runStatements(script, {focusError}));
  }

  /** Runs `script` (inside a queued task) and shows its results. */
  async function runStatements(script, {focusError = false} = {}) {
    el.status.classList.remove('bad');
    el.status.textContent = 'Running…';
    const out = await client.cql({script, ru: ru()});
    state.results = {list: out.results, script, nodes: out.view.ring.nodes.map((n) => n.name),
                     generation: state.generation, timing: out.timing};
    state.shownRows.clear();
    // The last batch of the run is marked on the ring (a button on each batch marks that one).
    const batches = out.results.filter((x) => x.batch?.partitions.length);
    state.batchMarks = batches.length ? {partitions: batches.at(-1).batch.partitions, generation: state.generation} : null;
    acceptView(out.view);
    renderResults({focusError});
    v.root.dispatchEvent(new CustomEvent('cql:results', {detail: {results: out.results, script}, bubbles: true}));
  }

  async function loadExamples() {
    const response = await fetch(new URL('index.json', examplesBase));
    if (!response.ok) throw new Error(`examples/cql/index.json: HTTP ${response.status}`);
    const list = await response.json();
    state.examples = (Array.isArray(list) ? list : []).filter((e) => e && typeof e.id === 'string' && typeof e.file === 'string');
    // Shown once the editor no longer holds an example (typed over, or pasted).
    const own = h('option', {text: 'Your own script'});
    own.value = '';
    own.disabled = true;
    el.example.replaceChildren(own, ...state.examples.map((e) => {
      const option = h('option', {text: typeof e.title === 'string' ? e.title : e.id});
      option.value = e.id;
      return option;
    }));
  }

  /** Puts `example` in the editor with its description, without running it. */
  async function showExample(example) {
    el.exampleDescription.textContent = example.description ?? '';
    const response = await fetch(new URL(example.file, examplesBase));
    if (!response.ok) throw new Error(`${example.file}: HTTP ${response.status}`);
    el.editor.value = await response.text();
    el.editor.dataset.example = example.id;
    offerExampleLoad(example.load);
  }

  /** Puts `example` in the editor and runs it (an example the user picked, or a shared one). */
  async function useExample(example, {focusError = false} = {}) {
    await showExample(example);
    // A schema dump creates its keyspace without IF NOT EXISTS, as on a fresh cluster.
    if (example.fresh_session === true) {
      enqueue(async () => {
        const view = await client.cqlReset({ru: ru()});
        state.selected = null;
        acceptView(view);
      });
    }
    return runScript({focusError});
  }


  el.run.addEventListener('click', () => runScript());
  el.editor.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      runScript();
    }
  });
  // An engine failure restarts the worker (client.js): the session it held is gone. Say so, put
  // the ring of the controls back and show the empty session; the script stays in the editor.
  el.editor.addEventListener('input', () => {
    delete el.editor.dataset.example;
    // The script is the user's now: the selector and the description stop naming an example.
    el.example.value = '';
    el.exampleDescription.textContent = '';
  });
  el.example.addEventListener('change', () => {
    const example = state.examples.find((e) => e.id === el.example.value);
    if (example) useExample(example).catch((e) => showRequestError(e));
  });
  el.reset.addEventListener('click', () => {
    enqueue(async () => {
      const view = await client.cqlReset({ru: ru()});
      state.results = null;
      state.selected = null;
      state.batchMarks = null;
      renderResults();
      el.status.classList.remove('bad');
      el.status.textContent = 'A fresh session: no keyspaces.';
      acceptView(view);
    });
  });


  return {runScript, runStatements, loadExamples, showExample, useExample};
}
