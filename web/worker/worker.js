// The engine worker: the only module that loads the wasm engine. Started by client.js as
//   new Worker(new URL('./worker.js', import.meta.url), {type: 'module'})
// It validates each request against the protocol table (protocol.js), runs its handler
// (handlers/index.js) with its domain's engine (engines.js) and posts its replies: progress, then
// one result or error. A cancellable request runs as a job (jobs.js). A wasm trap or abort marks
// the engine dead (engines.js): every later request answers engine_failed and the client starts a
// fresh worker.
import {PartplayError} from '../common/errors.js';
import {configureEngines, engineDead, engineFor, FIRST_DOMAIN, markDead, noteFailure} from './engines.js';
import {handlers} from './handlers/index.js';
import {endJob, startJob} from './jobs.js';
import {Reply, progress, requestEntry, result, validateRequest} from './protocol.js';

configureEngines(import.meta.url);  // ?domain=, ?size=, ?simd= are this module's
engineFor(FIRST_DOMAIN);

/** Runs request `message` and posts its replies. */
async function run(message) {
  const {id, type, payload = {}} = message;
  const entry = requestEntry(type);
  const crash = self.crashNextRequestForTesting;
  if (crash) {
    // TEST ONLY (protocol.js): this request breaks the engine on purpose.
    delete self.crashNextRequestForTesting;
    (await engineFor(entry.domain ?? FIRST_DOMAIN)).engine.crashForTesting(crash);
  }
  const job = entry.cancellable ? startJob(id, entry.cancellable) : null;
  const ctx = {id, job, doing: entry.doing,
               progress: (fields) => postMessage(progress(id, fields)),
               engine: () => engineFor(entry.domain)};
  try {
    const answer = await handlers[type](payload, ctx);
    postMessage(result(id, answer), entry.transfer?.result?.(answer) ?? []);
  } finally {
    if (job) endJob(job);
  }
}

self.addEventListener('message', async (event) => {
  const message = event.data;
  const id = Number.isSafeInteger(message?.id) ? message.id : -1;
  try {
    validateRequest(message);
    if (engineDead()) throw engineDead();
    await run(message);
  } catch (e) {
    const doing = requestEntry(message?.type)?.doing;
    postMessage({id, type: Reply.ERROR, payload: noteFailure(e, doing) ? engineDead() : PartplayError.from(e).toJSON()});
  }
});

// A rejection nobody awaited (a bug, or a trap in a callback): the engine is not trusted again.
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  postMessage({id: -1, type: Reply.ERROR, payload: markDead(event.reason)});
});
