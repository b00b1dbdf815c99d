// The message protocol between the page (web/worker/client.js) and the engine worker
// (web/worker/worker.js), as one table: REQUESTS below. Each entry drives request validation
// (its payload's shape), the worker's dispatch (handlers/index.js, one handler per type), the
// client's methods (client.js builds them from `client`) and these docs (`doc`, `result`).
// tests/wasm/protocol-wiring.test.mjs checks every entry is wired end to end.
//
// Messages. Page -> worker: {id, type, payload}; `id` unique among the requests in flight.
// Worker -> page: zero or more {id, type: 'progress', payload: Progress}, then exactly one
// {id, type: 'result', payload} or {id, type: 'error', payload: ErrorPayload}.
//   Progress      {bytesDone, bytesTotal (null when unknown, e.g. gzip), items, compressed:
//                 null | {bytesDone, bytesTotal} (a gzip source's compressed bytes), failed?
//                 (cql-load: rows refused so far), read? (compare, recompare: 2 while the same
//                 bytes are read a second time for the queries and the write spread)}, at most
//                 every PROGRESS_INTERVAL_MS
//   ErrorPayload  {name, code, codeName, message, location, field}: PartplayError.toJSON()
//                 (web/common/errors.js), code and codeName from the engine's one table;
//                 location null | {byte_offset, line, column, item_index}; field null | a JSON
//                 pointer into the request.
// Shapes are checked here (types, required fields); values (ranges, enums, defaults) are the
// engine's, which refuses a bad one with a located bad_option error naming the field.
// A request whose entry has `cancellable: G` is cancelled by cancel {target: its id}, and by a
// newer request of group G (it then ends in the error codeName 'cancelled').
//
// Engine failures: a wasm trap or abort leaves the module broken; that request and every later
// one answer codeName 'engine_failed' (id -1 for a failure outside a request), and the client
// starts a fresh worker ('restart' event): slots, CQL session and kept source are gone.
// TEST ONLY: `self.crashNextRequestForTesting = 'trap' | 'abort' | 'stack'` in the worker breaks
// the engine on the next request (Engine.crashForTesting).
import {ErrorCodeNames, PartplayError} from '../common/errors.js';

export {ErrorCodeNames};
export const PROTOCOL_VERSION = 7;

// Shapes of payload fields. A spec is a type name below ('?name': optional, absent or null), an
// object of field specs (an object with those fields; others are the engine's to judge), an
// array of one spec (an array of such), or optional(spec).
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const TYPES = {
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isSafeInteger(v),
  offset: (v) => Number.isSafeInteger(v) && v >= 0,
  positive: (v) => Number.isSafeInteger(v) && v >= 1,
  object: isObject,
  array: Array.isArray,
  strings: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
  paths: (v) => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string'),
  buffers: (v) => Array.isArray(v) && v.every((b) => b instanceof ArrayBuffer),
  slot: (v) => typeof v === 'string' && /^[a-z][a-z0-9_-]{0,31}$/i.test(v),
  source: (v) => validSource(v) === null,
};
/** What a type is, for the error message. */
const TYPE_TEXT = {
  integer: 'an integer', offset: 'a byte offset (a whole number >= 0)', positive: 'a whole number >= 1',
  strings: 'an array of strings', paths: 'a non-empty array of JSON pointers', buffers: 'an array of ArrayBuffers',
  slot: 'a short name such as "main"', object: 'an object', array: 'an array',
};
/** An optional field of a nested shape. */
class Optional {
  constructor(spec) { this.spec = spec; }
}
const optional = (spec) => new Optional(spec);

/** The problem with `value` at `path` against `spec`, or null. */
function shapeProblem(value, spec, path) {
  let isOptional = false;
  if (spec instanceof Optional) {
    isOptional = true;
    spec = spec.spec;
  } else if (typeof spec === 'string' && spec.startsWith('?')) {
    isOptional = true;
    spec = spec.slice(1);
  }
  if (value === undefined || value === null) return isOptional ? null : `${path} is required`;
  if (typeof spec === 'string') {
    if (spec === 'source') return validSource(value);
    return TYPES[spec](value) ? null : `${path} must be ${TYPE_TEXT[spec] ?? `a ${spec}`}`;
  }
  if (Array.isArray(spec)) {
    if (!Array.isArray(value)) return `${path} must be an array`;
    for (let k = 0; k < value.length; k++) {
      const problem = shapeProblem(value[k], spec[0], `${path}[${k}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (!isObject(value)) return `${path} must be an object`;
  for (const [field, inner] of Object.entries(spec)) {
    const problem = shapeProblem(value[field], inner, path ? `${path}.${field}` : field);
    if (problem) return problem;
  }
  return null;
}

/** Source kinds (payload.source.kind). */
export const SourceKind = Object.freeze({TEXT: 'text', BYTES: 'bytes', FILE: 'file', URL: 'url'});

/** The problem with a Source, or null. */
function validSource(s) {
  if (!isObject(s)) return 'source must be an object';
  if (s.name !== undefined && typeof s.name !== 'string') return 'source.name must be a string';
  switch (s.kind) {
    case SourceKind.TEXT: return typeof s.text === 'string' ? null : 'source.text must be a string';
    case SourceKind.BYTES: return s.buffer instanceof ArrayBuffer ? null : 'source.buffer must be an ArrayBuffer';
    case SourceKind.FILE:
      return typeof Blob !== 'undefined' && s.file instanceof Blob ? null : 'source.file must be a File or Blob';
    case SourceKind.URL:
      return typeof s.url === 'string' && /^(https?|blob|data):/i.test(s.url) ? null
        : 'source.url must be an absolute http(s), blob: or data: URL';
  }
  return `source.kind must be one of ${Object.values(SourceKind).join(', ')}`;
}

// Payload fields several requests share. Nested shapes name the engine's own fields; their
// values (ranges, enums, which fields go together) are the engine's to check.
const SYNTHETIC = optional({kind: 'string', paths: '?strings', separator: '?string', buckets: '?integer', seed: '?integer',
                            suffix_path: '?string'});
const WORKLOAD = optional({point_reads_per_second: '?number', writes_per_second: '?number', queries_per_second: '?number',
                           spread: '?string', zipf_exponent: '?number', read_factor: '?number', write_factor: '?number',
                           query_ru: '?number'});
/** ContainerOptions (the engine's report options, docs/report.md "Options"). */
const CONTAINER = optional({hash_version: '?string', large_partition_keys: '?boolean', ru_per_second: '?number',
                            autoscale: '?boolean', created_ru_per_second: '?number', serverless: '?boolean',
                            quota_increase_reason: '?string', shared_database: '?boolean',
                            shared_with: optional([{name: 'string', storage_gb: '?number', demand_ru: '?number'}]),
                            growth: '?number', grown_ru_per_second: '?number', workload: WORKLOAD,
                            route: '?array', top_per_range: '?number'});
/** RingOptions (cassandra/ring.h). */
const RING = {nodes: '?number', num_tokens: '?number', seed: '?number', random_tokens: '?boolean',
              datacenters: optional([{name: 'string', nodes: 'number', racks: '?number'}])};
/** CsvOptions (cqlsh COPY FROM's; CqlSession.startLoad). */
const CSV = optional({header: '?boolean', delimiter: '?string', quote: '?string', escape: '?string', null: '?string',
                      datetimeformat: '?string', columns: '?strings'});
/** The analysis options (engine's AnalysisOptions: key_paths, discover_items, weight_path, synthetic). */
const ANALYSIS = {keyPaths: 'paths', discoverItems: '?integer', weightPath: '?string', synthetic: SYNTHETIC};
/** What a finished analysis is reported with (analysis.finish / model). */
const REPORTING = {slot: '?slot', maxPartitions: '?integer', container: CONTAINER};
/** A CqlView's options: the table drawn, the Cosmos DB Cassandra API RU/s, partitions listed. */
const CQL_VIEW = {table: '?string', ru: '?number', maxPartitions: '?integer'};
// A query: a Cosmos DB NoSQL one ({sql, rate}) or the paths it filters on ({filter}); parameters
// [{name: '@p', value}] give values (else the engine takes the most common one from the data);
// queryText is the query box as typed, one query per line (the engine reads it: ParseQueryList).
const COMPARING = {container: CONTAINER, queries: optional([{filter: '?strings', sql: '?string', rate: '?number'}]),
                   parameters: optional([{name: 'string'}]), queryText: '?string'};

/** A report's partition_bytes buffer, transferred with the result. */
const reportTransfer = (report) => (report?.partition_bytes?.buffer ? [report.partition_bytes.buffer] : []);
/** A bytes source's buffer, transferred with the request. */
const sourceTransfer = (payload) => (payload.source?.kind === SourceKind.BYTES ? [payload.source.buffer] : []);
const fileSource = (p) => (p.source.kind === SourceKind.FILE ? null : 'source must be a file');

const REPORT = 'Report (docs/report.md); partition_bytes (Float64Array, largest first) transferred; plus ' +
  'source {kind, name, bytes, compressedBytes?}, timing {ms, bytesPerSecond, read_ahead?}, slot';
const CQL_VIEW_DOC = 'CqlView {keyspaces, table, keyspace, ringOptions, ring, layout, cosmos} (handlers/cql.js)';

/**
 * The requests. Each entry: type; domain (whose engine answers: 'cosmos', 'cql', 'sizing', or
 * null for none); client (the PlaygroundClient method; `args: 'positional'` takes the one field
 * as its argument); payload (field: spec); transfer {request?, result?} (buffers moved, not
 * copied); cancellable (its group) or false; progress; api (the engine calls it makes:
 * Engine.x or CqlSession.x of wasm/partplay-api.mjs); doing (for an engine failure's sentence);
 * result and doc.
 * A new request: an entry here, and its handler in handlers/<domain>.js, listed in
 * handlers/index.js. The client's method is built from `client` (write one in client.js only
 * when it does more than send); tests/wasm/protocol-wiring.test.mjs fails until all agree.
 */
export const REQUESTS = Object.freeze([
  {type: 'init', domain: 'first', client: 'init', payload: {}, api: ['Engine.version', 'Engine.errorCodes', 'Engine.limits'],
   doing: 'starting',
   result: '{version, errorCodes: [{code, name, description}], limits: [{id, value, unit, kind, label, source}], ' +
     'simd: boolean (false: the build without wasm SIMD), vocabulary: {defaults, enums} | null (the Cosmos DB controls\' vocabulary; null from the cql and sizing modules)}',
   doc: 'Waits for the engine of the worker\'s first domain (worker.js?domain=...), loaded on start.'},
  {type: 'analyze', domain: 'cosmos', client: 'analyze', payload: {source: 'source', ...ANALYSIS, ...REPORTING},
   transfer: {request: sourceTransfer, result: reportTransfer}, cancellable: 'analysis', progress: true,
   api: ['Engine.newAnalysis'], doing: 'analysing the data', result: REPORT,
   doc: 'Streams the source (gzip or not) into the engine and keeps the finished analysis in `slot` (default ' +
     '"main"; a newer one replaces it). The source is kept for reanalyze and compare. The client cuts a large ' +
     'file among several workers (split, analyze-part, merge).'},
  {type: 'reanalyze', domain: 'cosmos', client: 'reanalyze', payload: {...ANALYSIS, ...REPORTING},
   transfer: {result: reportTransfer}, cancellable: 'analysis', progress: true, api: ['Engine.newAnalysis'],
   doing: 'analysing the data', result: REPORT,
   doc: 'As analyze, over the last analyze\'s source (files re-read, URLs re-fetched). no_source without one.'},
  {type: 'model', domain: 'cosmos', client: 'model', payload: {...REPORTING}, transfer: {result: reportTransfer},
   api: ['Engine.newAnalysis'], doing: 're-modelling the analysis', result: `${REPORT} (timing.bytesPerSecond null)`,
   doc: 'Re-reports the analysis held in `slot` with other container options, without reading again. ' +
     'no_analysis when the slot holds none.'},
  {type: 'compare', domain: 'cosmos', client: 'compare',
   payload: {keys: [{key_paths: 'paths', synthetic: SYNTHETIC}], ...COMPARING, weightPath: '?string'},
   cancellable: 'compare', progress: true, api: ['Engine.newComparison'], doing: 'comparing the keys',
   result: 'Comparison (docs/report.md "Key comparison") plus source and timing',
   doc: 'Judges every key ({key_paths, synthetic?}) on the last analyze\'s source, read once; kept for recompare.'},
  {type: 'recompare', domain: 'cosmos', client: 'recompare', payload: {...COMPARING}, api: ['Engine.newComparison'],
   doing: 'comparing the keys', result: 'Comparison (timing.bytesPerSecond null)',
   doc: 'The kept comparison with other container options or queries. no_analysis without one.'},
  {type: 'candidate-spec', domain: 'cosmos', client: 'candidateSpec', args: 'positional', payload: {spec: 'string'},
   api: ['Engine.parseCandidateSpec'], result: 'a key of compare: {key_paths, synthetic?}',
   doc: 'One key in the CLI\'s --candidate grammar, read by the engine (report/candidate_spec.h).'},
  {type: 'release', domain: null, client: 'release', args: 'positional', payload: {slot: 'slot'},
   result: '{released: boolean}', doc: 'Frees the analysis held in `slot`.'},
  {type: 'cancel', domain: null, client: 'cancel', args: 'positional', payload: {target: '?integer'},
   result: '{cancelled: boolean}',
   doc: 'Cancels request `target` (default: the analysis in flight); it ends in codeName \'cancelled\'.'},
  {type: 'heap', domain: null, client: 'heap', payload: {}, api: ['Engine.heapBytes'],
   result: '{engines: [{domain, module, bytes}], bytes}',
   doc: 'The wasm memory (a peak: it never shrinks) of every engine this worker loaded. Loads none.'},
  {type: 'cql', domain: 'cql', client: 'cql', payload: {script: 'string', ...CQL_VIEW, replicationFactor: '?integer'},
   api: ['CqlSession.execute'], doing: 'running this script',
   result: `{results: StatementResult[] (CqlSession.execute), keyspace, view: ${CQL_VIEW_DOC}, timing: {ms}}`,
   doc: 'Runs a script in the worker\'s CQL session (kept until cql-reset). A failing statement is a result ' +
     'of kind \'error\'; the next ones still run. replicationFactor overrides every new keyspace\'s.'},
  {type: 'ring', domain: 'cql', client: 'ring', payload: {ring: RING, ...CQL_VIEW}, api: ['CqlSession.configureRing'],
   doing: 'changing the ring', result: CQL_VIEW_DOC,
   doc: 'Replaces the ring (RingOptions, cassandra/ring.h: the engine\'s defaults for absent fields).'},
  {type: 'cql-view', domain: 'cql', client: 'cqlView', payload: {...CQL_VIEW}, api: ['CqlSession.tableLayout'],
   doing: 'drawing the table', result: CQL_VIEW_DOC, doc: 'The view of another table or RU/s; runs nothing.'},
  {type: 'cql-load', domain: 'cql', client: 'cqlLoad',
   payload: {...CQL_VIEW, table: 'string', source: 'source', format: '?string', csv: CSV},
   transfer: {request: sourceTransfer}, cancellable: 'cql-load', progress: true, api: ['CqlSession.startLoad'],
   doing: 'loading rows into the table',
   result: '{rows, failed, failures: [{line, column, byte_offset, message}], lines, format, stopped?: ErrorPayload, ' +
     `source, view: CqlView, timing: {ms, bytesPerSecond}}`,
   doc: 'Streams JSON objects, or CSV (format \'csv\', csv: COPY FROM options), into the table. A CSV that ' +
     'cannot be read on stops the load: the answer then has `stopped`, and the rows loaded stay.'},
  {type: 'cql-reset', domain: 'cql', client: 'cqlReset', payload: {ru: '?number', maxPartitions: '?integer'},
   api: ['Engine.createCqlSession'], doing: 'resetting the session', result: CQL_VIEW_DOC,
   doc: 'A fresh CQL session; the ring stays.'},
  {type: 'sizing-tables', domain: 'sizing', client: 'sizingTables', args: 'positional', payload: {cql: 'string'},
   api: ['Engine.sizingTables'], doing: 'reading the tables of the script',
   result: '[{name, columns: [{name, type, role, fixed_bytes, time_bucket}], variable_columns}]',
   doc: 'The tables a schema script creates.'},
  {type: 'size-table', domain: 'sizing', client: 'sizeTable', args: 'positional', payload: {request: 'object'},
   api: ['Engine.sizeTable'], doing: 'sizing the table', result: 'docs/sizing.md "Report (JSON) — from a schema"',
   doc: 'Sizes a table from its schema and estimates (docs/sizing.md "Request (JSON)").'},
  {type: 'cql-tables', domain: 'cql', client: 'cqlTables', payload: {}, api: ['CqlSession.keyspaces'],
   doing: 'listing the tables', result: '{tables: string[] (every table and view, "ks.t"), table: the Cassandra view\'s or null}',
   doc: 'The tables of the worker\'s CQL session, for the Sizing mode. Before the Cassandra mode ran anything: none, ' +
     'and its engine is not loaded.'},
  {type: 'size-cql-rows', domain: 'cql', client: 'sizeCqlRows', payload: {table: 'string', maxExamples: '?integer'},
   api: ['CqlSession.sizeFromRows'], doing: 'sizing the table from its rows',
   result: `docs/sizing.md "From a table's rows": measured figures, the largest partitions and the sizing request`,
   doc: 'Measures the rows a table of the CQL session holds, partition by partition, and the schema form\'s inputs ' +
     'from them. invalid_state for a table without rows.'},
  {type: 'data-sizing', domain: 'cosmos', client: 'dataSizing',
   payload: {slot: '?slot', valuesPerRow: '?number', maxExamples: '?number'}, api: ['Engine.newAnalysis'],
   doing: 'sizing the analysed data', result: 'docs/sizing.md "From data" plus slot, source, key_paths',
   doc: 'The analysis held in `slot` measured as Cassandra partitions. no_analysis when it holds none.'},
  // Parts (docs/sharding.md): the client asks where to cut (split, which also answers the
  // engine's plan), has each worker analyse a slice (analyze-part) and this worker merge them.
  {type: 'split', domain: 'cosmos', client: 'split', payload: {source: 'source', ...ANALYSIS, workers: '?positive',
                                                              cores: '?positive'},
   check: fileSource, api: ['Engine.planParts', 'Engine.splitPoints'], doing: 'analysing the data',
   result: '{cuts: number[] (increasing; none: one pass), plan: {parts, min_part_bytes, retire_heap_bytes, ' +
     'read_ahead, why} (ingest/parts_plan.h)}',
   doc: 'The engine\'s parts plan for the file (workers: asked; default: the engine\'s from cores) and its safe ' +
     'cuts, read in ~1 MiB windows.'},
  {type: 'analyze-part', domain: 'cosmos', client: 'analyzePart',
   payload: {source: 'source', begin: 'offset', end: 'offset', first: 'boolean', idRecords: '?boolean',
             readAhead: '?boolean', ...ANALYSIS},
   check: (p) => fileSource(p) ?? (p.begin <= p.end && p.end <= p.source.file.size ? null
     : 'begin and end must be byte offsets within the file, begin <= end'),
   transfer: {result: (r) => (r?.partial ? [r.partial] : [])}, cancellable: 'analysis', progress: true,
   api: ['Engine.newAnalysisPart', 'Engine.retryParts'], doing: 'analysing the data',
   result: '{bytes, items, readAhead, heapBytes, partial?: ArrayBuffer (not first; transferred)}',
   doc: 'Analyses bytes [begin, end) of the file; the first part is held here for merge. An error reply ' +
     'carries retry (\'stop\' | \'id_records\' | \'one_pass\', the engine\'s RetryParts).'},
  {type: 'merge', domain: 'cosmos', client: 'merge', payload: {partials: 'buffers', idRecords: '?boolean', ...REPORTING},
   transfer: {request: (p) => p.partials, result: reportTransfer}, api: ['Engine.mergePartials', 'Engine.retryParts'],
   doing: 'analysing the data', result: `${REPORT}; timing.heap_bytes`,
   doc: 'Merges the held first part with the later parts\' partial states into the analysis kept in `slot`. ' +
     'no_analysis without a held part; an error reply carries retry as analyze-part\'s.'},
]);

/** Request types by constant name (Request.CQL_VIEW === 'cql-view'). */
export const Request = Object.freeze(Object.fromEntries(REQUESTS.map((r) => [r.type.toUpperCase().replace(/-/g, '_'), r.type])));
const BY_TYPE = new Map(REQUESTS.map((r) => [r.type, r]));
/** The table entry of request `type`, or undefined. */
export const requestEntry = (type) => BY_TYPE.get(type);

/** Reply types (worker -> page). */
export const Reply = Object.freeze({RESULT: 'result', ERROR: 'error', PROGRESS: 'progress'});
/** What a cql-load reads (cql-view.js imports it; the engine checks the value). */
export const LoadFormat = Object.freeze({JSON: 'json', CSV: 'csv'});

/** The slot an analysis is kept in when the request names none. */
export const DEFAULT_SLOT = 'main';
export const PROGRESS_INTERVAL_MS = 50;
/** Bytes read from a File or a text at a time. */
export const READ_CHUNK_BYTES = 1 << 20; // lint-ok: an I/O chunk, not a rule

/** Validates a request message's shape; returns it or throws a TypeError naming the field. */
export function validateRequest(message) {
  if (!isObject(message)) throw new TypeError('a request must be an object');
  if (!Number.isSafeInteger(message.id)) throw new TypeError('request.id must be an integer');
  const entry = BY_TYPE.get(message.type);
  if (!entry) throw new TypeError(`unknown request type: ${String(message.type)}`);
  const payload = message.payload ?? {};
  if (!isObject(payload)) throw new TypeError('request.payload must be an object');
  const shape = shapeProblem(payload, entry.payload, '');
  if (shape) throw new TypeError(shape);
  const problem = entry.check?.(payload);
  if (problem) throw new TypeError(problem);
  return message;
}

/** Validates a reply message; returns it or throws a TypeError. */
export function validateReply(message) {
  if (!isObject(message)) throw new TypeError('a reply must be an object');
  if (!Number.isSafeInteger(message.id)) throw new TypeError('reply.id must be an integer');
  if (!Object.values(Reply).includes(message.type)) throw new TypeError(`unknown reply type: ${String(message.type)}`);
  const p = message.payload;
  if (message.type === Reply.ERROR && !(isObject(p) && typeof p.message === 'string')) {
    throw new TypeError('error reply needs payload.message');
  }
  if (message.type === Reply.PROGRESS && !(isObject(p) && typeof p.bytesDone === 'number')) {
    throw new TypeError('progress reply needs payload.bytesDone');
  }
  return message;
}

/** A plain ErrorPayload (PartplayError.toJSON()) from payload-like fields. */
export const errorPayload = (fields) => new PartplayError(fields).toJSON();
/** Anything thrown, as an ErrorPayload (a TypeError of a malformed request: bad_request). */
export const toErrorPayload = (e) => PartplayError.from(e).toJSON();

/** Builders, so both sides spell messages the same way. */
export const request = (id, type, payload = {}) => ({id, type, payload});
export const result = (id, payload) => ({id, type: Reply.RESULT, payload});
export const error = (id, payload) => ({id, type: Reply.ERROR, payload: errorPayload(payload)});
export const progress = (id, {bytesDone, bytesTotal = null, items = 0, compressed = null, failed, read}) => {
  const payload = {bytesDone, bytesTotal, items, compressed};
  if (failed !== undefined) payload.failed = failed;
  if (read !== undefined) payload.read = read;
  return {id, type: Reply.PROGRESS, payload};
};
