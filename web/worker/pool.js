// The extra engine workers of a file analysed in parts (client.js; protocol.js split, analyze-part, merge). Each is
// a module worker of web/worker/worker.js spoken to with the one protocol, started on first use
// and kept for the next analysis, so its engine loads once (unless the client retires it to free
// a grown heap). A worker whose engine fails (a wasm
// trap; engines.js) is terminated: what it was running rejects with an
// `engine_failed` payload, and a fresh worker takes its place on next use.
//
//   const pool = new WorkerPool(() => new Worker(url, {type: 'module'}));
//   const {id, promise} = pool.call(0, Request.ANALYZE_PART, payload, {onProgress});
//   pool.cancel(0, id);   // the request ends in its 'cancelled' error
//
// Rejections are ErrorPayload objects (protocol.js); the client turns them into its errors.
import {ErrorCodeNames, Reply, Request, errorPayload, requestEntry} from './protocol.js';

export class WorkerPool {
  #start;
  /** Per index: {worker, pending: Map<id, {resolve, reject, onProgress}>, answered}, or null. */
  #members = [];
  #nextId = 1;

  /** @param {() => Worker} startWorker starts one module worker of worker.js */
  constructor(startWorker) {
    this.#start = startWorker;
  }

  /** How many workers are running. */
  get size() {
    return this.#members.filter(Boolean).length;
  }

  /** Starts workers 0..count-1 that are not running yet (their engines load meanwhile). */
  warm(count) {
    for (let k = 0; k < count; k++) this.#member(k);
  }

  #member(k) {
    if (!this.#members[k]) this.#members[k] = this.#spawn();
    return this.#members[k];
  }

  #spawn() {
    const worker = this.#start();
    const member = {worker, pending: new Map(), answered: false};
    worker.addEventListener('message', (event) => this.#onMessage(member, event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      const detail = event.message ? `: ${event.message}` : '';
      // Before its first answer the worker did not start at all (not an engine failure).
      this.#drop(member, member.answered
        ? errorPayload({codeName: ErrorCodeNames.ENGINE_FAILED, message: `The engine worker stopped${detail}.`})
        : errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD, message: `An engine worker failed to start${detail}.`}));
    });
    worker.addEventListener('messageerror', () => {
      this.#drop(member, errorPayload({codeName: ErrorCodeNames.BAD_REQUEST, message: 'A worker message could not be read.'}));
    });
    return member;
  }

  #onMessage(member, message) {
    member.answered = true;
    if (message?.type === Reply.ERROR && message.payload?.codeName === ErrorCodeNames.ENGINE_FAILED) {
      this.#drop(member, message.payload);
      return;
    }
    const entry = member.pending.get(message?.id);
    if (!entry) return;
    switch (message.type) {
      case Reply.PROGRESS:
        entry.onProgress?.(message.payload);
        return;
      case Reply.RESULT:
        member.pending.delete(message.id);
        entry.resolve(message.payload);
        break;
      case Reply.ERROR:
        member.pending.delete(message.id);
        entry.reject(message.payload);
    }
    if (member.retiring && member.pending.size === 0) member.worker.terminate();
  }

  /** Terminates a failed worker; its requests reject with `cause` (engine failures say it restarts). */
  #drop(member, cause) {
    const k = this.#members.indexOf(member);
    if (k < 0 && !member.retiring) return;
    member.worker.terminate();
    if (k >= 0) this.#members[k] = null;
    const error = cause.codeName === ErrorCodeNames.ENGINE_FAILED
      ? {...cause, message: `${cause.message} It has been restarted.`}
      : cause;
    for (const {reject} of member.pending.values()) reject(error);
    member.pending.clear();
  }

  /** Sends request `type` to worker `k`: {id, promise of the result payload}. */
  call(k, type, payload, {onProgress} = {}) {
    const member = this.#member(k);
    const id = this.#nextId++;
    const promise = new Promise((resolve, reject) => {
      member.pending.set(id, {resolve, reject, onProgress});
      try {
        member.worker.postMessage({id, type, payload}, requestEntry(type).transfer?.request?.(payload) ?? []);
      } catch (e) {
        member.pending.delete(id);
        reject(errorPayload({codeName: ErrorCodeNames.BAD_REQUEST, message: e.message}));
      }
    });
    return {id, promise};
  }

  /** Sends request `type` to every running worker: [{index, promise}] in index order. */
  callEach(type, payload = {}) {
    return this.#members.flatMap((member, k) => (member ? [{index: k, promise: this.call(k, type, payload).promise}] : []));
  }

  /** Cancels request `id` of worker `k` (protocol.js cancel), if that worker still runs it. */
  cancel(k, id) {
    const member = this.#members[k];
    if (!member?.pending.has(id)) return;
    member.worker.postMessage({id: this.#nextId++, type: Request.CANCEL, payload: {target: id}});
  }

  /**
   * Stops worker `k` to give its memory back (a wasm heap never shrinks): at once when it runs
   * nothing, else once what it runs has answered; a fresh worker takes its place on next use.
   * Whether there was a worker `k`.
   */
  retire(k) {
    const member = this.#members[k];
    if (!member) return false;
    this.#members[k] = null;
    member.retiring = true;
    if (member.pending.size === 0) member.worker.terminate();
    return true;
  }

  /** Stops every worker; what they ran rejects with `cause`. */
  terminate(cause) {
    for (const member of this.#members) if (member) this.#drop(member, cause);
  }
}
