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
import {setLimits} from './limits.js';
import {
  DEFAULT_MAX_PARTITIONS, Reply, Request, SourceKind, validateContainer, validateKeyPaths, validateRequest,
  validateSlot, validateSource, validateSynthetic,
} from './protocol.js';

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

export class PlaygroundClient {
  #worker;
  #nextId = 1;
  #pending = new Map();
  #broken = null;

  /** @param {{workerUrl?: string|URL}} [options] */
  constructor({workerUrl} = {}) {
    this.#worker = new Worker(workerUrl ?? new URL('./worker.js', import.meta.url), {type: 'module'});
    this.#worker.addEventListener('message', (event) => this.#onMessage(event.data));
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      this.#fail(new PlaygroundError({
        codeName: 'worker_failed',
        message: `The engine worker failed${event.message ? `: ${event.message}` : ' to start'}.`,
      }));
    });
    this.#worker.addEventListener('messageerror', () => {
      this.#fail(new PlaygroundError({codeName: 'worker_failed', message: 'A worker message could not be read.'}));
    });
    /** Resolves to {version, errorCodes, limits} once the engine is loaded. */
    this.ready = this.#call(Request.INIT, {}).then((info) => {
      this.version = info.version;
      this.errorCodes = info.errorCodes;
      this.limits = info.limits;
      setLimits(info.limits);
      return info;
    });
  }

  /** The id of the analyze/reanalyze in flight, or null. */
  get busyId() {
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

  #call(type, payload, {onProgress, transfer = [], signal} = {}) {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
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
    const transfer = source.kind === SourceKind.BYTES ? [source.buffer] : [];
    return this.#call(Request.ANALYZE,
                      clean({source, keyPaths, discoverItems, maxPartitions, slot, weightPath, synthetic, container}),
                      {onProgress, transfer, signal});
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
   * Loads JSON objects from a source (protocol.js Source) into `table`. Resolves to {rows, view,
   * timing}; progress {bytesDone, bytesTotal, items: rows so far}. `signal` cancels it.
   */
  cqlLoad({table, source, ru, maxPartitions, onProgress, signal}) {
    const transfer = source?.kind === SourceKind.BYTES ? [source.buffer] : [];
    return this.#checked(Request.CQL_LOAD, {table, source, ru, maxPartitions}, {onProgress, transfer, signal});
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

  /** Frees the analysis the worker keeps in `slot`. Resolves to {released}. */
  release(slot) {
    return this.#call(Request.RELEASE, {slot});
  }

  /** Cancels the analysis `target` (default: whichever is in flight). Resolves to {cancelled}. */
  cancel(target) {
    return this.#call(Request.CANCEL, target === undefined ? {} : {target});
  }

  terminate() {
    this.#worker.terminate();
    this.#fail(new PlaygroundError({codeName: 'terminated', message: 'The client was terminated.'}));
  }
}
