// The page's composition root: one engine worker (web/worker/client.js) shared by the three modes,
// each a view mounted on its panel of index.html: Cosmos DB (cosmos/cosmos-view.js), Cassandra
// (cassandra/cql-view.js) and Sizing (sizing/sizing-panel.js); the mode switch (the tabs) and the
// share bar (common/embed-share.js) around them. Only this module looks elements up in the
// document; a view reads nothing outside the root it is given.
import {PlaygroundClient, pageAsksNoSimd} from './worker/client.js';
import {mountCosmosView} from './cosmos/cosmos-view.js';
import {mountCassandraView} from './cassandra/cql-view.js';
import {mountSizingPanel} from './sizing/sizing-panel.js';
import {initModeSwitch} from './common/mode-switch.js';
import {initShare} from './common/embed-share.js';
import {wireGlossary} from './common/glossary.js';

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

initModeSwitch(document.querySelector('[data-testid="mode-switch"]'), {
  panels: {cosmos: byId('cosmos-view'), cassandra: byId('cassandra-view'), sizing: byId('sizing-view')},
  onChange: (mode) => {
    if (mode === 'sizing') sizing.activate();
    else sizing.deactivate();
    if (mode === 'cassandra') cassandra.activate();
    // Charts drawn while hidden have no width: draw them again now that they show.
    else if (mode === 'cosmos') requestAnimationFrame(cosmos.renderCharts);
  },
});

// "Copy link" and "Copy embed snippet" (embed-share.js); a copied link (#pp=...) is restored once the
// first analysis has finished.
initShare({dataSource: () => cosmos.source()});

// The "?" next to each term's first use (RU/s, EPK, Gini, ...) opens its explanation in place.
wireGlossary(document.body);
