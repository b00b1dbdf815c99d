// The page's composition root: one engine worker (web/worker/client.js) shared by the three modes,
// each a view mounted on its (empty) panel of index.html, into which it renders its own template:
// Cosmos DB (cosmos/cosmos-view.js), Cassandra (cassandra/cql-view.js) and Sizing
// (sizing/sizing-panel.js); the mode switch (the tabs) and the share bar (common/embed-share.js)
// around them. Only this module looks elements up in the document; a view reads nothing outside
// the root it is given, and the share bar reads the views through their handles and events
// (common/view.js).
import {PlaygroundClient, pageAsksNoSimd} from './worker/client.js';
import {mountCosmosView} from './cosmos/cosmos-view.js';
import {mountCassandraView} from './cassandra/cql-view.js';
import {mountSizingPanel} from './sizing/sizing-panel.js';
import {initModeSwitch} from './common/mode-switch.js';
import {cassandraShare, initShare} from './common/embed-share.js';
import {wireGlossary} from './common/glossary.js';
import {watchChartExports} from './common/export.js';

const byId = (id) => document.getElementById(id);
const examples = new URL('examples/', document.baseURI);

// The worker loads the Cosmos DB engine at once and the CQL engine on the first Cassandra or
// sizing request (web/worker/worker.js), so the first view pays for one engine only.
const client = new PlaygroundClient();
client.ready.then(
  ({version, simd}) => {
    // Without wasm SIMD (Safari before 16.4, or ?simd=0) the worker loads the portable build.
    const why = pageAsksNoSimd() ? '?simd=0 asks for it' : 'this browser does not run WebAssembly SIMD';
    byId('engine-version').textContent = simd === false
      ? `Engine ${version}, its build without WebAssembly SIMD (${why}): the same results; analyses of ` +
        'large files take a little longer.'
      : `Engine ${version}.`;
    document.body.dataset.engineSimd = String(simd !== false);
  },
  () => {}, // the first analysis reports the failure
);

// body[data-state] and body[data-runs] follow the Cosmos DB analyses (the tests wait on them).
const cosmos = mountCosmosView(byId('cosmos-view'), client, {statusNode: document.body, examplesBase: examples});
const cassandra = mountCassandraView(byId('cassandra-view'), client, {examplesBase: new URL('cql/', examples)});
const sizing = mountSizingPanel(byId('sizing-view'), client, {analysisRuns: document.body,
                                                            examplesBase: new URL('cql/', examples)});
const views = {cosmos, cassandra, sizing};
/** The share bar (set below; the mode switch may report a mode from the URL before it exists). */
let share = null;

initModeSwitch(document.querySelector('[data-testid="mode-switch"]'), {
  panels: {cosmos: byId('cosmos-view'), cassandra: byId('cassandra-view'), sizing: byId('sizing-view')},
  onChange: (mode) => {
    for (const [name, view] of Object.entries(views)) {
      if (name === mode) view.activate();
      else view.deactivate?.();
    }
    share?.modeChanged();
  },
});

// "Copy link" and "Copy embed snippet" (embed-share.js); a copied link (#pp=...) is restored once the
// first analysis has finished. The Cassandra view's state travels in the link's short names
// (cassandraShare).
share = initShare(document.querySelector('[data-testid="share-bar"]'), {
  views: {...views, cassandra: cassandraShare(cassandra)},
  mode: () => document.body.dataset.mode ?? 'cosmos',
  selectMode: (mode) => byId(`mode-${mode}`)?.click(),
  dataSource: () => cosmos.source(),
});

// The "?" next to each term's first use (RU/s, EPK, Gini, ...) opens its explanation in place.
wireGlossary(document.body);

// Every chart the page draws gets its "SVG · PNG" downloads (common/export.js).
watchChartExports(document.querySelector('main') ?? document.body);
