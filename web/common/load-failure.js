// Why a file the engine needs did not load, in a sentence that names the file's URL, what
// answered there and what to change: imported only once something has failed (it fetches the file
// again to see what the server sends). The engine worker words its own load failures with it
// (worker/engines.js: the engine's module and .wasm), and the element its worker's
// (partition-playground.js: the worker script, or a module it imports, blocked or missing).
//
//   const check = await checkFile(url, 'wasm');   // {problem, hint, note, type, status}
//   engineLoadMessage(error, {stage, apiUrl, moduleUrl, wasmUrl})   // worker/engines.js
//   workerStartMessage(error, workerUrl, violations)                 // the element
// Every sentence names a URL in full, so a reader can open it; the first one names what failed.

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];  // "\0asm"
const JS_TYPE = /^(text|application)\/(x-)?(javascript|ecmascript)$/;
const PREFIX_BYTES = 24; // lint-ok: bytes quoted from a file that is not WebAssembly

/** The media type of `response` without its parameters ('text/javascript'), or ''. */
function mediaType(response) {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** The first bytes of a response body (reading no further), or null when it has none. */
async function firstBytes(response, count) {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(await response.arrayBuffer()).subarray(0, count);
  const parts = [];
  let length = 0;
  while (length < count) {
    const {value, done} = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  reader.cancel().catch(() => {});
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes.subarray(0, count);
}

/** Bytes as the text they start with, control characters as spaces ("<!doctype html><html"). */
const quoted = (bytes) => new TextDecoder('utf-8', {fatal: false}).decode(bytes).replace(/[\u0000-\u001f\ufffd]+/g, ' ').trim();

const NETWORK_HINT = 'Either the server did not answer, or a Content-Security-Policy (connect-src) does not let the page ' +
  'fetch it, or, with the files on another origin, that server sends no Access-Control-Allow-Origin header ' +
  '(docs/embedding.md "From another origin").';
const MISSING_HINT = 'Serve every file of the site, or of the package\'s dist/, as it is and in its folder: worker/ and ' +
  'engine/ are looked for beside partition-playground.js.';

/**
 * What `url` answers now, for a file of `kind` ('wasm' | 'module'): {problem, hint, note, type,
 * status}. `problem` (a phrase following the URL) is null when the file looks right; `note` says
 * what works but is not as it should be (a .wasm not served as application/wasm).
 */
export async function checkFile(url, kind) {
  let response;
  try {
    response = await fetch(url, {cache: 'no-store'});
  } catch (e) {
    return {problem: `could not be fetched (${e?.message ?? e})`, hint: NETWORK_HINT, note: null, type: '', status: 0};
  }
  const type = mediaType(response);
  const status = response.status;
  if (!response.ok) {
    response.body?.cancel().catch(() => {});
    return {problem: `answered HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}: the file is not there`,
            hint: MISSING_HINT, note: null, type, status};
  }
  if (kind === 'module') {
    response.body?.cancel().catch(() => {});
    if (!JS_TYPE.test(type)) {
      return {problem: `was served as ${type || 'a file with no Content-Type'}, and a browser runs a module only when it is ` +
                `served as JavaScript`,
              hint: 'Have the server send .js and .mjs files as text/javascript.', note: null, type, status};
    }
    return {problem: null, hint: null, note: null, type, status};
  }
  const bytes = await firstBytes(response, PREFIX_BYTES).catch(() => new Uint8Array());
  if (bytes.length < WASM_MAGIC.length || WASM_MAGIC.some((b, i) => bytes[i] !== b)) {
    const html = type === 'text/html' || /^\s*</.test(quoted(bytes));
    return {problem: `is not WebAssembly: it was served as ${type || 'a file with no Content-Type'}` +
              (bytes.length ? ` and begins "${quoted(bytes)}${bytes.length === PREFIX_BYTES ? '…' : ''}"` : ' and is empty'),
            hint: html ? 'A page was sent in place of the file (as a server that answers every missing path with a page ' +
              'does): put the .wasm file at that URL, and have the server send it as application/wasm.'
              : 'Put the .wasm file at that URL as it was built, and have the server send it as application/wasm.',
            note: null, type, status};
  }
  const note = type === 'application/wasm' ? null
    : `It was served as ${type || 'a file with no Content-Type'}, not application/wasm, so the browser cannot compile it ` +
      'while it downloads: have the server send .wasm files as application/wasm.';
  return {problem: null, hint: null, note, type, status};
}

/** An error's text without Emscripten's wrapping ("Aborted(...). Build with -s ASSERTIONS=1 ..."). */
function reasonOf(error) {
  const text = String(error?.message ?? error ?? '');
  const inner = text.match(/^Aborted\(([\s\S]*)\)(\. Build with -s ASSERTIONS=1 for more info\.)?$/);
  return (inner ? inner[1] : text).replace(/^(CompileError|LinkError|RuntimeError|TypeError): /, '').trim();
}

const CSP_BLOCK = /Content.Security.Polic|unsafe-eval/i;
const MODULE_FETCH = /dynamically imported module|module script failed|error loading dynamically imported module/i;

/**
 * The engine's load failure in the worker (engines.js engineFor): `stage` is 'api' while
 * partplay-api.mjs is imported, 'engine' after (its build's module, then its .wasm).
 */
export async function engineLoadMessage(error, {stage, apiUrl, moduleUrl, wasmUrl}) {
  const reason = reasonOf(error);
  if (stage === 'api' || MODULE_FETCH.test(reason)) {
    const url = stage === 'api' ? apiUrl : moduleUrl;
    const check = await checkFile(url, 'module');
    if (check.problem) return `The engine's module could not be loaded: ${url} ${check.problem}. ${check.hint}`;
    return `The engine's module ${url} could not be loaded: ${reason}.`;
  }
  if (error instanceof WebAssembly.RuntimeError || /^Aborted\(/.test(String(error?.message ?? ''))) {
    const check = await checkFile(wasmUrl, 'wasm');
    if (check.problem) return `The engine's WebAssembly file could not be loaded: ${wasmUrl} ${check.problem}. ${check.hint}`;
    if (CSP_BLOCK.test(reason)) {
      return `The engine's WebAssembly file ${wasmUrl} arrived, but a Content-Security-Policy does not let the browser ` +
        'compile it: its script-src needs \'wasm-unsafe-eval\' (the policy sent with worker/worker.js; with the files on ' +
        `another origin, the embedding page's). The browser said: ${reason}`;
    }
    return `The engine's WebAssembly file ${wasmUrl} arrived but did not start: ${reason}. It must come from the same ` +
      `build as ${moduleUrl}.${check.note ? ` ${check.note}` : ''}`;
  }
  return `The analysis engine could not be loaded: ${reason}`;
}

/**
 * The worker's failure to start, as the element tells it: `error` is the client's (client.js: the
 * worker's error event, before it answered), `violations` the page's Content-Security-Policy
 * violations seen for the worker ([{directive, blocked}]).
 */
export async function workerStartMessage(error, workerUrl, violations = []) {
  const url = String(workerUrl);
  const reason = String(error?.message ?? error ?? '');
  // A module the worker imports (or the page or worker imports later) named in the error.
  const imported = MODULE_FETCH.test(reason) ? reason.match(/\b(https?:\/\/\S+?)[.,;)]?(\s|$)/)?.[1] : null;
  if (imported && imported !== url) {
    const check = await checkFile(imported, 'module');
    if (check.problem) return `A module of the engine could not be loaded: ${imported} ${check.problem}. ${check.hint}`;
    return `A module of the engine could not be loaded: ${imported} (${reason}).`;
  }
  // The check first: the page's violation events for the worker have arrived by the time it answers.
  const check = await checkFile(url, 'module');
  const blocked = violations.find((v) => ['worker-src', 'script-src', 'script-src-elem', 'child-src', 'default-src'].includes(v.directive));
  if (blocked) {
    return `The engine worker was blocked by the page's Content-Security-Policy (${blocked.directive}): ${blocked.blocked || url} ` +
      `may not run. Allow ${blocked.blocked?.startsWith('blob') ? 'blob: (the element starts its worker from a blob: ' +
        'module when its files are on another origin)' : new URL(url).origin} in ${blocked.directive}.`;
  }
  if (check.problem) return `The engine worker could not start: ${url} ${check.problem}. ${check.hint}`;
  // The file answers as a module: something it imports failed, or the page does not allow it.
  const cors = reason.match(/ Its files come from .*$/)?.[0] ?? '';
  return `The engine worker ${url} did not start, though the file answers: a module it imports failed to load, or a ` +
    `Content-Security-Policy (worker-src, script-src) does not allow it; the browser's console names which.${cors}`;
}
