// A Promise-based client for the engine worker (web/worker.js, protocol in web/protocol.js).
//
//   const client = new PlaygroundClient();
//   const {version} = await client.ready;
//   const report = await client.analyze({source: {kind: 'text', text}, keyPaths: ['/userId'],
//                                        onProgress: ({bytesDone, bytesTotal, items}) => ...});
//   const again = await client.reanalyze({keyPaths: ['/address/city'], container: {ru_per_second: 18000}});
//   const fast = await client.model({container: {ru_per_second: 40000}});  // no re-read
//   const {results, view} = await client.cql({script: 'CREATE KEYSPACE ...; SELECT ...;'});
//   const view2 = await client.ring({ring: {nodes: 6, num_tokens: 16}});  // the Cassandra mode
//   const sized = await client.sizeTable({cql, table: 'hotel.rooms', rows_per_partition: '100*730'});
//   const measured = await client.dataSizing({slot: 'main'});   // the analysis above, as partitions
//
// Failures reject with a PlaygroundError (an Error with name, code, codeName, location).
//
// The client heals: when the engine fails (a wasm trap or abort, protocol.js "Engine failures")
// it terminates the worker, rejects what was in flight with codeName 'engine_failed' and a
// sentence saying what failed, starts a fresh worker and dispatches a 'restart' event
// ({detail: {error, restarts}}). The next request goes to the fresh worker; what the old one
// held (the CQL session, analyses, the source for reanalyze) is gone, which views listen for.
//
// Several workers (protocol.js "Parts"): a file source of at least PARTS_MIN_FILE_BYTES is
// analysed by `workers` workers at once — this worker and the pool's (pool.js) — cut at the
// engine's safe item boundaries, each analysing its slice, merged here into the analysis this
// worker keeps; the report is the one a single pass gives. One pass instead for text, bytes and
// URL sources, small files, files with no safe cut (a JSON array, gzip), a random-suffix
// synthetic key (it depends on each item's place in the whole input), and again when a part
// fails (so an error is exactly one pass's). `workers` defaults to the page URL's ?workers=N
// (a test hook), else min(navigator.hardwareConcurrency, MAX_WORKERS). A pool worker whose wasm
// heap grew past `retireHeapBytes` in its part is stopped once its partial state has arrived, so
// the merge does not run beside heaps that can never shrink; the next analysis starts a fresh one.
import {setLimits, setVocabulary} from '../common/limits.js';
import {WorkerPool} from './pool.js';
import {
  DEFAULT_MAX_PARTITIONS, ErrorCodeNames, Reply, Request, SourceKind, readAheadPays, validateContainer, validateKeyPaths,
  validateRequest, validateSlot, validateSource, validateSynthetic,
} from './protocol.js';

/** Most workers one analysis uses (each holds an engine and its own wasm heap). */
export const MAX_WORKERS = 4;
/** Smaller files are analysed in one pass (starting workers would cost more than it saves). */
export const PARTS_MIN_FILE_BYTES = 4 << 20;
/** No part is smaller than this. */
export const MIN_PART_BYTES = 1 << 20;
/** A pool worker whose wasm heap passed this in its part is retired (a fresh one costs ~0.1 s). */
export const RETIRE_HEAP_BYTES = 256 << 20;

/** The workers an analysis may use: ?workers=N in the page's URL, else the cores (capped). */
function defaultWorkers() {
  const asked = Number(new URLSearchParams(globalThis.location?.search ?? '').get('workers'));
  if (Number.isInteger(asked) && asked >= 1) return Math.min(asked, 16);
  return Math.max(1, Math.min(globalThis.navigator?.hardwareConcurrency ?? 1, MAX_WORKERS));
}

/** Whether the page's URL has ?simd=0: every worker then loads the engine built without wasm SIMD. */
export function pageAsksNoSimd() {
  return new URLSearchParams(globalThis.location?.search ?? '').get('simd') === '0';
}

/** The worker's URL, with simd=0 when the page asks for it (worker.js), as a browser without SIMD gets. */
function withPageSimd(url) {
  if (!pageAsksNoSimd()) return url;
  const href = new URL(url, document.baseURI ?? location.href);
  href.searchParams.set('simd', '0');
  return href;
}

/** Checks the optional analysis options (throws a TypeError). */
function validateOptions({slot, synthetic, container}) {
  validateSlot(slot);
  validateSynthetic(synthetic);
  validateContainer(container);
}

/** The payload without its undefined fields (they would cross as undefined anyway; this keeps it tidy). */
function clean(payload) {
  return Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined));
}

/** An error from the worker or the engine, with the protocol's ErrorPayload fields. */
export class PlaygroundError extends Error {
  constructor({name = 'PlaygroundError', code = null, codeName = 'unknown', message, location = null, field = null}) {
    super(message);
    this.name = name;
    this.code = code;
    this.codeName = codeName;
    this.location = location ?? null;
    /** The request field the error is about, as a JSON pointer, or null. */
    this.field = field ?? null;
  }
  get cancelled() { return this.codeName === 'cancelled'; }
}

/**
 * A module worker from `url`. Browsers start no worker from another origin, so when the files
 * come from a CDN the worker is a same-origin blob: module that imports the real one (the host
 * of the files must send CORS headers; README "Embedding from another origin").
 */
function startModuleWorker(url) {
  const href = new URL(url, document.baseURI ?? location.href);
  if (href.origin === location.origin) return new Worker(href, {type: 'module'});
  const blob = new Blob([`import ${JSON.stringify(href.href)};\n`], {type: 'text/javascript'});
  const blobUrl = URL.createObjectURL(blob);
  const worker = new Worker(blobUrl, {type: 'module'});
  worker.crossOrigin = href.origin;
  // The blob is read once the worker starts; it is not needed after its first message.
  worker.addEventListener('message', () => URL.revokeObjectURL(blobUrl), {once: true});
  return worker;
}

export class PlaygroundClient extends EventTarget {
  #workerUrl;
  #worker = null;
  #nextId = 1;
  #pending = new Map();
  #broken = null;
  /** Whether the current worker answered init (a failure before that is a load failure: no restart). */
  #started = false;
  /** Fresh workers started after an engine failure. */
  restarts = 0;
  /** Workers an analysis of a file may use (this one and workers - 1 of the pool). */
  workers;
  /** The extra workers, started on the first analysis in parts. */
  #pool;
  /** A pool worker whose heap passed this after its part is stopped (RETIRE_HEAP_BYTES). */
  #retireHeapBytes;
  /** The analysis in parts in flight: {id, cancelled, stop()}, or null. */
  #partsJob = null;
  /** The last analyze's source when it is a file (reanalyze cuts it again), else null. */
  #lastFile = null;

  /** @param {{workerUrl?: string|URL, workers?: number, retireHeapBytes?: number}} [options] */
  constructor({workerUrl, workers, retireHeapBytes} = {}) {
    super();
    this.#workerUrl = withPageSimd(workerUrl ?? new URL('./worker.js', import.meta.url));
    this.workers = Number.isInteger(workers) && workers >= 1 ? workers : defaultWorkers();
    this.#retireHeapBytes = Number.isFinite(retireHeapBytes) && retireHeapBytes >= 0 ? retireHeapBytes : RETIRE_HEAP_BYTES;
    this.#pool = new WorkerPool(() => startModuleWorker(this.#workerUrl));
    this.#startWorker();
  }

  /** Starts a worker; `ready` resolves to {version, errorCodes, limits} once its engine is loaded. */
  #startWorker() {
    const worker = startModuleWorker(this.#workerUrl);
    this.#worker = worker;
    this.#started = false;
    worker.addEventListener('message', (event) => {
      if (worker === this.#worker) this.#onMessage(event.data);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      if (worker !== this.#worker) return;
      const detail = event.message ? `: ${event.message}` : '';
      if (!this.#started) {
        // From another origin the usual cause is a host that sends no CORS headers: say so.
        const cors = worker.crossOrigin
          ? ` Its files come from ${worker.crossOrigin}, which must send Access-Control-Allow-Origin for pages of ` +
            `${location.origin} (README "Embedding from another origin").`
          : '';
        this.#fail(new PlaygroundError({codeName: 'worker_failed', message: `The engine worker failed to start${detail}.${cors}`}));
        return;
      }
      this.#restart(new PlaygroundError({codeName: ErrorCodeNames.ENGINE_FAILED,
                                         message: `The engine worker stopped${detail}.`}));
    });
    worker.addEventListener('messageerror', () => {
      if (worker !== this.#worker) return;
      this.#fail(new PlaygroundError({codeName: 'worker_failed', message: 'A worker message could not be read.'}));
    });
    this.ready = this.#call(Request.INIT, {}).then((info) => {
      if (worker === this.#worker) this.#started = true;
      this.version = info.version;
      this.simd = info.simd;
      this.errorCodes = info.errorCodes;
      this.limits = info.limits;
      setLimits(info.limits);
      setVocabulary(info.vocabulary);
      return info;
    });
    // A restart's `ready` may be awaited by nobody; its failure reaches the requests themselves.
    this.ready.catch(() => {});
  }

  /** Replaces a worker whose engine failed; every request in flight rejects with `error`. */
  #restart(cause) {
    // A worker that fails before its engine ever answered would fail again: no restart loop.
    if (!this.#started) {
      this.#worker.terminate();
      this.#fail(new PlaygroundError({...cause, message: cause.message}));
      return;
    }
    const error = new PlaygroundError({...cause, codeName: ErrorCodeNames.ENGINE_FAILED,
                                       message: `${cause.message} It has been restarted.`});
    this.#worker.terminate();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.restarts++;
    this.#lastFile = null;
    this.#startWorker();
    for (const {reject} of pending) reject(error);
    this.dispatchEvent(new CustomEvent('restart', {detail: {error, restarts: this.restarts}}));
  }

  /** The id of the analyze/reanalyze in flight, or null. */
  get busyId() {
    if (this.#partsJob) return this.#partsJob.id;
    for (const [id, entry] of this.#pending) {
      if (entry.type === Request.ANALYZE || entry.type === Request.REANALYZE) return id;
    }
    return null;
  }

  #fail(error) {
    this.#broken = error;
    for (const {reject} of this.#pending.values()) reject(error);
    this.#pending.clear();
  }

  #onMessage(message) {
    // An engine failure outside any request (id -1) still means the worker must go.
    if (message?.type === Reply.ERROR && message.payload?.codeName === ErrorCodeNames.ENGINE_FAILED) {
      this.#restart(message.payload);
      return;
    }
    const entry = this.#pending.get(message?.id);
    if (!entry) return; // a reply to something we stopped waiting for
    switch (message.type) {
      case Reply.PROGRESS:
        entry.onProgress?.(message.payload);
        return;
      case Reply.RESULT:
        this.#pending.delete(message.id);
        entry.resolve(message.payload);
        return;
      case Reply.ERROR:
        this.#pending.delete(message.id);
        entry.reject(new PlaygroundError(message.payload));
        return;
    }
  }

  #call(type, payload, options) {
    return this.#send(type, payload, options).promise;
  }

  /** Sends a request to this worker: {id, promise}. */
  #send(type, payload, {onProgress, transfer = [], signal} = {}) {
    const id = this.#nextId++;
    if (this.#broken) return {id, promise: Promise.reject(this.#broken)};
    const promise = new Promise((resolve, reject) => {
      this.#pending.set(id, {type, resolve, reject, onProgress});
      if (signal) {
        if (signal.aborted) this.cancel(id);
        else signal.addEventListener('abort', () => this.cancel(id), {once: true});
      }
      try {
        this.#worker.postMessage({id, type, payload}, transfer);
      } catch (e) {
        this.#pending.delete(id);
        reject(new PlaygroundError({codeName: 'bad_request', message: e.message}));
      }
    });
    return {id, promise};
  }

  /**
   * Analyzes a source (protocol.js: text, bytes, file or url). A bytes source's buffer is
   * transferred to the worker (it becomes unusable here). Starting an analysis cancels the one in
   * flight, whose promise rejects with codeName 'cancelled'. Options (protocol.js, analyze):
   * slot, weightPath, synthetic, container.
   */
  analyze({source, keyPaths, discoverItems, maxPartitions = DEFAULT_MAX_PARTITIONS, slot, weightPath, synthetic,
           container, onProgress, signal}) {
    try {
      validateSource(source);
      validateKeyPaths(keyPaths);
      validateOptions({slot, synthetic, container});
    } catch (e) {
      return Promise.reject(new PlaygroundError({codeName: 'bad_request', message: e.message}));
    }
    this.#stopParts();
    this.#lastFile = source.kind === SourceKind.FILE ? source : null;
    const request = {source, keyPaths, discoverItems, maxPartitions, slot, weightPath, synthetic, container};
    if (this.#inParts(source, synthetic)) return this.#analyzeInParts(request, {onProgress, signal});
    return this.#onePass(request, {onProgress, signal});
  }

  /** analyze in this worker alone. */
  #onePass(request, {onProgress, signal}) {
    const transfer = request.source.kind === SourceKind.BYTES ? [request.source.buffer] : [];
    return this.#call(Request.ANALYZE, clean(request), {onProgress, transfer, signal});
  }

  /** Whether `source` is analysed by several workers (see the top of this file). */
  #inParts(source, synthetic) {
    return this.workers > 1 && source.kind === SourceKind.FILE && source.file.size >= PARTS_MIN_FILE_BYTES &&
      synthetic?.kind !== 'random_suffix';
  }

  /** Cancels the analysis in parts in flight (its promise rejects with 'cancelled'). */
  #stopParts() {
    this.#partsJob?.stop();
  }

  /**
   * The file cut by the engine (split), each part analysed by one worker (analyze-part: the
   * first here, held; the others in the pool, answering their partial states), then merged here
   * (merge). Progress sums the parts'. A failed part: the whole file in one pass. Parts keep
   * their ids' hashes only, then (an id repeated across them) again with records.
   */
  async #analyzeInParts(request, {onProgress, signal}) {
    const {source, keyPaths, discoverItems, weightPath, synthetic, slot, maxPartitions, container} = request;
    const file = source.file;
    const running = [];  // {cancel()} of each request in flight
    const job = {id: this.#nextId++, cancelled: false, userCancelled: false};
    job.stop = (byUser = true) => {
      job.cancelled = true;
      job.userCancelled ||= byUser;
      for (const r of running) r.cancel();
    };
    this.#partsJob = job;
    const onAbort = () => job.stop();
    signal?.addEventListener('abort', onAbort, {once: true});
    const cancelled = () => new PlaygroundError({name: 'AbortError', codeName: ErrorCodeNames.CANCELLED,
                                                 message: 'The analysis was cancelled.'});
    const track = ({id, promise}, cancel) => {
      const entry = {cancel: () => cancel(id)};
      running.push(entry);
      return promise.finally(() => running.splice(running.indexOf(entry), 1));
    };
    const here = (type, payload, options) => track(this.#send(type, payload, options), (id) => this.cancel(id));
    try {
      if (signal?.aborted) throw cancelled();
      this.#pool.warm(this.workers - 1);
      const started = performance.now();
      const {cuts} = await here(Request.SPLIT, {source, parts: this.workers, minPartBytes: MIN_PART_BYTES});
      const split = performance.now();
      if (job.cancelled) throw cancelled();
      if (cuts.length === 0) return await this.#onePassOf(job, request, onProgress);
      const edges = [0, ...cuts, file.size];
      const options = clean({keyPaths, discoverItems, weightPath, synthetic});
      // A part's file is read ahead on a thread of its own only where a core is left for it.
      const readAhead = readAheadPays(edges.length - 1);
      // The parts keep their ids' hashes only; a merge that meets an id repeated across parts
      // (which they then cannot name) fails with bad_partial, and they are analysed again with
      // records (protocol.js "Parts").
      for (let idRecords = false; ; idRecords = true) {
        const round = performance.now();
        const done = edges.slice(1).map(() => ({bytesDone: 0, items: 0}));
        const tell = () => onProgress?.({bytesDone: done.reduce((a, p) => a + p.bytesDone, 0), bytesTotal: file.size,
                                         items: done.reduce((a, p) => a + p.items, 0)});
        const parts = edges.slice(0, -1).map((begin, k) => {
          const payload = {source, begin, end: edges[k + 1], first: k === 0, idRecords, readAhead, ...options};
          const progress = (p) => {
            done[k] = {bytesDone: p.bytesDone, items: p.items};
            tell();
          };
          const finished = (r) => ({...r, ms: performance.now() - round});
          if (k === 0) return here(Request.ANALYZE_PART, payload, {onProgress: progress}).then(finished);
          const call = this.#pool.call(k - 1, Request.ANALYZE_PART, payload, {onProgress: progress});
          return track({id: call.id, promise: call.promise.catch((e) => Promise.reject(new PlaygroundError(e)))},
                       (id) => this.#pool.cancel(k - 1, id)).then((r) => {
            // Its partial state is here: a grown heap goes now, before the merge needs memory.
            const retired = r.heapBytes > this.#retireHeapBytes && this.#pool.retire(k - 1);
            return {...finished(r), retired};
          });
        });
        let results;
        try {
          results = await Promise.all(parts);
        } catch (e) {
          job.stop(false);
          await Promise.allSettled(parts);
          if (job.userCancelled || e.cancelled || e.codeName === ErrorCodeNames.ENGINE_FAILED) throw e;
          // Bad data in a part (or a worker that did not start): one pass gives the exact error.
          return await this.#onePassOf(job, request, onProgress);
        }
        if (job.cancelled) throw cancelled();
        results.forEach((r, k) => { done[k] = {bytesDone: r.bytes, items: r.items}; });
        tell();
        const partials = results.slice(1).map((r) => r.partial);
        try {
          const merging = performance.now();
          const partialBytes = partials.map((b) => b.byteLength);  // before the transfer empties them
          const report = await here(Request.MERGE, clean({partials, slot, maxPartitions, container}), {transfer: partials});
          // Where a parted analysis spends its time: the split, each part (from the round's start
          // to its answer, partial state included), the merge and report (the benchmark prints
          // them), whether the parts were analysed again with id records and read ahead. The
          // heaps: each worker's after its part (a peak: wasm memory never shrinks), this
          // worker's after the merge, and the most they held at once (all parts at their end, or
          // the merge beside the pool workers that were kept).
          const partHeaps = results.map((r) => r.heapBytes);
          const kept = results.slice(1).filter((r) => !r.retired).reduce((sum, r) => sum + r.heapBytes, 0);
          Object.assign(report.timing, {
            workers: edges.length - 1, split_ms: split - started, part_ms: results.map((r) => r.ms),
            partial_bytes: partialBytes, merge_ms: performance.now() - merging, id_records: idRecords,
            read_ahead: results.every((r) => r.readAhead === true),
            part_heap_bytes: partHeaps, retired_workers: results.filter((r) => r.retired).length,
            heap_peak_bytes: Math.max(partHeaps.reduce((a, b) => a + b, 0), report.timing.heap_bytes + kept),
          });
          return report;
        } catch (e) {
          if (job.userCancelled || e.cancelled || e.codeName === ErrorCodeNames.ENGINE_FAILED) throw e;
          if (!idRecords && e.codeName === 'bad_partial') continue;  // an id repeated across parts
          return await this.#onePassOf(job, request, onProgress);
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.#partsJob === job) this.#partsJob = null;
    }
  }

  /** The job's file in one pass (still cancellable as the job). */
  async #onePassOf(job, request, onProgress) {
    if (job.userCancelled) {
      throw new PlaygroundError({name: 'AbortError', codeName: ErrorCodeNames.CANCELLED, message: 'The analysis was cancelled.'});
    }
    job.cancelled = false;
    const sent = this.#send(Request.ANALYZE, clean(request), {onProgress});
    job.stop = () => {
      job.cancelled = job.userCancelled = true;
      this.cancel(sent.id);
    };
    return sent.promise;
  }

  /** Analyzes the last source again with other key paths or options. */
  reanalyze({keyPaths, discoverItems, maxPartitions = DEFAULT_MAX_PARTITIONS, slot, weightPath, synthetic, container,
             onProgress, signal}) {
    try {
      validateKeyPaths(keyPaths);
      validateOptions({slot, synthetic, container});
    } catch (e) {
      return Promise.reject(new PlaygroundError({codeName: 'bad_request', message: e.message}));
    }
    this.#stopParts();
    if (this.#lastFile && this.#inParts(this.#lastFile, synthetic)) {
      return this.#analyzeInParts({source: this.#lastFile, keyPaths, discoverItems, maxPartitions, slot, weightPath,
                                   synthetic, container}, {onProgress, signal});
    }
    return this.#call(Request.REANALYZE,
                      clean({keyPaths, discoverItems, maxPartitions, slot, weightPath, synthetic, container}),
                      {onProgress, signal});
  }

  /**
   * Re-reports the finished analysis in `slot` with other container options, without reading
   * the data again (protocol.js, model). Resolves to a Report.
   */
  model({slot, container = null, maxPartitions = DEFAULT_MAX_PARTITIONS} = {}) {
    try {
      validateOptions({slot, container});
    } catch (e) {
      return Promise.reject(new PlaygroundError({codeName: 'bad_request', message: e.message}));
    }
    return this.#call(Request.MODEL, clean({slot, container, maxPartitions}));
  }

  /**
   * Judges several keys on the last analyzed source (protocol.js compare). `keys` are the engine's
   * analysis options ({key_paths, synthetic?}); resolves to the Comparison. `signal` cancels it.
   */
  compare({keys, container, queries, weightPath, onProgress, signal}) {
    return this.#checked(Request.COMPARE, clean({keys, container, queries, weightPath}), {onProgress, signal});
  }

  /** The kept comparison under other container options or queries, without reading again. */
  recompare({container, queries} = {}) {
    return this.#checked(Request.RECOMPARE, clean({container, queries}));
  }

  // -------------------------------------------------------------------------------------------
  // The CQL session (protocol.js, "CQL requests"). Statement failures are results, not rejections.

  /** Runs a CQL script. Resolves to {results, keyspace, view: CqlView, timing}. */
  cql({script, table, ru, maxPartitions, replicationFactor}) {
    return this.#checked(Request.CQL, {script, table, ru, maxPartitions, replicationFactor});
  }

  /** Replaces the ring (RingOptions). Resolves to a CqlView. */
  ring({ring, table, ru, maxPartitions}) {
    return this.#checked(Request.RING, {ring, table, ru, maxPartitions});
  }

  /** The view of a table (or with another Cosmos DB RU/s). Resolves to a CqlView. */
  cqlView({table, ru, maxPartitions} = {}) {
    return this.#checked(Request.CQL_VIEW, {table, ru, maxPartitions});
  }

  /**
   * Loads rows from a source (protocol.js Source, gzip or not) into `table`: JSON objects, or CSV
   * with format 'csv' and `csv` options (protocol.js CsvOptions). Resolves to {rows, failed,
   * failures, lines, format, source, view, timing}; progress {bytesDone, bytesTotal, items: rows
   * so far, failed, compressed}. `signal` cancels it.
   */
  cqlLoad({table, source, format, csv, ru, maxPartitions, onProgress, signal}) {
    const transfer = source?.kind === SourceKind.BYTES ? [source.buffer] : [];
    return this.#checked(Request.CQL_LOAD, clean({table, source, format, csv, ru, maxPartitions}),
                         {onProgress, transfer, signal});
  }

  /** A fresh CQL session (the ring stays). Resolves to a CqlView. */
  cqlReset({ru, maxPartitions} = {}) {
    return this.#checked(Request.CQL_RESET, {ru, maxPartitions});
  }

  // -------------------------------------------------------------------------------------------
  // Sizing (protocol.js, "Sizing requests"; docs/sizing.md).

  /** Sizes a CQL table from its schema and estimates (docs/sizing.md "Request"). Resolves to the report. */
  sizeTable(request) {
    return this.#checked(Request.SIZE_TABLE, {request});
  }

  /** The tables a schema script creates, with the columns that need an average size. */
  sizingTables(cql) {
    return this.#checked(Request.SIZING_TABLES, {cql});
  }

  /** The engine's limit `id` (core/limits.h), e.g. 'cosmos_logical_partition_bytes'. */
  limit(id) {
    const found = this.limits?.find((l) => l.id === id);
    if (!found) throw new Error(`the engine has no limit ${id}`);
    return found;
  }

  /**
   * Measures the finished analysis in `slot` (default 'main') as Cassandra partitions: Nr, Nv, St
   * distributions, histograms and thresholds, plus {slot, source, key_paths}.
   */
  dataSizing({slot, valuesPerRow, maxExamples} = {}) {
    return this.#checked(Request.DATA_SIZING, {slot, valuesPerRow, maxExamples});
  }

  /** Validates a request here (a bad payload rejects at once, codeName 'bad_request') and sends it. */
  #checked(type, payload, options) {
    const message = {id: 0, type, payload: clean(payload)};
    try {
      validateRequest(message);
    } catch (e) {
      return Promise.reject(new PlaygroundError({codeName: 'bad_request', message: e.message}));
    }
    return this.#call(type, message.payload, options);
  }

  /**
   * The wasm memory of every engine of this client (protocol.js heap): this worker's and each
   * running pool worker's, each its peak (wasm memory never shrinks). Resolves to
   * {workers: [{worker: 'page' | 'pool', index, engines: [{domain, module, bytes}], bytes}], bytes}
   * (index: the pool worker's, null for this one; bytes: the sum). For measurements.
   */
  async heap() {
    const pool = this.#pool.callEach(Request.HEAP);
    const [page, ...others] = await Promise.all([
      this.#call(Request.HEAP, {}),
      ...pool.map(({promise}) => promise.catch((e) => Promise.reject(new PlaygroundError(e)))),
    ]);
    const workers = [{worker: 'page', index: null, ...page},
                     ...others.map((sizes, k) => ({worker: 'pool', index: pool[k].index, ...sizes}))];
    return {workers, bytes: workers.reduce((sum, w) => sum + w.bytes, 0)};
  }

  /** Frees the analysis the worker keeps in `slot`. Resolves to {released}. */
  release(slot) {
    return this.#call(Request.RELEASE, {slot});
  }

  /** Cancels the analysis `target` (default: whichever is in flight). Resolves to {cancelled}. */
  cancel(target) {
    const job = this.#partsJob;
    if (job && (target === undefined || target === job.id)) {
      job.stop();
      return Promise.resolve({cancelled: true});
    }
    return this.#call(Request.CANCEL, target === undefined ? {} : {target});
  }

  terminate() {
    this.#pool.terminate({codeName: 'terminated', message: 'The client was terminated.'});
    this.#worker.terminate();
    this.#fail(new PlaygroundError({codeName: 'terminated', message: 'The client was terminated.'}));
  }
}
