// The engine worker's handlers by request type: the one map worker.js dispatches from. Every type
// of protocol.js REQUESTS has exactly one (tests/wasm/protocol-wiring.test.mjs checks it). A
// handler is `(payload, ctx) => result` (or a promise of it); ctx is {id, job (a cancellable
// request's, jobs.js), doing, progress(fields), engine() (its domain's: {api, engine})}.
// A handler module is imported when its first request arrives, so a worker loads only what its
// requests use: the element's Cassandra mode never fetches the Cosmos DB handlers (and the reverse).
import {cancel, heap, init, release} from './worker.js';

const MODULES = {
  analysis: () => import('./analysis.js'),
  compare: () => import('./compare.js'),
  cql: () => import('./cql.js'),
  parts: () => import('./parts.js'),
  sizing: () => import('./sizing.js'),
};

/** Each lazy request type: [its module in MODULES, the handler's export name]. */
export const LAZY_HANDLERS = Object.freeze({
  'analyze': ['analysis', 'analyze'],
  'reanalyze': ['analysis', 'reanalyze'],
  'model': ['analysis', 'model'],
  'data-sizing': ['analysis', 'dataSizing'],
  'compare': ['compare', 'compare'],
  'recompare': ['compare', 'recompare'],
  'candidate-spec': ['compare', 'candidateSpec'],
  'cql': ['cql', 'runCql'],
  'ring': ['cql', 'configureRing'],
  'cql-view': ['cql', 'cqlView'],
  'cql-load': ['cql', 'loadIntoTable'],
  'cql-reset': ['cql', 'resetCql'],
  'cql-tables': ['cql', 'cqlTables'],
  'size-cql-rows': ['cql', 'sizeCqlRows'],
  'split': ['parts', 'split'],
  'analyze-part': ['parts', 'analyzePart'],
  'merge': ['parts', 'merge'],
  'sizing-tables': ['sizing', 'sizingTables'],
  'size-table': ['sizing', 'sizeTable'],
});

const lazy = ([module, name]) => async (payload, ctx) => (await MODULES[module]())[name](payload, ctx);

export const handlers = Object.freeze({
  'init': init,
  'cancel': cancel,
  'heap': heap,
  'release': release,
  ...Object.fromEntries(Object.entries(LAZY_HANDLERS).map(([type, where]) => [type, lazy(where)])),
});

/** Every handler as its module exports it (the wiring test: each lazy name exists). */
export async function loadedHandlers() {
  const loaded = {init, cancel, heap, release};
  for (const [type, [module, name]] of Object.entries(LAZY_HANDLERS)) loaded[type] = (await MODULES[module]())[name];
  return loaded;
}
