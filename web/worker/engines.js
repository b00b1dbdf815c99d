// The engine worker's engines: one wasm module per domain (CMakeLists.txt), each loaded on the
// first request that needs it (wasm/partplay-api.mjs createEngine), so a page or an element in
// one mode never downloads another's wasm. 'cosmos' (ingest, Cosmos DB, sizing from data), 'cql'
// (Cassandra), 'sizing' (sizing from a schema). The worker's URL names the domain to load at once
// and to answer init with (worker.js?domain=cql; 'cosmos' by default); size=small loads the
// element's engines: Cosmos DB built for size rather than for speed, Cassandra without bulk
// loads (partplay-cql-element), as the page's are; simd=0 the
// build without wasm SIMD. Also here: the engine failures that retire the worker (a wasm trap or
// abort leaves a module broken, so it is never called again), and an engine that does not load,
// told as the file that failed, its URL and what its server answered (common/load-failure.js).
import {ErrorCodeNames, PartplayError, setErrorCodes} from '../common/errors.js';

const DOMAINS = ['cosmos', 'cql', 'sizing'];
/** The domain loaded on start and answering init. */
export let FIRST_DOMAIN = 'cosmos';
/** The module of each domain (wasm/partplay-api.mjs createEngine). */
let MODULES = {cosmos: 'cosmos-fast', cql: 'cql', sizing: 'sizing'};
let ENGINE_SIMD = {};

/**
 * Reads the worker's options from worker.js's own URL (worker.js?domain=cql&size=small&simd=0),
 * before any engine loads. Its URL, not self.location: a worker started from a blob: module that
 * imports worker.js, for files on another origin, has the blob's location.
 */
export function configureEngines(workerUrl) {
  const params = new URL(workerUrl).searchParams;
  FIRST_DOMAIN = DOMAINS.find((d) => d === params.get('domain')) ?? 'cosmos';
  const small = params.get('size') === 'small';
  MODULES = {cosmos: small ? 'cosmos' : 'cosmos-fast', cql: small ? 'cql-element' : 'cql', sizing: 'sizing'};
  ENGINE_SIMD = params.get('simd') === '0' ? {simd: false} : {};
}

const engines = new Map();
/** The engine's limits table by id, from the first engine loaded (every module carries the same). */
const limits = new Map();

/** A value of the engine's limits table (core/limits.h); an engine must have loaded first. */
export function engineLimit(id) {
  if (!limits.has(id)) throw new PartplayError({codeName: ErrorCodeNames.BAD_REQUEST, message: `The engine has no limit "${id}".`});
  return limits.get(id);
}

/** The engine of `domain` ('first': FIRST_DOMAIN), loaded once: a promise of {api, engine}. */
export function engineFor(domain) {
  const name = domain === 'first' || !domain ? FIRST_DOMAIN : domain;
  if (!engines.has(name)) {
    const loading = (async () => {
      let stage = 'api';
      let api = null;
      try {
        api = await import('../engine/partplay-api.mjs');
        stage = 'engine';
        const engine = await api.createEngine({}, {domain: MODULES[name], ...ENGINE_SIMD});
        setErrorCodes(engine.errorCodes());
        if (limits.size === 0) for (const l of engine.limits()) limits.set(l.id, l.value);
        return {api, engine};
      } catch (e) {
        throw new PartplayError({codeName: ErrorCodeNames.ENGINE_LOAD, message: await loadFailureMessage(e, stage, name, api)});
      }
    })();
    // Every request awaits it and reports the error itself: no "unhandled rejection".
    loading.catch(() => {});
    engines.set(name, loading);
  }
  return engines.get(name);
}

/**
 * What failed to load and where, in words (common/load-failure.js, imported only now): the
 * engine's API module, its build's module or its .wasm, each named by its URL with what the
 * server answered there (a 404, a page in place of the .wasm) or what the browser refused.
 */
async function loadFailureMessage(error, stage, name, api) {
  const apiUrl = new URL('../engine/partplay-api.mjs', import.meta.url);
  // The build createEngine loads (wasm/partplay-api.mjs FACTORIES): the domain's, or 'nosimd'.
  let simd = ENGINE_SIMD.simd !== false;
  try {
    simd &&= api?.supportsWasmSimd?.() !== false;
  } catch {
    // Unknown: the domain's build is named.
  }
  const build = simd ? MODULES[name] : 'nosimd';
  try {
    const {engineLoadMessage} = await import('../common/load-failure.js');
    return await engineLoadMessage(error, {stage, apiUrl: apiUrl.href, moduleUrl: new URL(`partplay-${build}.mjs`, apiUrl).href,
                                           wasmUrl: new URL(`partplay-${build}.wasm`, apiUrl).href});
  } catch {
    return `The analysis engine could not be loaded: ${error?.message ?? error}`;
  }
}

/** The wasm memory of each engine loaded here (a peak: wasm memory never shrinks). */
export async function heapSizes() {
  const list = [];
  for (const [domain, loading] of engines) {
    const loaded = await loading.catch(() => null);
    if (loaded) list.push({domain, module: MODULES[domain], bytes: loaded.engine.heapBytes()});
  }
  return {engines: list, bytes: list.reduce((sum, e) => sum + e.bytes, 0)};
}

/** A source that could not be read: the engine's `io` error. */
export async function ioError(message) {
  await engineFor(FIRST_DOMAIN).catch(() => {});  // its table gives the code
  return new PartplayError({codeName: ErrorCodeNames.IO, message});
}

/** The ErrorPayload of the failure that broke the engine, or null while it is sound. */
let dead = null;
export const engineDead = () => dead;

/** True when `e` is a trap or an abort of the wasm module (not an engine error value). */
function isEngineFailure(e) {
  if (!e || typeof e !== 'object' || 'codeName' in e) return false;
  return e instanceof WebAssembly.RuntimeError || e instanceof RangeError ||
    (typeof e.message === 'string' && e.message.startsWith('Aborted('));
}

/** Marks the engine dead when `e` is a failure met while `doing`; returns whether it is dead. */
export function noteFailure(e, doing) {
  if (dead || !isEngineFailure(e)) return !!dead;
  const reason = String(e.message || e.name).replace(/\. Build with -s ASSERTIONS=1 for more info\.$/, '');
  dead = new PartplayError({codeName: ErrorCodeNames.ENGINE_FAILED,
                            message: `The engine stopped while ${doing ?? 'working'} (${reason}).`}).toJSON();
  return true;
}

/** After a rejection nobody awaited: the engine is not trusted again. */
export function markDead(reason) {
  if (!noteFailure(reason, null)) {
    dead = new PartplayError({codeName: ErrorCodeNames.ENGINE_FAILED,
                              message: `The engine stopped (${reason?.message ?? reason}).`}).toJSON();
  }
  return dead;
}
