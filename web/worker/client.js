// A Promise-based client for the engine worker (worker.js). Its methods are the protocol table's
// (protocol.js REQUESTS, each entry's `client`): most are built from the table below the class
// (validate the payload's shape, send, resolve with the result); analyze, reanalyze, heap and
// cancel are written here, as they do more than send one request.
//
//   const client = new PlaygroundClient();
//   const {version} = await client.ready;
//   const report = await client.analyze({source: {kind: 'text', text}, keyPaths: ['/userId'],
//                                        onProgress: ({bytesDone, bytesTotal, items}) => ...});
//   const fast = await client.model({container: {ru_per_second: 40000}});  // no re-read
//   const {results, view} = await client.cql({script: 'CREATE KEYSPACE ...; SELECT ...;'});
//
// Failures reject with a PartplayError (web/common/errors.js; PlaygroundError is the same class).
// The client heals: when the engine fails (a wasm trap or abort) it terminates the worker,
// rejects what was in flight with codeName 'engine_failed', starts a fresh worker and dispatches
// a 'restart' event ({detail: {error, restarts}}); what the old worker held is gone.
//
// Several workers (protocol.js split, analyze-part, merge): for a file the client asks the
// engine's plan (split: ingest/parts_plan.h) and cuts; with cuts, each part is analysed by one
// worker (this one and the pool's, pool.js), and merged here into the analysis this worker keeps,
// the report one pass gives. A part or merge that fails says what next (its error's `retry`, the
// engine's RetryParts): again with id records, or the file in one pass here. `workers` asks for a
// number of workers (the page URL's ?workers=N, a test hook); otherwise the engine decides from
// navigator.hardwareConcurrency. A pool worker whose heap passed the plan's retire_heap_bytes (or
// the `retireHeapBytes` option) in its part is stopped once its partial state has arrived.
import {ErrorCodeNames, PartplayError, setErrorCodes} from '../common/errors.js';
import {setLimits, setVocabulary} from '../common/limits.js';
import {REQUESTS, Reply, Request, SourceKind, requestEntry, validateRequest} from './protocol.js';

export {PartplayError as PlaygroundError};

/** Workers asked for in the page's URL (?workers=N, a test hook), or null. */
function askedWorkers() {
  const asked = Number(new URLSearchParams(globalThis.location?.search ?? '').get('workers'));
  return Number.isInteger(asked) && asked >= 1 ? asked : null;
}

/** Whether the page's URL has ?simd=0: every worker then loads the engine built without wasm SIMD. */
export function pageAsksNoSimd() {
  return new URLSearchParams(globalThis.location?.search ?? '').get('simd') === '0';
}

/** The worker's URL, with simd=0 when the page asks for it (engines.js), as a browser without SIMD gets. */
function withPageSimd(url) {
  if (!pageAsksNoSimd()) return url;
  const href = new URL(url, document.baseURI ?? location.href);
  href.searchParams.set('simd', '0');
  return href;
}

/** The payload fields of request `type` in `fields`, without undefined ones. */
function payloadOf(type, fields) {
  const names = Object.keys(requestEntry(type).payload);
  return Object.fromEntries(names.filter((n) => fields[n] !== undefined).map((n) => [n, fields[n]]));
}

const cancelledError = () => new PartplayError({codeName: ErrorCodeNames.CANCELLED, message: 'The analysis was cancelled.'});

/**
 * A module worker from `url`. Browsers start no worker from another origin, so when the files
 * come from a CDN the worker is a same-origin blob: module that imports the real one (the host
 * of the files must send CORS headers; docs/embedding.md "From another origin").
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
  /** Workers asked for an analysis of a file, or null: the engine's plan decides. */
  workers;
  /** The extra workers, started on the first analysis in parts. */
  #pool;
  /** A pool worker whose heap passed this after its part is stopped; null: the plan's. */
  #retireHeapBytes;
  /** The analysis of a file in flight: {id, cancelled, stop()}, or null. */
  #partsJob = null;
  /** The last analyze's source when it is a file (reanalyze cuts it again), else null. */
  #lastFile = null;

  /** @param {{workerUrl?: string|URL, workers?: number, retireHeapBytes?: number}} [options] */
  constructor({workerUrl, workers, retireHeapBytes} = {}) {
    super();
    this.#workerUrl = withPageSimd(workerUrl ?? new URL('./worker.js', import.meta.url));
    this.workers = Number.isInteger(workers) && workers >= 1 ? workers : askedWorkers();
    this.#retireHeapBytes = Number.isFinite(retireHeapBytes) && retireHeapBytes >= 0 ? retireHeapBytes : null;
    this.#pool = null;  // pool.js, imported with the first analysis in parts (#poolOf)
    this.#startWorker();
  }

  /** Starts a worker; `ready` resolves to the init result once its engine is loaded. */
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
            `${location.origin} (docs/embedding.md "From another origin").`
          : '';
        this.#fail(new PartplayError({codeName: ErrorCodeNames.ENGINE_LOAD,
                                      message: `The engine worker failed to start${detail}.${cors}`}));
        return;
      }
      this.#restart(new PartplayError({codeName: ErrorCodeNames.ENGINE_FAILED, message: `The engine worker stopped${detail}.`}));
    });
    worker.addEventListener('messageerror', () => {
      if (worker !== this.#worker) return;
      this.#fail(new PartplayError({codeName: ErrorCodeNames.BAD_REQUEST, message: 'A worker message could not be read.'}));
    });
    this.ready = this.#call(Request.INIT, {}).then((info) => {
      if (worker === this.#worker) this.#started = true;
      this.version = info.version;
      this.simd = info.simd;
      this.errorCodes = info.errorCodes;
      this.limits = info.limits;
      setErrorCodes(info.errorCodes);
      setLimits(info.limits);
      setVocabulary(info.vocabulary);
      return info;
    });
    // A restart's `ready` may be awaited by nobody; its failure reaches the requests themselves.
    this.ready.catch(() => {});
  }

  /** Replaces a worker whose engine failed; every request in flight rejects with `cause`. */
  #restart(cause) {
    // A worker that fails before its engine ever answered would fail again: no restart loop.
    if (!this.#started) {
      this.#worker.terminate();
      this.#fail(PartplayError.from(cause));
      return;
    }
    const error = new PartplayError({...PartplayError.from(cause).toJSON(), codeName: ErrorCodeNames.ENGINE_FAILED,
                                     code: null, message: `${cause.message} It has been restarted.`});
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
        entry.reject(new PartplayError(message.payload));
    }
  }

  #call(type, payload, options) {
    return this.#send(type, payload, options).promise;
  }

  /** Sends a request to this worker (its transfer list from the table): {id, promise}. */
  #send(type, payload, {onProgress, signal} = {}) {
    const id = this.#nextId++;
    if (this.#broken) return {id, promise: Promise.reject(this.#broken)};
    const promise = new Promise((resolve, reject) => {
      this.#pending.set(id, {type, resolve, reject, onProgress});
      if (signal) {
        if (signal.aborted) this.cancel(id);
        else signal.addEventListener('abort', () => this.cancel(id), {once: true});
      }
      try {
        this.#worker.postMessage({id, type, payload}, requestEntry(type).transfer?.request?.(payload) ?? []);
      } catch (e) {
        this.#pending.delete(id);
        reject(new PartplayError({codeName: ErrorCodeNames.BAD_REQUEST, message: e.message}));
      }
    });
    return {id, promise};
  }

  /** The shape error of request `type` with `payload` as a rejected promise, or null when well-formed. */
  #invalid(type, payload) {
    try {
      validateRequest({id: 0, type, payload});
      return null;
    } catch (e) {
      return Promise.reject(new PartplayError({codeName: ErrorCodeNames.BAD_REQUEST, message: e.message}));
    }
  }

  /**
   * Sends request `type` with the payload fields of `fields` (protocol.js REQUESTS), checked here
   * first (a bad shape rejects at once with bad_request). What the built methods call.
   */
  request(type, fields = {}, {onProgress, signal} = {}) {
    const payload = payloadOf(type, fields);
    return this.#invalid(type, payload) ?? this.#call(type, payload, {onProgress, signal});
  }

  /**
   * Analyzes a source (protocol.js analyze). A bytes source's buffer is transferred to the worker.
   * Starting an analysis cancels the one in flight, whose promise rejects with codeName 'cancelled'.
   */
  analyze({onProgress, signal, ...fields}) {
    const request = payloadOf(Request.ANALYZE, fields);
    const invalid = this.#invalid(Request.ANALYZE, request);
    if (invalid) return invalid;
    this.#stopParts();
    this.#lastFile = request.source.kind === SourceKind.FILE ? request.source : null;
    if (this.#lastFile) return this.#analyzeFile(request, {onProgress, signal});
    return this.#call(Request.ANALYZE, request, {onProgress, signal});
  }

  /** Analyzes the last source again with other key paths or options (protocol.js reanalyze). */
  reanalyze({onProgress, signal, ...fields}) {
    const request = payloadOf(Request.REANALYZE, fields);
    const invalid = this.#invalid(Request.REANALYZE, request);
    if (invalid) return invalid;
    this.#stopParts();
    if (this.#lastFile) return this.#analyzeFile({source: this.#lastFile, ...request}, {onProgress, signal});
    return this.#call(Request.REANALYZE, request, {onProgress, signal});
  }

  /** Cancels the analysis in parts in flight (its promise rejects with 'cancelled'). */
  #stopParts() {
    this.#partsJob?.stop();
  }

  /**
   * A file: the engine's plan and cuts (split); without cuts, one pass here. With cuts, each part
   * analysed by one worker (analyze-part: the first here, held; the others in the pool, answering
   * their partial states), then merged here (merge). Progress sums the parts'. A failure follows
   * the engine's advice (its `retry`): parts again with id records, or one pass.
   */
  async #analyzeFile(request, {onProgress, signal}) {
    const {source, slot, maxPartitions, container, ...analysis} = request;
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
    const track = ({id, promise}, cancel) => {
      const entry = {cancel: () => cancel(id)};
      running.push(entry);
      return promise.finally(() => running.splice(running.indexOf(entry), 1));
    };
    const here = (type, payload, options) => track(this.#send(type, payload, options), (id) => this.cancel(id));
    try {
      if (signal?.aborted) throw cancelledError();
      const started = performance.now();
      const {cuts, plan} = await here(Request.SPLIT, payloadOf(Request.SPLIT, {
        source, ...analysis, workers: this.workers ?? undefined, cores: globalThis.navigator?.hardwareConcurrency}));
      const split = performance.now();
      if (job.cancelled) throw cancelledError();
      if (cuts.length === 0) return await this.#onePassOf(job, request, onProgress);
      const edges = [0, ...cuts, file.size];
      const pool = await this.#poolOf();
      if (job.cancelled) throw cancelledError();
      pool.warm(edges.length - 2);
      const retireHeapBytes = this.#retireHeapBytes ?? plan.retire_heap_bytes;
      for (let idRecords = false; ; idRecords = true) {
        const round = performance.now();
        const done = edges.slice(1).map(() => ({bytesDone: 0, items: 0}));
        const tell = () => onProgress?.({bytesDone: done.reduce((a, p) => a + p.bytesDone, 0), bytesTotal: file.size,
                                         items: done.reduce((a, p) => a + p.items, 0)});
        const parts = edges.slice(0, -1).map((begin, k) => {
          const payload = {source, begin, end: edges[k + 1], first: k === 0, idRecords, readAhead: plan.read_ahead,
                           ...analysis};
          const progress = (p) => {
            done[k] = {bytesDone: p.bytesDone, items: p.items};
            tell();
          };
          const finished = (r) => ({...r, ms: performance.now() - round});
          if (k === 0) return here(Request.ANALYZE_PART, payload, {onProgress: progress}).then(finished);
          const call = pool.call(k - 1, Request.ANALYZE_PART, payload, {onProgress: progress});
          return track({id: call.id, promise: call.promise.catch((e) => Promise.reject(new PartplayError(e)))},
                       (id) => pool.cancel(k - 1, id)).then((r) => {
            // Its partial state is here: a grown heap goes now, before the merge needs memory.
            const retired = r.heapBytes > retireHeapBytes && pool.retire(k - 1);
            return {...finished(r), retired};
          });
        });
        let results;
        try {
          results = await Promise.all(parts);
        } catch (e) {
          job.stop(false);
          await Promise.allSettled(parts);
          if (this.#stopsHere(job, e)) throw e;
          // Bad data in a part (or a worker that did not start): one pass gives the exact error.
          return await this.#onePassOf(job, request, onProgress);
        }
        if (job.cancelled) throw cancelledError();
        results.forEach((r, k) => { done[k] = {bytesDone: r.bytes, items: r.items}; });
        tell();
        const partials = results.slice(1).map((r) => r.partial);
        try {
          const merging = performance.now();
          const partialBytes = partials.map((b) => b.byteLength);  // before the transfer empties them
          const report = await here(Request.MERGE, payloadOf(Request.MERGE, {partials, idRecords, slot, maxPartitions,
                                                                             container}));
          // Where a parted analysis spends its time (the benchmark prints it), and the heaps:
          // each worker's after its part, this one's after the merge, and the most held at once.
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
          if (this.#stopsHere(job, e)) throw e;
          if (e.retry === 'id_records' && !idRecords) continue;  // an id repeated across parts
          return await this.#onePassOf(job, request, onProgress);
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.#partsJob === job) this.#partsJob = null;
    }
  }

  /** Whether a failure of the parts ends the analysis: the reader cancelled, the engine failed or advised stop. */
  #stopsHere(job, e) {
    return job.userCancelled || e.codeName === ErrorCodeNames.ENGINE_FAILED || e.retry === 'stop';
  }

  /** The job's file in one pass (still cancellable as the job). */
  async #onePassOf(job, request, onProgress) {
    if (job.userCancelled) throw cancelledError();
    job.cancelled = false;
    const sent = this.#send(Request.ANALYZE, request, {onProgress});
    job.stop = () => {
      job.cancelled = job.userCancelled = true;
      this.cancel(sent.id);
    };
    return sent.promise;
  }

  /** The engine's limit `id` (core/limits.h), e.g. 'cosmos_logical_partition_bytes'. */
  limit(id) {
    const found = this.limits?.find((l) => l.id === id);
    if (!found) throw new Error(`the engine has no limit ${id}`);
    return found;
  }

  /**
   * The wasm memory of every engine of this client (protocol.js heap): this worker's and each
   * running pool worker's. Resolves to {workers: [{worker: 'page' | 'pool', index, engines, bytes}], bytes}.
   */
  async heap() {
    const pool = this.#pool?.callEach(Request.HEAP) ?? [];
    const [page, ...others] = await Promise.all([
      this.#call(Request.HEAP, {}),
      ...pool.map(({promise}) => promise.catch((e) => Promise.reject(new PartplayError(e)))),
    ]);
    const workers = [{worker: 'page', index: null, ...page},
                     ...others.map((sizes, k) => ({worker: 'pool', index: pool[k].index, ...sizes}))];
    return {workers, bytes: workers.reduce((sum, w) => sum + w.bytes, 0)};
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

  /** The pool of extra workers, its module imported on the first analysis in parts. */
  async #poolOf() {
    if (!this.#pool) {
      const {WorkerPool} = await import('./pool.js');
      this.#pool ??= new WorkerPool(() => startModuleWorker(this.#workerUrl));
    }
    return this.#pool;
  }

  terminate() {
    const stopped = {codeName: ErrorCodeNames.CANCELLED, message: 'The client was terminated.'};
    this.#pool?.terminate(new PartplayError(stopped).toJSON());
    this.#worker.terminate();
    this.#fail(new PartplayError(stopped));
  }
}

// The methods of the table's other entries: `client.<entry.client>(fields)` sends the entry's
// payload fields of `fields` (options onProgress and signal aside); an entry with args
// 'positional' takes its one payload field as the argument (release(slot), sizeTable(request)).
for (const entry of REQUESTS) {
  if (Object.hasOwn(PlaygroundClient.prototype, entry.client)) continue;  // written above
  const [only] = Object.keys(entry.payload);
  Object.defineProperty(PlaygroundClient.prototype, entry.client, {
    configurable: true, writable: true,
    value(arg) {
      const {onProgress, signal, ...fields} = entry.args === 'positional' ? {[only]: arg} : (arg ?? {});
      return this.request(entry.type, fields, {onProgress, signal});
    },
  });
}
