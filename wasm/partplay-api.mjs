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

/** An engine error: `code` is the numeric code from engine/include/partplay/error_codes.h. */
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
