// The engine worker: the only module that loads the wasm engine. Started by web/client.js as
//   new Worker(new URL('./worker.js', import.meta.url), {type: 'module'})
// and spoken to with the protocol in web/protocol.js (read that first).
//
// Sources are streamed into the engine chunk by chunk (File.stream(), fetch bodies, 1 MiB slices
// of text and byte buffers); nothing big is read whole. Where a core is free, a File's stream is
// read ahead by a helper thread (reader.js), so its bytes arrive while the engine works.
// Progress goes out at most every PROGRESS_INTERVAL_MS; cancellation is checked between chunks.
//
// A finished analysis is kept (not disposed) in its slot, so `model` can re-report it with other
// container options without reading the data again; the page keeps 'main' (the key typed) and
// 'synthetic' (the same data under a synthetic key).
//
// The Cassandra mode's CQL session lives here too (the end of this file): scripts, the ring, the
// views the page draws, and JSON or CSV files streamed into tables chunk by chunk (the engine
// frames and locates the rows, as it does for an analysis). Every source may be gzip (gunzip.js).
import {
  COSMOS_DEFAULT_RU, CQL_MAX_PARTITIONS, CQL_SCAN_PARTITIONS, DEFAULT_MAX_PARTITIONS, DEFAULT_RING, DEFAULT_SLOT,
  ErrorCodeNames, LoadFormat, PROGRESS_INTERVAL_MS, READ_CHUNK_BYTES, Reply, Request, SourceKind, errorPayload, progress,
  readAheadPays, result, toErrorPayload, validateRequest,
} from './protocol.js';
import {gunzipIfCompressed} from './gunzip.js';

// One engine module per domain (CMakeLists.txt): 'cosmos' (ingest, Cosmos DB, sizing from data),
// 'cql' (Cassandra) and 'sizing' (sizing from a schema), each loaded on its first request, so a
// page or an element in one mode never downloads another's wasm. The worker's URL names the
// domain to load at once and to answer init with (worker.js?domain=cql; 'cosmos' by default), and
// with size=small, that the Cosmos DB engine is the one built for size (the element's: it
// analyses small examples) rather than for speed (the page's: it analyses the reader's files).
const CQL_REQUESTS = new Set([Request.CQL, Request.RING, Request.CQL_VIEW, Request.CQL_LOAD, Request.CQL_RESET]);
const SIZING_REQUESTS = new Set([Request.SIZE_TABLE, Request.SIZING_TABLES]);
const DOMAINS = ['cosmos', 'cql', 'sizing'];
// The module's own URL (not self.location: a worker started from a blob: module that imports
// this one, for files on another origin, has the blob's location).
const params = new URL(import.meta.url).searchParams;
const FIRST_DOMAIN = DOMAINS.find((d) => d === params.get('domain')) ?? 'cosmos';
/** The module of each domain (wasm/partplay-api.mjs createEngine). */
const MODULES = {cosmos: params.get('size') === 'small' ? 'cosmos' : 'cosmos-fast', cql: 'cql', sizing: 'sizing'};
// simd=0 loads the engine built without wasm SIMD even where SIMD runs (the page's ?simd=0, to
// try what a browser without it gets); otherwise createEngine picks it only where SIMD is missing.
const ENGINE_SIMD = params.get('simd') === '0' ? {simd: false} : {};
/** The domain whose engine answers a request of `type`. */
const domainOf = (type) => (CQL_REQUESTS.has(type) ? 'cql' : SIZING_REQUESTS.has(type) ? 'sizing'
  : type === Request.INIT ? FIRST_DOMAIN : 'cosmos');

const engines = new Map();
/** The engine of `domain`, loaded once: {api, engine} or a rejected promise with an ErrorPayload. */
function engineFor(domain) {
  if (!engines.has(domain)) {
    const loading = (async () => {
      try {
        const api = await import('../engine/partplay-api.mjs');
        const engine = await api.createEngine({}, {domain: MODULES[domain], ...ENGINE_SIMD});
        return {api, engine};
      } catch (e) {
        throw errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD,
                            message: `The analysis engine could not be loaded: ${e?.message ?? e}`});
      }
    })();
    // Avoid an "unhandled rejection" report; every request awaits it and reports the error itself.
    loading.catch(() => {});
    engines.set(domain, loading);
  }
  return engines.get(domain);
}
engineFor(FIRST_DOMAIN);

// =============================================================================================
// Engine failures. A wasm trap (RuntimeError: memory access out of bounds, unreachable, ...), an
// Emscripten abort ("Aborted(...)") or a RangeError met inside an engine call can leave the module
// in a broken state, so the instance is never used again: the failing request and every later one
// answer an `engine_failed` error, and the client (web/client.js) starts a fresh worker.

/** What each request was doing, for the sentence the reader sees. */
const DOING = {
  [Request.INIT]: 'starting',
  [Request.ANALYZE]: 'analysing the data',
  [Request.REANALYZE]: 'analysing the data',
  [Request.MODEL]: 're-modelling the analysis',
  [Request.COMPARE]: 'comparing the keys',
  [Request.RECOMPARE]: 'comparing the keys',
  [Request.CQL]: 'running this script',
  [Request.RING]: 'changing the ring',
  [Request.CQL_VIEW]: 'drawing the table',
  [Request.CQL_LOAD]: 'loading rows into the table',
  [Request.CQL_RESET]: 'resetting the session',
  [Request.SIZING_TABLES]: 'reading the tables of the script',
  [Request.SIZE_TABLE]: 'sizing the table',
  [Request.DATA_SIZING]: 'sizing the analysed data',
  [Request.SPLIT]: 'analysing the data',
  [Request.ANALYZE_PART]: 'analysing the data',
  [Request.MERGE]: 'analysing the data',
};

/** The ErrorPayload of the failure that killed this engine instance, or null while it is sound. */
let dead = null;

/** True when `e` is a trap or an abort of the wasm module (not an engine error value). */
function isEngineFailure(e) {
  if (!e || typeof e !== 'object' || 'codeName' in e) return false;
  return e instanceof WebAssembly.RuntimeError || e instanceof RangeError ||
    (typeof e.message === 'string' && e.message.startsWith('Aborted('));
}

/** Marks the instance dead when `e` is an engine failure met while doing `type`; returns whether it is. */
function noteFailure(e, type) {
  if (dead || !isEngineFailure(e)) return !!dead;
  const reason = String(e.message || e.name).replace(/\. Build with -s ASSERTIONS=1 for more info\.$/, '');
  dead = errorPayload({codeName: ErrorCodeNames.ENGINE_FAILED,
                       message: `The engine stopped while ${DOING[type] ?? 'working'} (${reason}).`});
  return true;
}

/** The job in flight: {id, cancelled}. A new analysis cancels the previous one. */
let current = null;
/** The last analyzed source, kept for reanalyze: {kind, name, text?|bytes?|file?|url?}. */
let lastSource = null;
/** Finished analyses by slot: {analysis, source: {kind, name, bytes}, keyPaths}. */
const slots = new Map();

function keepInSlot(slot, entry) {
  slots.get(slot)?.analysis.dispose();
  slots.set(slot, entry);
}

function releaseSlot(slot) {
  const entry = slots.get(slot);
  if (!entry) return false;
  entry.analysis.dispose();
  slots.delete(slot);
  return true;
}

class AbortError extends Error {
  constructor() {
    super('The analysis was cancelled.');
    this.name = 'AbortError';
  }
}

/** A source that could not be read: the engine's `io` error (its code from the engine's table). */
async function ioError(message) {
  const {engine} = await engineFor(FIRST_DOMAIN);
  return engine.error(ErrorCodeNames.IO, message);
}

/**
 * Lets queued messages (a cancel, a newer analyze) run. A macrotask, not a microtask: a message
 * to ourselves, not setTimeout(0), which a browser delays to 4 ms once timers nest five deep (as
 * they do here, a stream's reads resolving inside the timer's task): 3% of a one-worker
 * analysis in Chromium (a median of 10 runs: 627 against 648 ms).
 */
const yieldChannel = new MessageChannel();
const yielded = [];
yieldChannel.port1.onmessage = () => yielded.shift()?.();
function yieldToEvents() {
  return new Promise((resolve) => {
    yielded.push(resolve);
    yieldChannel.port2.postMessage(null);
  });
}

/** Turns a request's source into the form kept for reanalyze (text is encoded once here). */
function keepSource(source) {
  const name = source.name ?? null;
  switch (source.kind) {
    case SourceKind.TEXT:
      return {kind: SourceKind.TEXT, name, bytes: new TextEncoder().encode(source.text)};
    case SourceKind.BYTES:
      return {kind: SourceKind.BYTES, name, bytes: new Uint8Array(source.buffer)};
    case SourceKind.FILE:
      return {kind: SourceKind.FILE, name: name ?? source.file.name ?? null, file: source.file};
    case SourceKind.URL:
      return {kind: SourceKind.URL, name: name ?? source.url, url: source.url};
  }
  throw new TypeError(`unknown source kind ${source.kind}`);
}

/** Slices an in-memory buffer into READ_CHUNK_BYTES pieces. */
async function* sliceBytes(bytes) {
  for (let at = 0; at < bytes.length; at += READ_CHUNK_BYTES) {
    yield bytes.subarray(at, Math.min(bytes.length, at + READ_CHUNK_BYTES));
  }
}

/** Reads a ReadableStream of Uint8Array chunks. */
async function* readStream(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) return;
      if (value && value.length) yield value;
    }
  } finally {
    // Stops the underlying read when we leave early (cancel, engine error).
    reader.cancel().catch(() => {});
  }
}

/** The buffer a file's stream is read into, again and again, where it is a byte stream. */
const FILE_READ_BYTES = 4 << 20;

/**
 * The byte streams being read: held here, since Chromium (156) lets a garbage collection take a
 * File's byte stream while a BYOB read of it is pending, and that read then never settles (an
 * idle worker's collection did so in about one analysis of six; reader.test.mjs forces it).
 */
const streamsBeingRead = new Set();

/**
 * Reads a File's stream here. Where it is a byte stream (Chromium), into one reused buffer: a
 * chunk is then only valid until the next is asked for (openSource's contract), and the thread
 * takes each chunk over about 5x faster than into a fresh buffer per chunk (79 MB in Chromium:
 * about 10 against 45-70 ms). Elsewhere, the stream's own chunks.
 */
async function* readFileStream(file) {
  const stream = file.stream();
  let reader;
  try {
    reader = stream.getReader({mode: 'byob'});
  } catch {
    yield* readStream(stream);  // not a byte stream
    return;
  }
  streamsBeingRead.add(stream);
  try {
    let buffer = new ArrayBuffer(FILE_READ_BYTES);
    for (;;) {
      const {done, value} = await reader.read(new Uint8Array(buffer));
      if (done) return;
      buffer = value.buffer;  // the same memory, handed back
      if (value.length) yield value;
    }
  } finally {
    streamsBeingRead.delete(stream);
    reader.cancel().catch(() => {});
  }
}

/** At most this many bytes of a file are read ahead of the engine by the reader thread. */
const READ_AHEAD_BYTES = 8 << 20;

/** How long the reader thread may take to start. */
const READER_START_MS = 5000;
/** The reader thread (reader.js), started on the first file read: a Worker, or null where none starts. */
let readerStarting = null;
function fileReader() {
  readerStarting ??= new Promise((resolve) => {
    let reader;
    try {
      reader = new Worker(new URL('./reader.js', import.meta.url), {type: 'module'});
    } catch {
      resolve(null);  // no nested workers, or another origin (a CDN's worker started from a blob:)
      return;
    }
    // One that has not started by then is given up, and this worker reads its files itself.
    const giveUp = setTimeout(() => fail(), READER_START_MS);
    reader.onmessage = ({data}) => {
      if (data !== 'ready') return;
      clearTimeout(giveUp);
      resolve(reader);
    };
    const fail = () => {
      clearTimeout(giveUp);
      reader.terminate();
      readerStarting = Promise.resolve(null);
      resolve(null);
      for (const stop of readsInFlight) stop('the file reader stopped');
    };
    reader.onerror = (e) => {
      e.preventDefault?.();
      fail();
    };
  });
  return readerStarting;
}
/** The reads the reader thread is serving: each one's stop(message). */
const readsInFlight = new Set();

/** Reads a File through the reader thread: its stream's chunks, read ahead on another thread. */
async function* readThroughReader(reader, file) {
  const {port1, port2} = new MessageChannel();
  const queue = [];
  let wake = null;
  const arrive = (message) => {
    queue.push(message);
    const w = wake;
    wake = null;
    w?.();
  };
  const stop = (error) => arrive({error});
  port1.onmessage = ({data}) => arrive(data);
  readsInFlight.add(stop);
  reader.postMessage({file, port: port2, window: READ_AHEAD_BYTES}, [port2]);
  let ended = false;
  try {
    for (;;) {
      while (!queue.length) await new Promise((resolve) => (wake = resolve));
      const message = queue.shift();
      if (message.done) {
        ended = true;
        return;
      }
      if (message.error !== undefined) {
        ended = true;
        throw new Error(message.error);
      }
      port1.postMessage({consumed: message.chunk.length});
      yield message.chunk;
    }
  } finally {
    readsInFlight.delete(stop);
    port1.onmessage = null;  // chunks still on their way are dropped
    // Left early: the reader stops its read and closes the channel from its end (closing it
    // here too could lose the cancel on its way).
    if (ended) port1.close();
    else port1.postMessage({cancel: true});
  }
}

/** Whether a file is read on the reader thread unless told otherwise (a part is told). */
const READ_AHEAD_DEFAULT = readAheadPays(1);

/**
 * Reads a File/Blob: through `reader` (the reader thread) when given, else as a stream here, or
 * in READ_CHUNK_BYTES slices where Blob.stream is missing.
 */
async function* readFile(file, reader) {
  if (typeof file.stream === 'function') {
    try {
      yield* reader ? readThroughReader(reader, file) : readFileStream(file);
    } catch (e) {
      if (e instanceof AbortError) throw e;
      throw await ioError(`The file "${file.name ?? 'file'}" could not be read: ${e?.message ?? e}`);
    }
    return;
  }
  for (let at = 0; at < file.size; at += READ_CHUNK_BYTES) {
    const piece = file.slice(at, Math.min(file.size, at + READ_CHUNK_BYTES));
    yield new Uint8Array(await piece.arrayBuffer());
  }
}

/**
 * Opens a source as the bytes the engine reads: {bytesTotal, chunks: AsyncIterable<Uint8Array>,
 * compressed: null | {bytesRead, bytesTotal}, readAhead}. A gzip source (its first bytes, not its
 * name) is decompressed on the way (gunzip.js); bytesTotal is then null and compressed counts its
 * bytes. readAhead (asked, and true in the answer when so): a file read by the reader thread.
 * A chunk is valid only until the next one is asked for (readFileStream reuses its buffer).
 */
async function openSource(kept, {readAhead = READ_AHEAD_DEFAULT} = {}) {
  const readsFile = kept.kind === SourceKind.FILE && typeof kept.file.stream === 'function';
  const reader = readsFile && readAhead ? await fileReader() : null;
  const opened = await gunzipIfCompressed(await openRaw(kept, reader), {name: kept.name ?? kept.kind, ioError});
  return {...opened, readAhead: reader !== null};
}

/** The source's own bytes: {bytesTotal, chunks}. */
async function openRaw(kept, reader) {
  switch (kept.kind) {
    case SourceKind.TEXT:
    case SourceKind.BYTES:
      return {bytesTotal: kept.bytes.length, chunks: sliceBytes(kept.bytes)};
    case SourceKind.FILE:
      return {bytesTotal: kept.file.size, chunks: readFile(kept.file, reader)};
    case SourceKind.URL: {
      let response;
      try {
        response = await fetch(kept.url);
      } catch (e) {
        throw await ioError(`${kept.url} could not be fetched: ${e?.message ?? e}`);
      }
      if (!response.ok) throw await ioError(`${kept.url} could not be fetched: HTTP ${response.status} ${response.statusText}`);
      const length = Number(response.headers.get('Content-Length'));
      const encoded = response.headers.get('Content-Encoding');
      const bytesTotal = Number.isFinite(length) && length > 0 && !encoded ? length : null;
      if (!response.body) {
        return {bytesTotal, chunks: sliceBytes(new Uint8Array(await response.arrayBuffer()))};
      }
      return {bytesTotal, chunks: readStream(response.body)};
    }
  }
  throw new TypeError(`unknown source kind ${kept.kind}`);
}

/** The options object handed to engine.newAnalysis (docs/report.md names, snake_case). */
function engineOptions({keyPaths, discoverItems, weightPath, synthetic}) {
  const options = {key_paths: keyPaths};
  if (Number.isInteger(discoverItems) && discoverItems >= -1) options.discover_items = discoverItems;
  if (typeof weightPath === 'string' && weightPath !== '') options.weight_path = weightPath;
  if (synthetic) options.synthetic = synthetic;
  return options;
}

/** The options of analysis.finish / analysis.model: container only when given (the old behaviour otherwise). */
function reportOptions({maxPartitions, container}) {
  const options = {maxPartitions: maxPartitions ?? DEFAULT_MAX_PARTITIONS};
  if (container) options.container = container;
  return options;
}

/** Posts a report as the result of request `id`, transferring partition_bytes' buffer. */
function postReport(id, report) {
  // Copy first if it is a view into a larger (wasm) buffer.
  let sizes = report.partition_bytes;
  if (sizes && (sizes.byteOffset !== 0 || sizes.buffer.byteLength !== sizes.byteLength)) {
    sizes = report.partition_bytes = sizes.slice();
  }
  const transfer = sizes?.buffer ? [sizes.buffer] : [];
  postMessage(result(id, report), transfer);
}

function model(id, {slot = DEFAULT_SLOT, container = null, maxPartitions}) {
  const entry = slots.get(slot);
  if (!entry) {
    throw errorPayload({codeName: ErrorCodeNames.NO_ANALYSIS,
                        message: `Nothing is analyzed in slot "${slot}" yet: analyze some data first.`});
  }
  if (typeof entry.analysis.model !== 'function') {
    throw errorPayload({codeName: ErrorCodeNames.BAD_REQUEST,
                        message: 'This engine build cannot re-model an analysis; rebuild it (make site).'});
  }
  const started = performance.now();
  const report = entry.analysis.model(reportOptions({maxPartitions, container}));
  const ms = performance.now() - started;
  report.source = entry.source;
  report.timing = {ms, bytesPerSecond: null};
  report.slot = slot;
  postReport(id, report);
}

/**
 * Streams a kept source into `target` (an engine Analysis or KeyComparison: feed, bytesConsumed,
 * itemsSeen), posting progress for request `id` at most every PROGRESS_INTERVAL_MS and letting
 * queued messages run between chunks; throws an AbortError once `job` is cancelled.
 */
async function feedSource(id, job, source, target, {readAhead} = {}) {
  const {bytesTotal, chunks, compressed, readAhead: readAheadUsed} = await openSource(source, {readAhead});
  let lastPost = performance.now();
  let bytesRead = 0;
  postMessage(progress(id, {bytesDone: 0, bytesTotal, items: 0, compressed: compressedProgress(compressed)}));
  for await (const chunk of chunks) {
    if (job.cancelled) throw new AbortError();
    target.feed(chunk);
    bytesRead += chunk.length;
    const now = performance.now();
    if (now - lastPost >= PROGRESS_INTERVAL_MS) {
      lastPost = now;
      postMessage(progress(id, {bytesDone: target.bytesConsumed, bytesTotal, items: target.itemsSeen,
                                compressed: compressedProgress(compressed)}));
      await yieldToEvents();
      if (job.cancelled) throw new AbortError();
    }
  }
  return {bytesRead, bytesTotal, compressed, readAhead: readAheadUsed};
}

/** A progress reply's `compressed` field: the compressed bytes read of the compressed total, or null. */
function compressedProgress(compressed) {
  return compressed ? {bytesDone: compressed.bytesRead, bytesTotal: compressed.bytesTotal} : null;
}

/** What was read, as a result's `source`: {kind, name, bytes (the engine's input), compressedBytes?}. */
function readSource(kept, bytesRead, compressed) {
  const source = {kind: kept.kind, name: kept.name ?? null, bytes: bytesRead};
  if (compressed) source.compressedBytes = compressed.bytesRead;
  return source;
}

async function analyze(id, kept, payload) {
  if (current) current.cancelled = true;
  const job = {id, cancelled: false};
  current = job;
  const slot = payload.slot ?? DEFAULT_SLOT;
  try {
    const {engine} = await engineFor('cosmos');
    if (job.cancelled) throw new AbortError();
    const started = performance.now();
    const analysis = engine.newAnalysis(engineOptions(payload));
    let finished = false;
    try {
      const {bytesRead, bytesTotal, compressed, readAhead} = await feedSource(id, job, kept, analysis);
      const report = analysis.finish(reportOptions(payload));
      const ms = performance.now() - started;
      postMessage(progress(id, {bytesDone: bytesRead, bytesTotal: bytesTotal ?? bytesRead, items: report.items,
                                compressed: compressedProgress(compressed)}));
      const source = readSource(kept, bytesRead, compressed);
      report.source = source;
      report.timing = {ms, bytesPerSecond: ms > 0 ? bytesRead / (ms / 1000) : null, read_ahead: readAhead};
      report.slot = slot;
      keepInSlot(slot, {analysis, source, keyPaths: report.key_paths ?? payload.keyPaths});
      finished = true;
      postReport(id, report);
    } catch (e) {
      noteFailure(e, Request.ANALYZE);
      throw e;
    } finally {
      // A broken module is not called again, not even to free memory.
      if (!finished && !dead) analysis.dispose();
    }
  } finally {
    if (current === job) current = null;
  }
}

// ---------------------------------------------------------------------------------------------
// Key comparison (protocol.js compare/recompare): every pinned key judged on the last source.

/** The finished comparison kept for recompare: {comparison, source}, or null. */
let keptComparison = null;
/** The compare in flight: {id, cancelled}. */
let compareJob = null;

/** The engine's comparison object plus the worker's source and timing. */
function comparisonResult(comparison, {container = {}, queries = []}, source, ms, bytesPerSecond) {
  const table = comparison.compare({container: container ?? {}, queries: queries ?? []});
  table.source = source;
  table.timing = {ms, bytesPerSecond};
  return table;
}

async function compareKeys(id, source, payload) {
  if (compareJob) compareJob.cancelled = true;
  const job = {id, cancelled: false};
  compareJob = job;
  try {
    const {engine} = await engineFor('cosmos');
    if (job.cancelled) throw new AbortError();
    const started = performance.now();
    const request = {keys: payload.keys};
    if (payload.weightPath) request.weight_path = payload.weightPath;
    const comparison = engine.newComparison(request);
    let finished = false;
    try {
      const {bytesRead, compressed} = await feedSource(id, job, source, comparison);
      comparison.finish();
      const ms = performance.now() - started;
      const read = readSource(source, bytesRead, compressed);
      const table = comparisonResult(comparison, payload, read, ms, ms > 0 ? bytesRead / (ms / 1000) : null);
      keptComparison?.comparison.dispose();
      keptComparison = {comparison, source: read};
      finished = true;
      return table;
    } catch (e) {
      noteFailure(e, Request.COMPARE);
      throw e;
    } finally {
      if (!finished && !dead) comparison.dispose();
    }
  } finally {
    if (compareJob === job) compareJob = null;
  }
}

function recompare(payload) {
  if (!keptComparison) {
    throw errorPayload({codeName: ErrorCodeNames.NO_ANALYSIS, message: 'No keys were compared yet: compare some keys first.'});
  }
  const started = performance.now();
  const table = keptComparison.comparison.compare({container: payload.container ?? {}, queries: payload.queries ?? []});
  table.source = keptComparison.source;
  table.timing = {ms: performance.now() - started, bytesPerSecond: null};
  return table;
}

/** heap: the wasm memory of each engine loaded here (its peak: wasm memory never shrinks). */
async function heapSizes() {
  const list = [];
  for (const [domain, loading] of engines) {
    const loaded = await loading.catch(() => null);
    if (loaded) list.push({domain, module: MODULES[domain], bytes: loaded.engine.heapBytes()});
  }
  return {engines: list, bytes: list.reduce((sum, e) => sum + e.bytes, 0)};
}

async function handle(message) {
  const {id, type, payload = {}} = message;
  const crash = self.crashNextRequestForTesting;
  if (crash) {
    // TEST ONLY (protocol.js "Engine failures"): this request breaks the engine on purpose.
    delete self.crashNextRequestForTesting;
    (await engineFor(domainOf(type))).engine.crashForTesting(crash);
  }
  switch (type) {
    case Request.INIT: {
      const {engine} = await engineFor(FIRST_DOMAIN);
      return {version: engine.version(), errorCodes: engine.errorCodes(), limits: engine.limits(),
              vocabulary: engine.vocabulary(), simd: engine.simd};
    }
    case Request.ANALYZE: {
      dropHeldPart();
      const kept = keepSource(payload.source);
      lastSource = kept;
      await analyze(id, kept, payload);
      return undefined; // analyze posts its own result (with a transfer list)
    }
    case Request.REANALYZE: {
      if (!lastSource) {
        throw errorPayload({codeName: ErrorCodeNames.NO_SOURCE, message: 'Nothing was analyzed yet: choose some data first.'});
      }
      await analyze(id, lastSource, payload);
      return undefined;
    }
    case Request.MODEL: {
      model(id, payload);
      return undefined; // model posts its own result (with a transfer list)
    }
    case Request.COMPARE: {
      if (!lastSource) {
        throw errorPayload({codeName: ErrorCodeNames.NO_SOURCE, message: 'Nothing was analyzed yet: choose some data first.'});
      }
      return compareKeys(id, lastSource, payload);
    }
    case Request.RECOMPARE:
      return recompare(payload);
    case Request.RELEASE:
      return {released: releaseSlot(payload.slot)};
    case Request.CANCEL: {
      const target = payload.target;
      if (current && (target === undefined || current.id === target)) {
        current.cancelled = true;
        return {cancelled: true};
      }
      if (compareJob && target !== undefined && compareJob.id === target) {
        compareJob.cancelled = true;
        return {cancelled: true};
      }
      if (cqlLoadJob && target !== undefined && cqlLoadJob.id === target) {
        cqlLoadJob.cancelled = true;
        return {cancelled: true};
      }
      return {cancelled: false};
    }
    case Request.HEAP:
      return heapSizes();
    case Request.CQL:
      return runCql(payload);
    case Request.RING:
      return configureRing(payload);
    case Request.CQL_VIEW:
      return buildView(await cqlSession(), payload);
    case Request.CQL_LOAD:
      return loadIntoTable(id, payload);
    case Request.CQL_RESET:
      return resetCql(payload);
    case Request.SIZE_TABLE:
      return sizeTable(payload);
    case Request.SIZING_TABLES:
      return (await engineFor('sizing')).engine.sizingTables(payload.cql);
    case Request.DATA_SIZING:
      return dataSizing(payload);
    case Request.SPLIT:
      return splitFile(payload);
    case Request.ANALYZE_PART:
      return analyzePart(id, payload);
    case Request.MERGE:
      await mergeParts(id, payload);
      return undefined;  // mergeParts posts its own result (with a transfer list)
  }
  throw new TypeError(`unknown request type ${type}`);
}

self.addEventListener('message', async (event) => {
  const message = event.data;
  const id = Number.isSafeInteger(message?.id) ? message.id : -1;
  try {
    validateRequest(message);
    if (dead) throw dead;
    const payload = await handle(message);
    if (payload !== undefined) postMessage(result(id, payload));
  } catch (e) {
    postMessage({id, type: Reply.ERROR, payload: noteFailure(e, message?.type) ? dead : toErrorPayload(e)});
  }
});

// A rejection nobody awaited (a bug, or a trap in a callback): the instance is not trusted again.
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  if (!noteFailure(event.reason, null)) {
    dead = errorPayload({codeName: ErrorCodeNames.ENGINE_FAILED,
                         message: `The engine stopped (${event.reason?.message ?? event.reason}).`});
  }
  postMessage({id: -1, type: Reply.ERROR, payload: dead});
});

// =============================================================================================
// Parts (protocol.js split, analyze-part, merge): a file cut among several workers by the client
// (client.js, pool.js). This worker answers where to cut, analyses the first part and holds it,
// then merges the other workers' partial states into the analysis it keeps; a pool worker
// analyses one later part and answers its partial state. The bytes go through feedSource.

/** The first part, analysed here and held for merge: {part, started}, or null. */
let heldPart = null;

function dropHeldPart() {
  if (heldPart && !dead) heldPart.part.dispose();
  heldPart = null;
}

async function splitFile({source, parts, minPartBytes = 1}) {
  const {engine} = await engineFor('cosmos');
  const {file} = source;
  const read = async (offset, length) => new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
  return {cuts: await engine.splitPoints({size: file.size, parts, minPartBytes, read})};
}

async function analyzePart(id, payload) {
  const {source, begin, end, first} = payload;
  if (current) current.cancelled = true;
  const job = {id, cancelled: false};
  current = job;
  if (first) {
    dropHeldPart();
    lastSource = keepSource(source);  // reanalyze and compare read the whole file
  }
  try {
    const {engine} = await engineFor('cosmos');
    if (job.cancelled) throw new AbortError();
    const started = performance.now();
    // idRecords false: its ids' hashes only (a merge that meets an id repeated across parts
    // fails, and the client has the parts analysed again with records).
    const part = engine.newAnalysisPart(engineOptions(payload), {first, idRecords: payload.idRecords === true});
    let held = false;
    try {
      const slice = {kind: SourceKind.FILE, name: source.name ?? null, file: source.file.slice(begin, end)};
      const {bytesRead, readAhead} = await feedSource(id, job, slice, part, {readAhead: payload.readAhead === true});
      if (first) {
        part.finish();
        heldPart = {part, started};
        held = true;
        return {bytes: bytesRead, items: part.itemsSeen, readAhead, heapBytes: (await heapSizes()).bytes};
      }
      const items = part.itemsSeen;
      const partial = part.finishPartial();
      // After the partial is written: this worker's peak (the client retires a large one).
      const heapBytes = (await heapSizes()).bytes;
      postMessage(result(id, {bytes: bytesRead, items, readAhead, partial: partial.buffer, heapBytes}), [partial.buffer]);
      return undefined;
    } catch (e) {
      noteFailure(e, Request.ANALYZE_PART);
      throw e;
    } finally {
      if (!held && !dead) part.dispose();
    }
  } finally {
    if (current === job) current = null;
  }
}

async function mergeParts(id, {partials, slot = DEFAULT_SLOT, maxPartitions, container}) {
  const {engine} = await engineFor('cosmos');
  const held = heldPart;
  heldPart = null;
  if (!held || !lastSource) {
    throw errorPayload({codeName: ErrorCodeNames.NO_ANALYSIS, message: 'No first part is held: analyse the parts again.'});
  }
  let analysis = null;
  let kept = false;
  try {
    analysis = engine.mergePartials([held.part, ...partials]);
    const report = analysis.finish(reportOptions({maxPartitions, container}));
    const heapBytes = (await heapSizes()).bytes;  // after the merge and report: this worker's peak
    const ms = performance.now() - held.started;
    const bytes = lastSource.file.size;
    const source = {kind: lastSource.kind, name: lastSource.name ?? null, bytes};
    report.source = source;
    report.timing = {ms, bytesPerSecond: ms > 0 ? bytes / (ms / 1000) : null, heap_bytes: heapBytes};
    report.slot = slot;
    keepInSlot(slot, {analysis, source, keyPaths: report.key_paths});
    kept = true;
    postReport(id, report);
  } catch (e) {
    noteFailure(e, Request.MERGE);
    throw e;
  } finally {
    if (!dead) {
      held.part.dispose();
      if (!kept) analysis?.dispose();
    }
  }
}

// =============================================================================================
// The CQL session of the Cassandra mode (protocol.js, "CQL requests"). One session for the page;
// its keyspaces and tables persist between requests until cql-reset.

/** The engine's CqlSession, created on first use. */
let cql = null;
/** The ring options in effect (the session starts with DEFAULT_RING). */
let ringOptions = {...DEFAULT_RING};
/** The table the last view showed ('ks.t'), kept when a later request names none. */
let viewTable = null;
/** The cql-load in flight: {id, cancelled}. */
let cqlLoadJob = null;

async function cqlSession() {
  const {engine} = await engineFor('cql');
  if (!cql) {
    if (typeof engine.createCqlSession !== 'function') {
      throw errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD,
                          message: 'This engine build has no CQL session; rebuild the site (make site).'});
    }
    cql = engine.createCqlSession();
    cql.configureRing(ringOptions);
  }
  return cql;
}

/** The CqlView of `table` (or of the first existing of `candidates`, the previous table, the first table). */
function buildView(session, {table, candidates = [], ru = COSMOS_DEFAULT_RU, maxPartitions = CQL_MAX_PARTITIONS} = {}) {
  const keyspaces = session.keyspaces();
  const tables = keyspaces.flatMap((k) => k.tables.map((t) => ({keyspace: k.name, name: `${k.name}.${t}`})));
  const chosen = [table, ...candidates, viewTable].map((t) => tables.find((e) => e.name === t)).find(Boolean) ??
    tables[0] ?? null;
  viewTable = chosen?.name ?? null;
  const keyspace = chosen?.keyspace ?? (session.currentKeyspace() || keyspaces[0]?.name || null);
  const ring = session.ring(keyspace ?? '');
  const layout = chosen
    ? session.tableLayout(chosen.name, {scan_partitions: CQL_SCAN_PARTITIONS, max_partitions: maxPartitions, ru_per_second: ru})
    : null;
  return {keyspaces, table: viewTable, keyspace, ringOptions: {...ringOptions}, ring, layout, cosmos: layout?.cosmos ?? null};
}

async function runCql({script, table, ru, maxPartitions, replicationFactor}) {
  const session = await cqlSession();
  session.overrideReplicationFactor(replicationFactor ?? 0);
  const started = performance.now();
  const {results} = session.execute(script);
  const ms = performance.now() - started;
  // The tables the statements touched, the last first.
  const candidates = results.map((r) => r.table).filter(Boolean).reverse();
  return {results, keyspace: session.currentKeyspace(), view: buildView(session, {table, candidates, ru, maxPartitions}),
          timing: {ms}};
}

async function configureRing({ring, table, ru, maxPartitions}) {
  const session = await cqlSession();
  const options = {...DEFAULT_RING, ...ring};
  if (!options.datacenters?.length) delete options.datacenters;
  session.configureRing(options);  // throws PartplayError bad_option; the old ring stays
  ringOptions = options;
  return buildView(session, {table, ru, maxPartitions});
}

async function resetCql({ru, maxPartitions}) {
  cql?.dispose();
  cql = null;
  viewTable = null;
  return buildView(await cqlSession(), {ru, maxPartitions});
}

/**
 * The options of CqlSession.startLoad for a cql-load payload: null for JSON (the engine's
 * default), {format: 'csv', header, delimiter, ...} for CSV (protocol.js CsvOptions, handed over
 * as they are: the engine checks them).
 */
function loadOptions({format, csv}) {
  if (format !== LoadFormat.CSV) return null;
  return {format: LoadFormat.CSV, ...(csv ?? {})};
}

async function loadIntoTable(id, {table, source, format, csv, ru, maxPartitions}) {
  const session = await cqlSession();
  if (cqlLoadJob) cqlLoadJob.cancelled = true;
  const job = {id, cancelled: false};
  cqlLoadJob = job;
  const started = performance.now();
  const kept = keepSource(source);
  const options = loadOptions({format, csv});
  const load = options ? session.startLoad(table, options) : session.startLoad(table);
  let finished = false;
  try {
    const {bytesTotal, chunks, compressed} = await openSource(kept);
    let bytesRead = 0;
    let lastPost = performance.now();
    const loadProgress = (bytesDone, total, counts) => progress(id, {
      bytesDone, bytesTotal: total, items: counts.rows, failed: counts.failed ?? 0,
      compressed: compressedProgress(compressed)});
    postMessage(loadProgress(0, bytesTotal, {rows: 0}));
    for await (const chunk of chunks) {
      if (job.cancelled) throw new AbortError();
      bytesRead += chunk.length;
      load.feed(chunk);
      const now = performance.now();
      if (now - lastPost >= PROGRESS_INTERVAL_MS) {
        lastPost = now;
        postMessage(loadProgress(load.bytesConsumed, bytesTotal, {rows: load.rows, failed: load.failed}));
        await yieldToEvents();
        if (job.cancelled) throw new AbortError();
      }
    }
    const done = load.finish();
    finished = true;
    const ms = performance.now() - started;
    postMessage(loadProgress(bytesRead, bytesTotal ?? bytesRead, done));
    return {rows: done.rows, failed: done.failed ?? 0, failures: done.failures ?? [], lines: done.lines ?? null,
            format: options ? LoadFormat.CSV : LoadFormat.JSON, source: readSource(kept, bytesRead, compressed),
            view: buildView(session, {table, ru, maxPartitions}),
            timing: {ms, bytesPerSecond: ms > 0 ? bytesRead / (ms / 1000) : null}};
  } catch (e) {
    if (noteFailure(e, Request.CQL_LOAD) || !options || !isEngineError(e)) throw e;
    // CSV that cannot be read on (an unterminated quote, a record over the limits, gzip that
    // breaks off): the load stops there, and the rows loaded and the failures listed before it
    // are part of the answer, with the error that stopped it.
    const ms = performance.now() - started;
    return {rows: load.rows, failed: load.failed ?? 0, failures: load.failures ?? [], lines: load.lines ?? null,
            format: LoadFormat.CSV, stopped: toErrorPayload(e), source: null,
            view: buildView(session, {table, ru, maxPartitions}), timing: {ms, bytesPerSecond: null}};
  } finally {
    if (!finished && !dead) load.cancel();
    if (cqlLoadJob === job) cqlLoadJob = null;
  }
}

/** An error value of the engine (PartplayError), not a cancel, a trap or a bug. */
function isEngineError(e) {
  return !!e && typeof e === 'object' && 'codeName' in e && e.codeName !== ErrorCodeNames.CANCELLED &&
    e.name !== 'AbortError';
}

// =============================================================================================
// Sizing (protocol.js, "Sizing requests"; docs/sizing.md): a CQL table from its schema and
// estimates, and the analysis kept in a slot measured as Cassandra partitions.

async function sizeTable({request}) {
  const {engine} = await engineFor('sizing');
  if (typeof engine.sizeTable !== 'function') {
    throw errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD,
                        message: 'This engine build cannot size tables; rebuild the site (make site).'});
  }
  return engine.sizeTable(request);
}

async function dataSizing({slot = DEFAULT_SLOT, valuesPerRow, maxExamples}) {
  await engineFor('cosmos');
  const entry = slots.get(slot);
  if (!entry) {
    throw errorPayload({codeName: ErrorCodeNames.NO_ANALYSIS,
                        message: `Nothing is analyzed in slot "${slot}" yet: analyze some data first.`});
  }
  const report = entry.analysis.dataSizing({valuesPerRow: valuesPerRow ?? null, maxExamples: maxExamples ?? 10});
  report.slot = slot;
  report.source = entry.source;
  report.key_paths = entry.keyPaths ?? [];
  return report;
}
