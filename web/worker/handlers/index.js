// The engine worker's handlers by request type: the one map worker.js dispatches from. Every type
// of protocol.js REQUESTS has exactly one (tests/wasm/protocol-wiring.test.mjs checks it). A
// handler is `(payload, ctx) => result` (or a promise of it); ctx is {id, job (a cancellable
// request's, jobs.js), doing, progress(fields), engine() (its domain's: {api, engine})}.
import {analyze, dataSizing, model, reanalyze, release} from './analysis.js';
import {candidateSpec, compare, recompare} from './compare.js';
import {configureRing, cqlView, loadIntoTable, resetCql, runCql} from './cql.js';
import {analyzePart, merge, split} from './parts.js';
import {sizeTable, sizingTables} from './sizing.js';
import {cancel, heap, init} from './worker.js';

export const handlers = Object.freeze({
  'init': init,
  'analyze': analyze,
  'reanalyze': reanalyze,
  'model': model,
  'compare': compare,
  'recompare': recompare,
  'candidate-spec': candidateSpec,
  'release': release,
  'cancel': cancel,
  'heap': heap,
  'cql': runCql,
  'ring': configureRing,
  'cql-view': cqlView,
  'cql-load': loadIntoTable,
  'cql-reset': resetCql,
  'sizing-tables': sizingTables,
  'size-table': sizeTable,
  'data-sizing': dataSizing,
  'split': split,
  'analyze-part': analyzePart,
  'merge': merge,
});
