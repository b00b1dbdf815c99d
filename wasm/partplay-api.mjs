// The friendly face of the wasm module: feeds bytes, throws PartplayError on error statuses, and
// hides the heap pointers. Used by the web worker and by the Node tests; never by the page itself.
//
//   const engine = await createEngine();                  // or createEngine({wasmBinary})
//   const analysis = engine.newAnalysis({key_paths: ['/userId']});
//   analysis.feed(bytes);  ...  analysis.feed(moreBytes);
//   const report = analysis.finish();                     // docs/report.md
//   const again = analysis.model({container: {ru_per_second: 18000}});  // no re-read
//   analysis.dispose();
import createPartplay from './partplay.mjs';

/** An engine error: `code` is the numeric code from engine/include/partplay/core/error_codes.h. */
export class PartplayError extends Error {
  constructor({code, name, message, location}) {
    super(message);
    this.name = 'PartplayError';
    this.code = code;
    this.codeName = name;
    this.location = location ?? null;
  }
  /** A plain object that survives postMessage. */
  toJSON() {
    return {name: this.name, code: this.code, codeName: this.codeName, message: this.message,
            location: this.location};
  }
}

function check(status) {
  if (!status.ok) throw new PartplayError(status.error);
}

/** The largest slice handed to the engine at once; bigger inputs are fed in pieces. */
export const CHUNK_BYTES = 1 << 20;

export class Analysis {
  #module;
  #raw;
  constructor(module, options) {
    this.#module = module;
    this.#raw = new module.Analysis();
    try {
      // Options cross as JSON and are read by the engine (options_json.h), as the CLI's are.
      check(this.#raw.configure(JSON.stringify(options ?? {})));
    } catch (e) {
      this.dispose();
      throw e;
    }
  }
  /** Copies `bytes` (Uint8Array) once into the engine's buffer and analyzes every complete item. */
  feed(bytes) {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      const piece = bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
      const ptr = this.#raw.writableChunk(piece.length);
      // Read HEAPU8 after writableChunk: a heap growth replaces the buffer.
      this.#module.HEAPU8.set(piece, ptr);
      check(this.#raw.commitChunk(piece.length));
    }
  }
  get bytesConsumed() { return this.#raw.bytesConsumed(); }
  get itemsSeen() { return this.#raw.itemsSeen(); }
  /**
   * Ends the input and returns the report (docs/report.md). `maxPartitions` limits `partitions`;
   * `container` (options as in docs/report.md "Options") adds the Cosmos DB container model,
   * the key advisor and each listed partition's EPK.
   */
  finish({maxPartitions = -1, container = null} = {}) {
    check(this.#raw.finish());
    return this.model({maxPartitions, container});
  }
  /** The report of the finished input again, with other container options (no re-read). */
  model({maxPartitions = -1, container = null} = {}) {
    const result = this.#raw.report(maxPartitions, container ? JSON.stringify(container) : '');
    check(result);
    const report = JSON.parse(result.json);
    report.partition_bytes = result.partition_bytes;
    return report;
  }
  /**
   * The finished input's logical partitions sized as Cassandra partitions (docs/sizing.md "From
   * data"): Nr, Nv, St distributions, histograms, thresholds. `valuesPerRow` defaults to the
   * engine's estimate (scalar fields per item besides the key and id).
   */
  dataSizing({valuesPerRow = -1, maxExamples = 10} = {}) {
    const result = this.#raw.dataSizing(valuesPerRow, maxExamples);
    check(result);
    return JSON.parse(result.json);
  }
  dispose() {
    if (this.#raw) {
      this.#raw.delete();
      this.#raw = null;
    }
  }
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
  constructor(module) { this.#module = module; }
  /** The error-code table, [{code, name, description}], shared with the CLI's exit codes. */
  errorCodes() { return this.#module.errorCodes(); }
  version() { return this.#module.version(); }
  /** Peak wasm memory in bytes (wasm memory never shrinks, so its size is the peak). */
  heapBytes() { return this.#module.HEAPU8.length; }
  newAnalysis(options) { return new Analysis(this.#module, options); }
  /** A CQL session over an in-memory Cassandra cluster (see CqlSession at the end of this file). */
  createCqlSession() { return new CqlSession(this.#module); }
  /**
   * The Cosmos DB effective partition key (upper-case hex), as @azure/cosmos hashPartitionKey
   * computes it. `key`: JSON text of the key (an array of values, {} for undefined) or an array
   * of JS values (strings, finite numbers, booleans, null, undefined); `version`: 1, 2 or
   * 'multihash'. Throws PartplayError.
   */
  effectivePartitionKey(key, version) {
    const json = typeof key === 'string' ? key : keyToJson(key);
    const result = this.#module.effectivePartitionKey(json, String(version));
    check(result);
    return result.epk;
  }
  /**
   * Partition sizing from a CQL schema and estimates (docs/sizing.md), the same JSON as
   * `partplay size --format json`. `request`: {cql, table, rows_per_partition, avg_sizes, ...}.
   */
  sizeTable(request) {
    const result = this.#module.sizeTable(typeof request === 'string' ? request : JSON.stringify(request));
    check(result);
    return JSON.parse(result.json);
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

/** Loads the module. `moduleOptions` go to Emscripten (`wasmBinary`, `locateFile`). */
export async function createEngine(moduleOptions = {}) {
  return new Engine(await createPartplay(moduleOptions));
}

// =============================================================================================
// The CQL session (issue 4): an in-memory Apache Cassandra cluster model (wasm/cql_bindings.cpp,
// engine/include/partplay/cassandra/session.h). Results cross as the engine's own JSON text
// (cassandra/result_format.h) and are parsed here.
//
//   const cql = engine.createCqlSession();
//   const {results} = cql.execute("CREATE KEYSPACE ks WITH replication = {...}; USE ks; ...");
//   cql.configureRing({nodes: 6, num_tokens: 16, random_tokens: true, seed: 7});
//   const ring = cql.ring('ks');                    // nodes, vnode tokens, ownership
//   const layout = cql.tableLayout('ks.t', 5000);   // partitions, per-node load, Cosmos figures
//   cql.token(['text', 'int'], ["'hello'", '42']);  // '-...' (a decimal string)
//   cql.loadJson('ks.t', bytes);                    // rows loaded
//   cql.dispose();
//
// Tokens are decimal strings everywhere (a JS number cannot hold every 64-bit token): compare
// them as BigInt. In a result's `rows`, JSON.parse rounds integers beyond 2^53 (bigint, varint,
// token(...) columns); `cells` holds every value exactly, as cqlsh prints it.
//
// A failing statement does not throw: execute() returns it as {kind: 'error', error: {message,
// line, column, code, name, byte_offset}} among the results, and the statements after it still
// run (as cqlsh does). The other methods throw PartplayError.

/** A PartplayError from the {message, line, column, code, name, byte_offset} of a CQL result. */
function cqlError(e) {
  const location = e.line > 0 || (e.byte_offset ?? -1) >= 0
    ? {byte_offset: e.byte_offset ?? -1, line: e.line ?? 0, column: e.column ?? 0, item_index: -1}
    : null;
  return new PartplayError({code: e.code, name: e.name, message: e.message, location});
}

export class CqlSession {
  #raw;
  constructor(module) {
    if (typeof module.CqlSession !== 'function') {
      throw new PartplayError({code: null, name: 'engine_load',
                               message: 'This engine build has no CQL session (it was built without engine/src/cql).'});
    }
    this.#raw = new module.CqlSession();
  }
  /**
   * Runs a script (a string, or UTF-8 bytes): {results: [StatementResult]} in statement order,
   * each {kind: 'rows'|'schema_change'|'void'|'describe'|'error', verb, statement, line, column,
   * byte_offset, message?, warnings, error?, and for rows: columns [{name, type}], rows, cells,
   * row_partition, partition_key, partitions [{token, key, replicas}]}.
   */
  execute(script) {
    return JSON.parse(this.#raw.execute(script));
  }
  /**
   * Replaces the ring: {nodes, num_tokens, random_tokens, seed, datacenters: [{name, nodes,
   * racks}]} (every field optional; datacenters replace `nodes`). The data stays.
   */
  configureRing(options = {}) {
    check(this.#raw.configureRing(options));
  }
  /**
   * The ring: {nodes: [{name, address, datacenter, rack, ownership, effective_ownership?}],
   * tokens: [{token, node}] sorted by token, num_tokens, random_tokens}. With a keyspace name,
   * each node's effective ownership under the keyspace's replication too.
   */
  ring(keyspace = '') {
    return JSON.parse(this.#raw.ring(keyspace ?? ''));
  }
  /**
   * A table's partitions in token order (at most maxPartitions; -1 for all) and per-node load:
   * {table, partition_count, row_count, bytes, largest_partition_bytes, partitions: [{token, key,
   * rows, cells, bytes, replicas}], nodes: [{partitions, rows, bytes, primary_partitions,
   * primary_rows, primary_bytes}], cosmos: {replicas, quorum, physical_partition_bytes,
   * logical_partition_bytes, physical_partitions, largest_partition_over_limit}}.
   * `table` is "ks.table", or "table" in the current keyspace. Throws for an unknown table.
   */
  tableLayout(table, maxPartitions = -1) {
    const layout = JSON.parse(this.#raw.tableLayout(table, maxPartitions));
    if (layout.error) throw cqlError(layout.error);  // {"error": {...}} for an unknown table
    return layout;
  }
  /** The token (a decimal string) of a partition key given as CQL literals of the given types. */
  token(types, literals) {
    const result = this.#raw.token(types, literals);
    check(result);
    return result.token;
  }
  /**
   * Loads JSON objects (NDJSON, an array, or one object; a string or UTF-8 bytes) into a table, as
   * INSERT ... JSON would. Returns the number of rows loaded. On an error the rows before it stay
   * loaded; the error's location has byte_offset and item_index within `json`.
   */
  loadJson(table, json) {
    const result = this.#raw.loadJson(table, json);
    check(result);
    return result.rows;
  }
  /** The keyspace of the last USE ('' before any). */
  currentKeyspace() {
    return this.#raw.currentKeyspace();
  }
  dispose() {
    if (this.#raw) {
      this.#raw.delete();
      this.#raw = null;
    }
  }
}
