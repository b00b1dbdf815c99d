// The friendly face of the wasm module: feeds bytes, throws PartplayError on error statuses, and
// hides the heap pointers. Used by the web worker and by the Node tests; never by the page itself.
//
// Every call of the module answers one shape (wasm/status_value.h): {ok: true, json?, ...} or
// {ok: false, error: {code, name, message, location}}. `answer` below is the only reader of it:
// it throws the error as a PartplayError and parses `json`. Options cross as JSON text.
//
//   const engine = await createEngine();                  // or createEngine({wasmBinary})
//   const analysis = engine.newAnalysis({key_paths: ['/userId']});
//   analysis.feed(bytes);  ...  analysis.feed(moreBytes);
//   const report = analysis.finish();                     // docs/report.md
//   const again = analysis.model({container: {ru_per_second: 18000}});  // no re-read
//   analysis.dispose();
//
// Parts (docs/sharding.md): an input cut at safe item boundaries (engine.splitPoints) is
// analysed part by part, anywhere (the page: one worker each), and merged into what one pass
// gives, report and error alike:
//
//   const cuts = await engine.splitPoints({size, parts: 4, read: (offset, length) => bytesAt(...)});
//   const first = engine.newAnalysisPart(options, {first: true});  first.feed(...);  first.finish();
//   const other = engine.newAnalysisPart(options);  other.feed(...);
//   const bytes = other.finishPartial();                  // Uint8Array, off the heap
//   const merged = engine.mergePartials([first, bytes]);  // an Analysis; the parts are consumed
//   merged.finish({maxPartitions: 2000});
//
// A part made with {idRecords: false} keeps its ids' hashes only (a smaller, faster part): a
// merge that meets an id repeated across parts then throws bad_partial ("made without id
// records"), and the caller reads the parts again with records, or the whole input in one pass.
//
// The builds of the module (CMakeLists.txt): 'all' (partplay.mjs, every domain: the Node tests
// and the bench), and one per domain, built for size: 'cosmos' (partplay-cosmos.mjs: ingest,
// Cosmos DB, sizing from data), 'cql' (partplay-cql.mjs: Cassandra) and 'sizing'
// (partplay-sizing.mjs: sizing from a schema); 'cosmos-fast' (partplay-cosmos-fast.mjs) is
// 'cosmos' built for speed, for the full page; 'nosimd' (partplay-nosimd.mjs, every domain, no
// wasm SIMD) is what createEngine loads instead of any of them where wasm SIMD is missing
// (Safari before 16.4), or when asked with {simd: false}. Each is imported only when asked for:
// createEngine({}, {domain: 'cql'}). An Engine of one domain has no binding of the others'
// (calling one throws: a TypeError, or createCqlSession's PartplayError); web/worker/engines.js
// loads each request's domain's engine.
//
// Errors are thrown as PartplayError, the one JS error class (web/common/errors.js): the site
// puts this file in engine/ beside common/, where it imports it from. An engine error's `code` is
// its number in engine/include/partplay/core/error_codes.h.
import {PartplayError} from '../common/errors.js';

export {PartplayError};

/** The module factory of each domain, imported on demand. */
const FACTORIES = {
  all: () => import('./partplay.mjs'),
  cosmos: () => import('./partplay-cosmos.mjs'),
  'cosmos-fast': () => import('./partplay-cosmos-fast.mjs'),
  cql: () => import('./partplay-cql.mjs'),
  'cql-element': () => import('./partplay-cql-element.mjs'),
  sizing: () => import('./partplay-sizing.mjs'),
  nosimd: () => import('./partplay-nosimd.mjs'),
};

/** The result of one module call: throws its error as a PartplayError, else parses its json. */
function answer(reply) {
  if (!reply.ok) throw new PartplayError(reply.error);
  return reply.json === undefined ? reply : JSON.parse(reply.json);
}

/** Copies `bytes` into the heap in CHUNK_BYTES pieces through a writable-chunk/commit pair. */
function feedChunks(module, bytes, writableChunk, commitChunk) {
  let last;
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    const piece = bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
    const {pointer} = answer(writableChunk(piece.length));
    // Read HEAPU8 after writableChunk: a heap growth replaces the buffer.
    module.HEAPU8.set(piece, pointer);
    last = answer(commitChunk(piece.length));
  }
  return last;
}

/** The largest slice handed to the engine at once; bigger inputs are fed in pieces. */
export const CHUNK_BYTES = 1 << 20;

/**
 * What Analysis, AnalysisPart and KeyComparison share: one module object fed in chunks. `raw` is
 * the module object, `configure(raw)` its set-up call (none for a merged analysis); a set-up that
 * fails disposes the object and throws.
 */
class ChunkedInput {
  #module;
  #raw;
  constructor(module, raw, configure = null) {
    this.#module = module;
    this.#raw = raw;
    if (!configure) return;
    try {
      answer(configure(raw));
    } catch (e) {
      this.dispose();
      throw e;
    }
  }
  /** The module object (Engine.mergePartials takes a first part's). */
  get raw() { return this.#raw; }
  /** The wasm module it lives in. */
  get module() { return this.#module; }
  /** Copies `bytes` (Uint8Array) once into the engine's buffer and reads every complete item. */
  feed(bytes) {
    feedChunks(this.#module, bytes, (n) => this.#raw.writableChunk(n), (n) => this.#raw.commitChunk(n));
  }
  get bytesConsumed() { return answer(this.#raw.progress()).bytes_consumed; }
  get itemsSeen() { return answer(this.#raw.progress()).items_seen; }
  dispose() {
    if (this.#raw) {
      this.#raw.delete();
      this.#raw = null;
    }
  }
}

/**
 * Which reader took an analysis's items so far: {seen, validated, scanned} (analysis.h
 * items_scanned). Analyses only: a key comparison's progress does not say.
 */
function readersOf(raw) {
  const p = answer(raw.progress());
  return {seen: p.items_seen, validated: p.items_validated, scanned: p.items_scanned};
}

export class Analysis extends ChunkedInput {
  /** Made by a merge: its input is complete, finish only reports. */
  #merged = false;
  /** `options`, or a MergedRaw: a module Analysis that has merged parts (Engine.mergePartials). */
  constructor(module, options) {
    if (options instanceof MergedRaw) {
      super(module, options.raw);
      this.#merged = true;
      return;
    }
    // Options cross as JSON and are read by the engine (options_json.h), as the CLI's are.
    super(module, new module.Analysis(), (raw) => raw.configure(JSON.stringify(options ?? {})));
  }
  /**
   * Ends the input and returns the report (docs/report.md). `maxPartitions` limits `partitions`;
   * `container` (options as in docs/report.md "Options") adds the Cosmos DB container model,
   * the key advisor and each listed partition's EPK.
   */
  finish({maxPartitions = -1, container = null} = {}) {
    if (!this.#merged) answer(this.raw.finish());
    return this.model({maxPartitions, container});
  }
  get readers() { return readersOf(this.raw); }
  /** The report of the finished input again, with other container options (no re-read). */
  model({maxPartitions = -1, container = null} = {}) {
    const reply = this.raw.report(JSON.stringify({max_partitions: maxPartitions, container}));
    const report = answer(reply);
    report.partition_bytes = reply.partition_bytes;
    return report;
  }
  /**
   * The finished input's logical partitions sized as Cassandra partitions (docs/sizing.md "From
   * data"): Nr, Nv, St distributions, histograms, thresholds. `valuesPerRow` null (the default)
   * is the engine's estimate (scalar fields per item besides the key and id).
   */
  dataSizing({valuesPerRow = null, maxExamples = 10} = {}) {
    return answer(this.raw.dataSizing(JSON.stringify({values_per_row: valuesPerRow, max_examples: maxExamples})));
  }
}

/** A module Analysis holding a merge, handed to the Analysis constructor. */
class MergedRaw {
  constructor(raw) { this.raw = raw; }
}

/**
 * One part of an input (Engine.newAnalysisPart): fed like an Analysis, then either serialized
 * (finishPartial) or, made with {first: true}, finished and merged in this module. idRecords
 * false: only its ids' hashes are kept (see "Parts" at the top).
 */
export class AnalysisPart extends ChunkedInput {
  constructor(module, options, {first = false, idRecords = true} = {}) {
    super(module, new module.Analysis(),
          (raw) => raw.configurePart(JSON.stringify(options ?? {}), !!first, idRecords !== false));
  }
  /** Ends the part's input; throws its error (kept in the part all the same). */
  finish() { answer(this.raw.finish()); }
  get readers() { return readersOf(this.raw); }
  /**
   * Ends the part's input and returns its partial state (Uint8Array, its own buffer: transfer
   * it). A failed part's state carries its error, which the merge reports located in the whole
   * input. The part then takes no more input.
   */
  finishPartial() { return answer(this.raw.finishPartial()).partial; }
}

/**
 * Several candidate partition keys judged on the same items (report/comparison_run.h): feed the
 * bytes once, then compare under container options and queries as often as needed. Queries are
 * Cosmos DB NoSQL ({sql, rate}) or path lists ({filter: [paths]}); when they or the write spread
 * need it, the same bytes are fed a second time (feedSecond) before finishSecond gives the whole
 * table. The element's module has no query parser and no second read: path lists only.
 *
 *   const c = engine.newComparison({keys: [{key_paths: ['/tenantId']}, {key_paths: ['/id']}]});
 *   c.feed(bytes);  c.finish();
 *   let table = c.compare({container: {ru_per_second: 4000, growth: 10}, queries: []});
 *   if (c.secondReadPending) { c.feedSecond(bytes);  table = c.finishSecond(); }
 */
export class KeyComparison extends ChunkedInput {
  constructor(module, request) {
    super(module, new module.Comparison(), (raw) => raw.configure(JSON.stringify(request ?? {})));
  }
  finish() { answer(this.raw.finish()); }
  /**
   * {workload_given, ru_per_second, growth, queries, best, why, keys: [...]} (docs/report.md);
   * without the second read's figures while secondReadPending. `parameters`: [{name, value}];
   * `queryText`: queries one per line as --queries FILE has them (report/query_workload.h).
   */
  compare({container = {}, queries = [], parameters = undefined, queryText = undefined} = {}) {
    return answer(this.raw.compare(JSON.stringify({container, queries, parameters, query_text: queryText})));
  }
  /** Whether the last compare waits for the same bytes again. */
  get secondReadPending() { return !!this.raw.secondReadPending?.(); }
  /** The same bytes again, in order (after compare, while secondReadPending). */
  feedSecond(bytes) {
    feedChunks(this.module, bytes, (n) => this.raw.writableChunk(n), (n) => this.raw.commitSecondChunk(n));
  }
  /** Items of the second read so far. */
  get secondItemsSeen() { return answer(this.raw.secondProgress()).items_seen; }
  /** Ends the second read: the whole table, the keys ranked again with the traffic figures. */
  finishSecond() { return answer(this.raw.finishSecond()); }
}

// A lone surrogate has no UTF-8 form: TextEncoder (and so the SDK) writes U+FFFD for it, while
// the engine's strict JSON rejects a lone \uD800 escape. The replacement keeps the length in
// UTF-16 code units, so the SDK's V1 cut at 100 code units falls where it falls in the original.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// JSON.stringify would write undefined as null and -0 as 0; the engine reads {} and -0.
function keyToJson(values) {
  if (!Array.isArray(values)) throw new TypeError('a partition key is an array of values');
  const parts = values.map((v) => {
    if (v === undefined) return '{}';
    if (Object.is(v, -0)) return '-0';
    if (typeof v === 'number' && !Number.isFinite(v)) {
      throw new TypeError(`${v} has no JSON form; the engine reads keys as JSON`);
    }
    if (typeof v === 'string') return JSON.stringify(v.replace(LONE_SURROGATE, '\uFFFD'));
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
    throw new TypeError(`a partition key value is a string, number, boolean, null or undefined`);
  });
  return `[${parts.join(',')}]`;
}

export class Engine {
  #module;
  /** Whether this engine is a build with wasm SIMD (false: partplay-nosimd, the portable one). */
  simd;
  constructor(module, {simd = true} = {}) {
    this.#module = module;
    this.simd = simd;
  }
  /** The error-code table, [{code, name, description}], shared with the CLI's exit codes. */
  errorCodes() { return answer(this.#module.errorCodes()); }
  /** The engine's limits and quotas (core/limits.h): [{id, value, unit, kind, label, source}]. */
  limits() { return answer(this.#module.limits()).limits; }
  /**
   * The enums and defaults the Cosmos DB controls offer (report/vocabulary.h): {defaults, enums};
   * null in the Cassandra and sizing modules, which have no report domain (and need none).
   */
  vocabulary() { return typeof this.#module.vocabulary === 'function' ? answer(this.#module.vocabulary()) : null; }
  /** One key in the CLI's --candidate grammar (report/candidate_spec.h), as analysis options. */
  parseCandidateSpec(spec) {
    if (!this.#module.parseCandidateSpec) throw new TypeError('this engine module has no key comparison');
    return answer(this.#module.parseCandidateSpec(String(spec)));
  }
  /**
   * The page's plan for analysing an input of `inputBytes` in parts (ingest/parts_plan.h
   * PlanParts): {parts (1: one pass), min_part_bytes, first_part_weight, retire_heap_bytes,
   * threads, read_ahead, why}. `seekable`: read by ranges (a file); `workers`: asked (0: the
   * engine's default from `cores`); `options`: the analysis options (a random-suffix key is one pass).
   */
  planParts({inputBytes, seekable = true, workers = 0, cores = 1, options = {}}) {
    const reply = this.#module.planParts(inputBytes, seekable, workers, cores, JSON.stringify(options));
    if (!reply.ok) answer(reply);
    const {ok, ...plan} = reply;
    return plan;
  }
  /** After parts failed with error `code`: 'stop' | 'id_records' | 'one_pass' (ingest/parts_plan.h RetryParts). */
  retryParts(code, idRecords) { return this.#module.retryParts(code, !!idRecords).retry; }
  /** The numeric code of an error name of that table (e.g. 'io'); throws for an unknown name. */
  errorCode(name) {
    const entry = this.errorCodes().find((c) => c.name === name);
    if (!entry) throw new TypeError(`the engine has no error code named ${name}`);
    return entry.code;
  }
  /** A PartplayError with the engine's code for `name`, for errors met outside the engine. */
  error(name, message, location = null) {
    return new PartplayError({code: this.errorCode(name), name, message, location});
  }
  version() { return answer(this.#module.version()); }
  /**
   * TEST ONLY: breaks this module on purpose ('trap', 'abort' or 'stack' overflow) and throws
   * what the module throws (a WebAssembly.RuntimeError). The module must not be used afterwards.
   */
  crashForTesting(kind = 'trap') { this.#module.crashForTesting(String(kind)); }
  /** Peak wasm memory in bytes (wasm memory never shrinks, so its size is the peak). */
  heapBytes() { return this.#module.HEAPU8.length; }
  newAnalysis(options) { return new Analysis(this.#module, options); }
  /** One part of an input, analysed apart (see "Parts" at the top). */
  newAnalysisPart(options, {first = false, idRecords = true} = {}) {
    return new AnalysisPart(this.#module, options, {first, idRecords});
  }
  /**
   * Merges parts given in input order: AnalysisPart objects of this engine (consumed: dispose
   * them) or partial states (Uint8Array/ArrayBuffer). Returns an Analysis whose finish(options)
   * reports like one pass over the whole input, or throws the error one pass would (the earliest
   * part's, located in the whole input); a corrupt partial throws bad_partial.
   */
  mergePartials(parts) {
    const raw = new this.#module.Analysis();
    try {
      for (const part of parts) {
        if (part instanceof AnalysisPart) answer(raw.addPart(part.raw));
        else {
          const bytes = part instanceof ArrayBuffer ? new Uint8Array(part) : part;
          const {pointer} = answer(raw.partialBuffer(bytes.length));
          this.#module.HEAPU8.set(bytes, pointer);  // HEAPU8 read after the buffer grew the heap
          answer(raw.addPartial());
        }
      }
      answer(raw.merge());
    } catch (e) {
      raw.delete();
      throw e;
    }
    return new Analysis(this.#module, new MergedRaw(raw));
  }
  /**
   * Where an input of `size` bytes may be cut into up to `parts` parts of at least
   * `minPartBytes` (engine/include/partplay/ingest/split_points.h): the cuts, increasing, each
   * just before an item. `read(offset, length)` answers those bytes (a Uint8Array, or a promise
   * of one; fewer only at the end of the input); the engine asks for a few windows of about
   * 1 MiB. An array, or an input without a safe boundary, gives fewer cuts (none: one part).
   */
  async splitPoints({size, parts, minPartBytes = 1, read}) {
    const search = new this.#module.SplitSearch(size, parts, minPartBytes);
    try {
      for (;;) {
        const {done, offset, length} = answer(search.window());
        if (done) break;
        const bytes = await read(offset, length);
        answer(search.offer(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes));
      }
      return answer(search.cuts());
    } finally {
      search.delete();
    }
  }
  /**
   * BENCHMARK: simdjson's DOM parse_many alone over `bytes` (NDJSON), the ceiling of the
   * analysis (engine/include/partplay/ingest/parse_limit.h): {documents, ms}, `ms` the parse
   * only (the copy into the heap is not timed). Throws PartplayError for bad JSON.
   */
  parseLimit(bytes) {
    const probe = new this.#module.ParseLimitProbe();
    try {
      const {pointer} = answer(probe.buffer(bytes.length));
      this.#module.HEAPU8.set(bytes, pointer);
      const started = performance.now();
      const {documents} = answer(probe.parse());
      return {documents, ms: performance.now() - started};
    } finally {
      probe.delete();
    }
  }
  /** Candidate keys compared on the same items (see KeyComparison below). */
  newComparison(request) { return new KeyComparison(this.#module, request); }
  /** A CQL session over an in-memory Cassandra cluster (see CqlSession at the end of this file). */
  createCqlSession() { return new CqlSession(this.#module); }
  /** The token (a decimal string) of a partition key given as CQL literals of the given types. */
  cassandraToken(types, literals) { return answer(this.#module.cassandraToken(types, literals)); }
  /**
   * The Cosmos DB effective partition key (upper-case hex), as @azure/cosmos hashPartitionKey
   * computes it. `key`: JSON text of the key (an array of values, {} for undefined) or an array
   * of JS values (strings, finite numbers, booleans, null, undefined); `version`: 1, 2 or
   * 'multihash'. Throws PartplayError.
   */
  effectivePartitionKey(key, version) {
    const json = typeof key === 'string' ? key : keyToJson(key);
    return answer(this.#module.effectivePartitionKey(json, String(version)));
  }
  /**
   * Partition sizing from a CQL schema and estimates (docs/sizing.md), the same JSON as
   * `partplay size --format json`. `request`: {cql, table, rows_per_partition, avg_sizes, ...}.
   */
  /** The tables a schema script creates: [{name, columns: [{name, type, role, fixed_bytes}], variable_columns}]. */
  sizingTables(cql) { return answer(this.#module.sizingTables(String(cql))).tables; }
  sizeTable(request) {
    return answer(this.#module.sizeTable(typeof request === 'string' ? request : JSON.stringify(request)));
  }
  /** One-shot helper: analyzes a Uint8Array. */
  analyzeBytes(bytes, options, finishOptions) {
    const analysis = this.newAnalysis(options);
    try {
      analysis.feed(bytes);
      return analysis.finish(finishOptions);
    } finally {
      analysis.dispose();
    }
  }
}

/**
 * The smallest module with a 128-bit SIMD instruction (a function returning v128.const 0): it
 * validates only where wasm SIMD runs (Chrome 91, Firefox 89, Safari 16.4), each of which also runs
 * the bulk memory instructions those modules use (-mbulk-memory: Chrome 75, Firefox 79, Safari 15).
 */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0,
                                   253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]);

export function supportsWasmSimd() {
  return WebAssembly.validate(SIMD_PROBE);
}

/**
 * Loads the module of `domain` ('all' | 'cosmos' | 'cosmos-fast' | 'cql' | 'cql-element' | 'sizing';
 * 'cql-element' is the element's Cassandra module, without bulk loads). `moduleOptions` go to Emscripten
 * (`wasmBinary`, `locateFile`). Every domain's module is compiled with wasm SIMD (-msimd128);
 * where it does not run (`simd` defaults to supportsWasmSimd()), the module loaded is 'nosimd',
 * every domain built without it: the same answers, more slowly (docs/browsers.md). The Engine's
 * `simd` says which was loaded.
 */
export async function createEngine(moduleOptions = {}, {domain = 'all', simd = supportsWasmSimd()} = {}) {
  if (!FACTORIES[domain] || domain === 'nosimd') {
    throw new TypeError(`createEngine: unknown domain ${JSON.stringify(domain)}`);
  }
  // Asked for SIMD where it does not run: said plainly, not as the compiler's "invalid opcode".
  if (simd && !supportsWasmSimd()) {
    throw new Error('this browser does not run WebAssembly SIMD (Chrome 91, Firefox 89, Safari 16.4 or ' +
                    'later); leave out {simd: true} to load the engine built without it');
  }
  const {default: createPartplay} = await FACTORIES[simd ? domain : 'nosimd']();
  return new Engine(await createPartplay(moduleOptions), {simd: Boolean(simd)});
}

// =============================================================================================
// The CQL session: an in-memory Apache Cassandra cluster model (wasm/cassandra_bindings.cpp,
// engine/include/partplay/cassandra/session.h). Results cross as the engine's own JSON text
// (cassandra/result_format.h) and are parsed here.
//
//   const cql = engine.createCqlSession();
//   const {results} = cql.execute("CREATE KEYSPACE ks WITH replication = {...}; USE ks; ...");
//   cql.configureRing({nodes: 6, num_tokens: 16, random_tokens: true, seed: 7});
//   cql.keyspaces();                                 // [{name, replication, copies, tables}]
//   const ring = cql.ring('ks');                     // nodes, vnode tokens, ownership
//   const layout = cql.tableLayout('ks.t', {max_partitions: 5000, ru_per_second: 40000});
//   cql.token(['text', 'int'], ["'hello'", '42']);   // '-...' (a decimal string)
//   const load = cql.startLoad('ks.t'); load.feed(bytes); ...; load.finish();   // {rows, ...}
//   cql.startLoad('ks.t', {format: 'csv', header: true, delimiter: '|', null: 'NULL'});
//   // progress: {rows, failed, bytes_consumed, lines, failures: [{line, column, byte_offset,
//   //            message}]}; load.rows, .failed, .bytesConsumed, .lines, .failures
//   cql.dispose();
//
// Tokens are decimal strings everywhere (a JS number cannot hold every 64-bit token): compare
// them as BigInt. In a result's `rows`, JSON.parse rounds integers beyond 2^53 (bigint, varint,
// token(...) columns); `cells` holds every value exactly, as cqlsh prints it.
//
// A failing statement does not throw: execute() returns it as {kind: 'error', error: {message,
// line, column, code, name, byte_offset}} among the results, and the statements after it still
// run (as cqlsh does). The other methods throw PartplayError.

/**
 * A bulk load into one table, fed in chunks like an Analysis (CqlSession.startLoad). Progress, after
 * every feed and from finish(): {rows, failed, bytes_consumed, lines, failures: [{line, column,
 * byte_offset, message}]}: rows loaded; for CSV, records that failed (counted; the first 20
 * listed, located in the whole input) and the lines read into records; for JSON, failed is 0 (the
 * first bad row stops the load with an error) and lines counts the lines fed.
 */
export class CqlLoad {
  #module;
  #raw;
  #progress = {rows: 0, failed: 0, bytes_consumed: 0, lines: 0, failures: []};
  #isCurrent;
  constructor(module, raw, isCurrent) {
    this.#module = module;
    this.#raw = raw;
    this.#isCurrent = isCurrent;
  }
  #check() {
    if (!this.#isCurrent(this)) throw new TypeError('this load was replaced by a newer one of the session');
  }
  // On an error, the progress up to it (the rows before it stay loaded), then the error.
  #refreshAndThrow(e) {
    const reply = this.#raw.loadProgress();
    if (reply.ok) this.#progress = JSON.parse(reply.json);
    throw e;
  }
  /**
   * Copies `bytes` once into the engine's buffer and loads every row they complete (a record cut
   * by the end of `bytes` waits for the next feed). Throws for a bad JSON row, or a CSV reader
   * error (an unterminated quote, a record over the limits) that stops the load.
   */
  feed(bytes) {
    this.#check();
    let last;
    try {
      last = feedChunks(this.#module, bytes, (n) => this.#raw.loadWritableChunk(n),
                        (n) => this.#raw.loadCommitChunk(n));
    } catch (e) {
      this.#refreshAndThrow(e);
    }
    if (last) this.#progress = last;
  }
  /** The progress so far (see the class comment). */
  get progress() { return this.#progress; }
  /** Rows inserted so far. */
  get rows() { return this.#progress.rows; }
  /** CSV records that failed so far (counted; the first ones listed in `failures`). */
  get failed() { return this.#progress.failed; }
  get bytesConsumed() { return this.#progress.bytes_consumed; }
  get lines() { return this.#progress.lines; }
  /** The first failed CSV records: [{line, column, byte_offset, message}]. */
  get failures() { return this.#progress.failures; }
  /**
   * Ends the input and returns the final progress. Throws for a JSON object or array left open,
   * or a CSV quote left open (the progress getters then hold what loaded before it).
   */
  finish() {
    this.#check();
    try {
      this.#progress = answer(this.#raw.finishLoad());
    } catch (e) {
      this.#refreshAndThrow(e);
    }
    return this.#progress;
  }
  /** Drops the load (the rows inserted so far stay); nothing when a newer load replaced it. */
  cancel() {
    if (this.#isCurrent(this)) answer(this.#raw.cancelLoad());
  }
}

export class CqlSession {
  #module;
  #raw;
  #load = null;
  constructor(module) {
    if (typeof module.CqlSession !== 'function') {
      throw new PartplayError({code: null, name: 'engine_load',
                               message: 'This engine build has no CQL session (it was built without engine/src/cassandra).'});
    }
    this.#module = module;
    this.#raw = new module.CqlSession();
  }
  /**
   * Runs a script (a string, or UTF-8 bytes): {results: [StatementResult]} in statement order,
   * each {kind: 'rows'|'schema_change'|'void'|'describe'|'error', verb, statement, line, column,
   * byte_offset, source_begin and source_end (the statement's bytes in the script), table?
   * ('ks.t', the table the statement names), message?, warnings, error?, and
   * for rows: columns [{name, type}], rows, cells, row_partition, partition_key, partitions
   * [{token, key, replicas}]}.
   */
  execute(script) {
    return answer(this.#raw.execute(script));
  }
  /**
   * Replaces the ring: {nodes, num_tokens, random_tokens, seed, datacenters: [{name, nodes,
   * racks}]} (every field optional; datacenters replace `nodes`; an unknown field is an error).
   * The data stays.
   */
  configureRing(options = {}) {
    answer(this.#raw.configureRing(JSON.stringify(options)));
  }
  /**
   * Every keyspace created from now on keeps `factor` copies of each partition (SimpleStrategy's
   * factor and each datacenter's), whatever its CREATE KEYSPACE says; 0 turns this off.
   */
  overrideReplicationFactor(factor) {
    answer(this.#raw.overrideReplicationFactor(factor));
  }
  /**
   * Every keyspace, sorted: [{name, replication: {class, options: {name: value}}, copies (of
   * each partition), text (its CREATE KEYSPACE), tables: string[] (sorted)}].
   */
  keyspaces() {
    return answer(this.#raw.keyspaces());
  }
  /**
   * The ring: {nodes: [{name, address, datacenter, rack, ownership, effective_ownership?}],
   * tokens: [{token, node}] sorted by token, num_tokens, random_tokens}. With a keyspace name,
   * each node's effective ownership under the keyspace's replication too.
   */
  ring(keyspace = '') {
    return answer(this.#raw.ring(keyspace ?? ''));
  }
  /**
   * A table's partitions in token order and per-node load, with the Cosmos DB Cassandra API
   * placement: {table, partition_count, row_count, bytes, largest_partition_bytes,
   * partitions_scanned, sample_every, partitions: [{token, key, rows, cells, bytes,
   * physical_partition, replicas}], nodes: [{partitions, rows, bytes, primary_partitions,
   * primary_rows, primary_bytes}], cosmos: {replicas, quorum, physical_partition_bytes,
   * logical_partition_bytes, largest_partition_over_limit, ru_per_second,
   * ru_per_physical_partition, for_storage, for_throughput, physical_partitions, ranges: [{id,
   * min, max, partitions, rows, bytes}]}}. `options`: {scan_partitions, max_partitions,
   * ru_per_second} (cassandra/result_format.h TableLayoutOptions). `table` is "ks.table", or
   * "table" in the current keyspace. Throws for an unknown table.
   */
  tableLayout(table, options = {}) {
    return answer(this.#raw.tableLayout(table, JSON.stringify(options)));
  }
  /**
   * The rows `table` ("ks.t", or "t" in the current keyspace) holds, measured partition by
   * partition and written as a sizing request (docs/sizing.md "From a table's rows"):
   * {keyspace, table, view, partitions, rows, nc, npk, ns, t_avg, columns: [{name, type, role,
   * fixed_bytes, per, values, nulls, bytes, avg_bytes}], largest: [{key, token, rows, nv,
   * st_bytes}], measured: (docs/sizing.md "From data"), request: {cql, table, rows_per_partition,
   * worst_rows_per_partition, avg_sizes, partitions, replication_factor}, notes}. `options`:
   * {max_examples}. Throws for an unknown table or one without rows (invalid_state).
   */
  sizeFromRows(table, options = {}) {
    if (typeof this.#raw.sizeFromRows !== 'function') {
      throw new PartplayError({code: null, name: 'engine_load',
                               message: 'This engine build sizes no table from its rows (the element\'s Cassandra module, partplay-cql-element).'});
    }
    return answer(this.#raw.sizeFromRows(JSON.stringify({...options, table})));
  }
  /** The token (a decimal string) of a partition key given as CQL literals of the given types. */
  token(types, literals) {
    return answer(this.#module.cassandraToken(types, literals));
  }
  /**
   * Starts a bulk load into a table ("ks.t", or "t" in the current keyspace); feed the bytes to
   * the returned CqlLoad. A new load replaces one in progress. `options` (all optional; an unknown
   * field is an error): {format: 'json' (the default: NDJSON, an array or one object, each
   * inserted as INSERT ... JSON) | 'csv' (as COPY t (columns) FROM 'f.csv' WITH ... loads it),
   * and for CSV: header (boolean), delimiter, quote, escape (one character each), null (the
   * text of a null), datetimeformat (cqlsh's, as COPY takes it), columns: ['c1', ...] (the
   * file's columns; default: the table's in SELECT * order)}.
   */
  startLoad(table, options = {}) {
    this.#load = null;
    if (typeof this.#raw.startLoad !== 'function') {
      throw new PartplayError({code: null, name: 'engine_load',
                               message: 'This engine build loads no files (the element\'s Cassandra module, partplay-cql-element).'});
    }
    answer(this.#raw.startLoad(table, JSON.stringify(options ?? {})));
    this.#load = new CqlLoad(this.#module, this.#raw, (load) => load === this.#load);
    return this.#load;
  }
  /**
   * Loads JSON (a string or UTF-8 bytes) at once; returns the number of rows. On an error the
   * rows before it stay loaded; its location is within `json`.
   */
  loadJson(table, json) {
    const load = this.startLoad(table);
    load.feed(typeof json === 'string' ? new TextEncoder().encode(json) : new Uint8Array(json));
    return load.finish().rows;
  }
  /** The keyspace of the last USE ('' before any). */
  currentKeyspace() {
    return answer(this.#raw.currentKeyspace());
  }
  dispose() {
    if (this.#raw) {
      this.#raw.delete();
      this.#raw = null;
    }
  }
}
