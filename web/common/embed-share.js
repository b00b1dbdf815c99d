// "Copy link" and "Copy embed snippet" for the full page (index.html), and restoring a copied link.
//
//   import {initShare} from './embed-share.js';
//   initShare(shareBar, {views: {cosmos, cassandra, sizing}, mode, selectMode, dataSource});
//   // wires the bar's copy-link, copy-embed, share-output, share-status; restores #pp=...
//
// The state travels in the URL fragment as #pp=<base64url(deflate-raw(JSON))>, never sent to a
// server. Cosmos DB mode: {m: 'cosmos', e: example id, k: key, h: hash version, r: RU/s, d: the
// pasted items when they are small (no example), c: every container, workload and growth setting,
// q: the routed key value, y/vw: the synthetic key and the key on show, p: the comparison's pins,
// x: the data that did not travel (cosmos/cosmos-link.js)}; Cassandra mode: {m: 'cassandra', s: the script
// when small, else e: its example, n: nodes, v: vnodes}; Sizing mode: {m: 'sizing', e: its example
// or s: the schema, t: the table, f: the form's settings and averages (sizing/sizing-link.js)}. A link is
// restored by driving the page's own controls, as a reader would, once the first analysis has
// finished; the body then carries data-restored="done" (or "failed", with the reason in
// #share-status).
//
// A link is hostile input: its packed part is refused past MAX_FRAGMENT_CHARS, it is inflated
// piecewise and never past MAX_STATE_BYTES (a link that unpacks to gigabytes stops there), and
// every field of the state is checked for its type and length (validateState) before use.
//
// This module reads and restores the views through their handles (web/common/view.js:
// shareState, restoreState) and hears them through their events; it looks up nothing but the
// share bar's own controls, and never talks to the worker.
import {formatBytes} from './format.js';
import {inlineScript} from './inline-data.js';
import {submitForm} from './dom.js';
import {VIEW_EVENTS} from './view.js';

export const FRAGMENT_PREFIX = '#pp=';
/** Inline data or scripts above this many characters are left out of the link. */
export const MAX_INLINE_CHARS = 16 * 1024;
/** A link's state is at most this many bytes of JSON once inflated; decoding stops there. */
export const MAX_STATE_BYTES = 64 * 1024;
/**
 * A link's packed part is at most this many characters. Deflate never makes text longer by
 * more than a few bytes per 16 KiB, so an honest link of MAX_STATE_BYTES stays well below.
 */
export const MAX_FRAGMENT_CHARS = Math.ceil((MAX_STATE_BYTES + 1024) * 4 / 3);
/** Compressed bytes handed to the inflater at a time: deflate inflates 1 byte to at most 1,032. */
const INFLATE_STEP = 256;
const TIMEOUT_MS = 60_000;

/** A link that cannot be restored; the message says why, in words for the reader. */
export class ShareLinkError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ShareLinkError';
  }
}

function toBase64Url(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
    throw new ShareLinkError('the link is damaged (it is not base64url text)');
  }
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/**
 * Inflates raw deflate `bytes`, at most `budget` bytes of output: the input goes in INFLATE_STEP
 * pieces and the output is read between them, so a link that inflates to gigabytes stops after
 * `budget` (plus at most one step's worth) and never holds more.
 */
export async function inflateBounded(bytes, budget = MAX_STATE_BYTES) {
  if (!packsLinks()) throw new ShareLinkError(`this browser cannot unpack links: ${NO_LINK_STREAMS}`);
  const inflater = new DecompressionStream('deflate-raw');
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  const chunks = [];
  let total = 0;
  let over = false;
  // The writes wait for the reads (backpressure); both run together until one side stops.
  const writing = (async () => {
    for (let at = 0; at < bytes.length && !over; at += INFLATE_STEP) {
      await writer.write(bytes.subarray(at, at + INFLATE_STEP));
    }
    if (!over) await writer.close();
  })();
  writing.catch(() => {});
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      total += value.length;
      if (total > budget) {
        over = true;
        throw new ShareLinkError(`the link unpacks to more than ${Math.round(budget / 1024)} KiB, ` +
                                 'more than any link this page writes, so it was not read');
      }
      chunks.push(value);
    }
    await writing;
  } catch (e) {
    over = true;
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
    if (e instanceof ShareLinkError) throw e;
    throw new ShareLinkError('the link is damaged (it does not unpack)');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const NO_LINK_STREAMS = 'it has no CompressionStream and DecompressionStream for deflate-raw (Chrome 103, ' +
  'Firefox 113, Safari 16.4 or later)';
/** Whether this browser packs and unpacks #pp= links (raw deflate streams). */
export function packsLinks() {
  try {
    new CompressionStream('deflate-raw');
    new DecompressionStream('deflate-raw');
    return true;
  } catch {
    return false;
  }
}

/** The fragment ('#pp=...') of a state object. */
export async function encodeState(state) {
  if (!packsLinks()) throw new ShareLinkError(`this browser cannot write links: ${NO_LINK_STREAMS}`);
  const json = new TextEncoder().encode(JSON.stringify(state));
  return FRAGMENT_PREFIX + toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

const MODES = ['cosmos', 'cassandra', 'sizing'];
const HASH_VERSIONS = ['1', '2', 'multihash'];
const MAX_KEY_CHARS = 1024;
const MAX_EXAMPLE_CHARS = 100;
const MAX_NUMBER = 1e9;

const isText = (v, max) => typeof v === 'string' && v.length <= max;
const isCount = (v) => Number.isInteger(v) && v >= 1 && v <= MAX_NUMBER;
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_NUMBER;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** An object whose every field is one `shape` names, of the type it gives. */
const hasShape = (v, shape) => isObject(v) && Object.entries(v).every(([k, x]) => Object.hasOwn(shape, k) && shape[k](x));
const isBool = (v) => typeof v === 'boolean';
const isShortText = (v) => isText(v, MAX_KEY_CHARS);
const isTextList = (max) => (v) => Array.isArray(v) && v.length <= max && v.every(isShortText);
const WORKLOAD = {point_reads_per_second: isNumber, writes_per_second: isNumber, queries_per_second: isNumber,
                  spread: isShortText, zipf_exponent: isNumber, read_factor: isNumber, write_factor: isNumber,
                  query_ru: isNumber, weight_path: isShortText};
const SHARED_ROW = {name: isShortText, storage_gb: isNumber, demand_ru: isNumber};
/** The container, workload and growth settings (cosmos-settings.js settingsForLink). */
const SETTINGS = {hash_version: (v) => HASH_VERSIONS.includes(v), large_partition_keys: isBool, serverless: isBool,
                  ru_per_second: isNumber, created_ru_per_second: isNumber, autoscale: isBool, growth: isNumber,
                  grown_ru_per_second: isNumber, weight_path: isShortText, workload: (v) => hasShape(v, WORKLOAD),
                  shared_database: isBool,
                  shared_with: (v) => Array.isArray(v) && v.length <= 25 && v.every((r) => hasShape(r, SHARED_ROW))};
/** A synthetic key (protocol.js SyntheticKey). */
const SYNTHETIC = {kind: (v) => ['concat', 'random_suffix', 'hash_suffix'].includes(v), paths: isTextList(5),
                   separator: (v) => isText(v, 16), buckets: isCount, seed: (v) => Number.isInteger(v) && v >= 0 && v <= MAX_NUMBER,
                   suffix_path: isShortText};
const PIN = {key_paths: isTextList(3), synthetic: (v) => hasShape(v, SYNTHETIC), discover_items: Number.isInteger,
             weight_path: isShortText};
const PINS = {keys: (v) => Array.isArray(v) && v.length >= 1 && v.length <= 8 && v.every((k) => hasShape(k, PIN)),
              queries: (v) => isText(v, MAX_INLINE_CHARS), run: isBool};
/** A Sizing form's settings for its table (sizing/sizing-link.js): text fields, splits, averages. */
const isField = (v) => isText(v, 100);
const SPLIT = {kind: (v) => ['move_clustering_column', 'time_bucket', 'hash_bucket'].includes(v), column: isShortText,
               unit: isShortText, span_days: isNumber, distinct_values: isNumber, buckets: isNumber};
const SIZING = {rows: isField, worstRows: isField, partitions: isField, rf: isField, tAvg: isField, growthRows: isField,
                retention: isField, horizon: isField, start: (v) => isText(v, 20),
                splits: (v) => Array.isArray(v) && v.length <= 10 && v.every((x) => hasShape(x, SPLIT)),
                averages: (v) => isObject(v) && Object.keys(v).length <= 500 &&
                  Object.entries(v).every(([k, x]) => k.length <= 200 && isText(x, 40))};
/** The data that did not travel in full: its name, size, and the items the link carries. */
const MISSING = {name: (v) => isText(v, 200), bytes: (v) => v === null || (Number.isInteger(v) && v >= 0),
                 carried: (v) => Number.isInteger(v) && v >= 0};
/** Each field a link may carry: the check of its value and what the reader is told it must be. */
const FIELDS = {
  m: [(v) => MODES.includes(v), `one of ${MODES.join(', ')}`],
  e: [(v) => isText(v, MAX_EXAMPLE_CHARS) && /^[A-Za-z0-9._-]+$/.test(v),
      `an example id (letters, digits, . _ -; at most ${MAX_EXAMPLE_CHARS} characters)`],
  k: [(v) => isText(v, MAX_KEY_CHARS), `text of at most ${MAX_KEY_CHARS} characters`],
  h: [(v) => HASH_VERSIONS.includes(v), `one of ${HASH_VERSIONS.join(', ')}`],
  r: [(v) => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= MAX_NUMBER, `a number above 0, at most ${MAX_NUMBER}`],
  d: [(v) => isText(v, MAX_INLINE_CHARS), `text of at most ${MAX_INLINE_CHARS} characters`],
  s: [(v) => isText(v, MAX_INLINE_CHARS), `text of at most ${MAX_INLINE_CHARS} characters`],
  n: [isCount, `a whole number from 1 to ${MAX_NUMBER}`],
  v: [isCount, `a whole number from 1 to ${MAX_NUMBER}`],
  c: [(v) => hasShape(v, SETTINGS), 'container settings (the fields the page writes, each of its type)'],
  q: [isShortText, `text of at most ${MAX_KEY_CHARS} characters`],
  y: [(v) => hasShape(v, SYNTHETIC) && typeof v.kind === 'string', 'a synthetic key (kind, paths, separator, N, seed, suffix path)'],
  vw: [(v) => v === 'plain' || v === 'synthetic', 'plain or synthetic'],
  p: [(v) => hasShape(v, PINS) && Array.isArray(v.keys), 'the compared keys (1 to 8) and their queries'],
  x: [(v) => hasShape(v, MISSING) && typeof v.name === 'string', 'the name, size and carried items of the data'],
  t: [isShortText, `a table name of at most ${MAX_KEY_CHARS} characters`],
  f: [(v) => hasShape(v, SIZING), 'the sizing form\'s settings (the fields the page writes, each of its type)'],
};

/** Returns `state` when every field has its type and length, else throws a ShareLinkError naming the field. */
export function validateState(state) {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) {
    throw new ShareLinkError('the link does not hold a page state');
  }
  for (const [name, value] of Object.entries(state)) {
    const field = FIELDS[name];
    if (!field) throw new ShareLinkError(`the link has a field "${name.slice(0, 20)}" this page does not know`);
    if (!field[0](value)) throw new ShareLinkError(`the link's field "${name}" must be ${field[1]}`);
  }
  if (state.m === undefined) throw new ShareLinkError('the link names no mode');
  return state;
}

/**
 * The state object of a fragment: null when it is not one of ours; a ShareLinkError when it is
 * too long, inflates past MAX_STATE_BYTES, is damaged or carries a field of the wrong type or length.
 */
export async function decodeState(hash) {
  if (!hash?.startsWith(FRAGMENT_PREFIX)) return null;
  const packed = hash.slice(FRAGMENT_PREFIX.length);
  if (packed.length > MAX_FRAGMENT_CHARS) {
    throw new ShareLinkError(`the link is ${packed.length} characters long, longer than any link this page writes ` +
                             `(${MAX_FRAGMENT_CHARS}), so it was not read`);
  }
  const bytes = await inflateBounded(fromBase64Url(packed));
  let state;
  try {
    state = JSON.parse(new TextDecoder('utf-8', {fatal: true}).decode(bytes));
  } catch {
    throw new ShareLinkError('the link is damaged (its contents are not JSON text)');
  }
  return validateState(state);
}

const escapeAttr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A key as the CLI's --candidate grammar writes it (report/candidate_spec.h), which the element's key takes. */
export function keySpec(key) {
  const s = key.synthetic;
  if (!s) return key.key_paths.join(',');
  if (s.kind === 'concat') return `concat:${s.paths.join(',')}`;
  if (s.kind === 'random_suffix') return `random:${key.key_paths[0]}:${s.buckets}`;
  return `hash:${key.key_paths[0]}:${s.suffix_path}:${s.buckets}`;
}

/** The Cosmos DB element's attributes for the container, workload and growth of a link's settings (c). */
function settingAttrs(state) {
  const c = state.c ?? {};
  const attrs = [];
  if (state.h) attrs.push(['hash-version', state.h]);
  if (c.serverless) attrs.push(['serverless', '']);
  else if (state.r) attrs.push(['ru', state.r]);
  if (c.autoscale) attrs.push(['autoscale', '']);
  if (c.created_ru_per_second) attrs.push(['created-ru', c.created_ru_per_second]);
  if (c.shared_database && c.shared_with?.length) attrs.push(['shared-with', JSON.stringify(c.shared_with)]);
  if (c.growth > 1) attrs.push(['growth', c.growth]);
  if (c.grown_ru_per_second > 0) attrs.push(['grown-ru', c.grown_ru_per_second]);
  const w = c.workload ?? {};
  if (w.point_reads_per_second > 0) attrs.push(['reads', w.point_reads_per_second]);
  if (w.writes_per_second > 0) attrs.push(['writes', w.writes_per_second]);
  if (w.queries_per_second > 0) attrs.push(['queries-per-second', w.queries_per_second]);
  if ((w.point_reads_per_second > 0 || w.writes_per_second > 0 || w.queries_per_second > 0) && w.spread && w.spread !== 'uniform') {
    attrs.push(['spread', w.spread]);
    if (w.spread === 'zipf' && w.zipf_exponent) attrs.push(['zipf', w.zipf_exponent]);
    if (w.spread === 'field' && c.weight_path) attrs.push(['weight-path', c.weight_path]);
  }
  return attrs;
}

const tag = (attrs, child = '') =>
  `<partition-playground ${attrs.map(([k, v]) => (v === '' ? k : `${k}="${escapeAttr(v)}"`)).join(' ')}>${child}</partition-playground>`;

/**
 * The <partition-playground> markup for a state, with the script tag that loads the element
 * from `moduleUrl`: what the page shows. Cosmos DB: the key on show with the container, workload
 * and growth, its charts (the map with a container, the histogram) and the summary; with a
 * synthetic key beside the plain one, the two side by side; with a comparison, its table too.
 * Inline data goes into a child <script> (inline-data.js: safe in any host page).
 */
export function embedSnippet(state, moduleUrl) {
  const head = `<script type="module" src="${escapeAttr(moduleUrl)}"></script>\n`;
  if (state.m === 'cosmos') {
    const source = [];
    if (state.e) source.push(['example', state.e]);
    const child = state.d ? inlineScript('application/json', state.d) : '';
    const container = state.r || state.c?.serverless || state.h;
    const view = ['view', container ? 'summary map histogram' : 'summary histogram partitions'];
    const settings = settingAttrs(state);
    const parts = [];
    const plain = [['mode', 'cosmos'], ...source, ['key', state.k], ...settings, view];
    if (state.y) {
      // The plain key and the synthetic key, side by side, as section 10 compares them.
      const base = (state.k ?? '').split(',')[0].trim();
      const spec = keySpec({key_paths: [base], synthetic: state.y});
      const synthetic = [['mode', 'cosmos'], ...source, ['key', spec],
                         ...(state.y.separator && state.y.separator !== '-' ? [['separator', state.y.separator]] : []),
                         ...settings, view];
      parts.push('<div style="display: flex; flex-wrap: wrap; gap: 16px">',
                 `  ${tag(plain, child)}`, `  ${tag(synthetic, child)}`, '</div>');
    } else {
      parts.push(tag(plain, child));
    }
    if (state.p?.run) {
      const compare = [['mode', 'cosmos'], ...source, ['compare', state.p.keys.map(keySpec).join('; ')], ...settings,
                       ['view', 'compare']];
      const queries = (state.p.queries ?? '').split('\n').map((q) => q.trim()).filter((q) => q.startsWith('/'));
      if (queries.length) compare.push(['queries', queries.join('; ')]);
      parts.push(tag(compare, child));
    }
    return head + parts.join('\n');
  }
  const attrs = [['mode', state.m]];
  let child = '';
  if (state.m === 'cassandra') {
    if (state.n) attrs.push(['nodes', state.n]);
    if (state.v) attrs.push(['vnodes', state.v]);
    if (state.s) child = inlineScript('text/cql', state.s);
    else if (state.e) attrs.push(['example', state.e]);
  } else if (state.s) {
    // Sizing with the user's own schema: the element sizes its table at the rows asked for.
    if (state.t) attrs.push(['table', state.t]);
    if (state.f?.rows) attrs.push(['rows-per-partition', state.f.rows]);
    child = inlineScript('text/cql', state.s);
  } else if (state.e) {
    attrs.push(['example', state.e]);
  }
  return head + tag(attrs, child);
}

/** Whether `text` may travel inside a link: short enough, and its JSON form within the link budget. */
export function fitsInline(text) {
  return text.length <= MAX_INLINE_CHARS &&
    new TextEncoder().encode(JSON.stringify(text)).length <= MAX_STATE_BYTES - 1024;
}

/**
 * The leading complete items of a JSON text (NDJSON, concatenated objects or an array of
 * objects) whose NDJSON form fits in `max` characters: {text, items, all}. `all` is true when
 * every item of `text` fit. A structural scan (strings and escapes skipped), no parsing.
 */
export function leadingItems(text, max = MAX_INLINE_CHARS) {
  const items = [];
  let used = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  let base = 0;
  let i = 0;
  while (i < text.length && /\s/.test(text[i])) i++;
  if (text[i] === '[') {
    base = 1;
    depth = 1;
    i++;
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth === base) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === base && start >= 0) {
        const item = text.slice(start, i + 1);
        if (used + item.length + 1 > max) return {text: items.join('\n') + (items.length ? '\n' : ''), items: items.length, all: false};
        items.push(item);
        used += item.length + 1;
        start = -1;
      }
      if (depth < base) break;
    }
  }
  return {text: items.join('\n') + (items.length ? '\n' : ''), items: items.length, all: true};
}

/** The views the share bar reads and restores (view.js handles), and the mode on show. */
const page = {views: {}, mode: () => 'cosmos', selectMode: () => {}};
/** The Cosmos DB view's latest 'pp:run' event: {state, runs}. */
let lastRun = {state: 'loading', runs: 0};

/** The page's current state, from the view on show (its shareState). */
export function currentState() {
  const mode = page.mode();
  const view = page.views[mode];
  return {m: mode, ...(view?.shareState?.({fits: fitsInline}) ?? {})};
}

function waitFor(test) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const tick = () => {
      if (test()) resolve();
      else if (performance.now() - started > TIMEOUT_MS) reject(new Error('timed out restoring the link'));
      else setTimeout(tick, 50);
    };
    tick();
  });
}

/** Brings the page to `state`: once the first analysis has finished, its mode shows and its view restores itself. */
export async function restoreState(state) {
  await waitFor(() => lastRun.runs >= 1 && lastRun.state !== 'busy' && lastRun.state !== 'loading');
  if (state.m !== 'cosmos') page.selectMode(state.m);
  const view = page.views[state.m];
  if (!view?.restoreState) return;
  let timer = 0;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out restoring the link')), TIMEOUT_MS);
  });
  try {
    await Promise.race([view.restoreState(state), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The Cassandra view's handle as the share bar reads it: a link's {n: nodes, v: vnodes, s: the
 * script when small, else e: its example}, from and to the view's own shareState/restoreState
 * ({nodes, vnodes, script, example}).
 */
export function cassandraShare(view) {
  return {
    element: view.element,
    shareState({fits}) {
      const {script = '', example, nodes, vnodes} = view.shareState();
      const shared = {n: nodes, v: vnodes};
      if (fits(script)) shared.s = script;
      else shared.e = example;
      return shared;
    },
    async restoreState(state) {
      try {
        await view.restoreState({nodes: state.n, vnodes: state.v, script: state.s, example: state.s ? undefined : state.e});
      } catch (e) {
        throw new ShareLinkError(e.message);
      }
    },
  };
}

async function copy(text, output, status, what, note = '') {
  output.value = text;
  output.dataset.kind = what;
  // A snippet shows its lines (a CQL script keeps them); a link is one line.
  output.rows = Math.min(8, text.split('\n').length);
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `${what} copied.${note}`;
  } catch {
    output.select();
    status.textContent = `${what} ready: copy it from the field (Ctrl+C).${note}`;
  }
}

// Sizes as the rest of the page writes them ("57.3 KB", "63 MB"; never "64574.0 KB").
const kb = (bytes) => formatBytes(bytes);

/**
 * The first `max` bytes of a file's text, {text, total (its size in bytes, null when unknown)}.
 * A gzip file (its first bytes 1f 8b, whatever its name) is decompressed as far as needed: the
 * items come from the JSON inside, whose whole size is unknown until the end.
 */
export async function leadingText(file, max) {
  const magic = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (!(magic[0] === 0x1f && magic[1] === 0x8b) || typeof DecompressionStream !== 'function') {
    return {text: await file.slice(0, max).text(), total: file.size};
  }
  const reader = file.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts = [];
  let length = 0;
  let ended = false;
  try {
    while (length < max) {
      const {done, value} = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      parts.push(value);
      length += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(length, max));
  let at = 0;
  for (const part of parts) {
    const take = part.subarray(0, bytes.length - at);
    bytes.set(take, at);
    at += take.length;
    if (at === bytes.length) break;
  }
  return {text: new TextDecoder().decode(bytes), total: ended && length <= max ? length : null};
}

/**
 * The state to share and the sentence that says what data it carries. Data from a file, or a
 * paste too long for a link, never goes missing silently: with `include` its first items (up to
 * MAX_INLINE_CHARS) travel in the link and the snippet, and the note says how many; without, the
 * note says the reader gets no data.
 */
export async function sharedState(source, include) {
  const state = currentState();
  if (state.m !== 'cosmos' || !source || source.kind === 'example' || state.d !== undefined) return {state, note: ''};
  const name = source.name ?? (source.kind === 'text' ? 'pasted text' : 'the data');
  let text = '';
  let total = null;
  if (source.kind === 'file' && source.file) {
    // Enough bytes for MAX_INLINE_CHARS characters of items; the file itself stays here.
    try {
      ({text, total} = await leadingText(source.file, MAX_INLINE_CHARS * 4));
    } catch (e) {
      return {state, note: ` It carries no data: ${name} could not be read (${e?.message ?? e}).`};
    }
  } else if (typeof source.text === 'string') {
    total = new TextEncoder().encode(source.text).length;
    text = source.text.slice(0, MAX_INLINE_CHARS * 4);
  }
  // What did not travel: the opened page says so and shows nothing in its place.
  state.x = {name: name.slice(0, 200), bytes: total, carried: 0};
  if (!include) {
    return {state, note: ` It carries no data: ${name} stays on this machine, so the reader gets the key and ` +
      'settings only, and is told so. Tick "include the first 16 KB" to send the first items.'};
  }
  const sample = leadingItems(text);
  if (sample.items === 0) {
    return {state, note: ` It carries no data: the first item of ${name} is longer than ${kb(MAX_INLINE_CHARS)}.`};
  }
  state.d = sample.text;
  const whole = sample.all && total !== null && total <= MAX_INLINE_CHARS * 4;
  if (whole) delete state.x;
  else state.x.carried = sample.items;
  const note = whole
    ? ` It carries all ${sample.items} items of ${name}.`
    : ` It carries the first ${sample.items} items of ${name} (${kb(sample.text.length)} of ` +
      `${total === null ? 'more' : kb(total)}), not the whole data.`;
  return {state, note};
}

/**
 * Wires the share bar (`root`: its buttons, output and status) and restores a #pp= link. `views`
 * are the page's view handles by mode (view.js: shareState, restoreState); `mode()` names the one
 * on show and `selectMode(mode)` shows another; `dataSource()` is the Cosmos DB view's source().
 * The views are heard through their events (view.js VIEW_EVENTS), never read by id. The fragment
 * is read now, before anything rewrites it.
 */
export function initShare(root, {views, mode, selectMode, dataSource = () => null,
                                 moduleUrl = new URL('partition-playground.js', document.baseURI).href}) {
  Object.assign(page, {views, mode, selectMode});
  const hash = location.hash;
  const find = (testid) => root.querySelector(`[data-testid="${testid}"]`);
  const output = find('share-output');
  const status = find('share-status');
  const include = find('share-include');
  const includeLabel = find('share-include-label');
  // The choice to inline data shows only when the data is the user's own.
  const syncInclude = () => {
    const source = dataSource();
    if (includeLabel) includeLabel.hidden = !source || source.kind === 'example' || mode() !== 'cosmos';
  };
  document.addEventListener(VIEW_EVENTS.SOURCE, syncInclude);
  document.addEventListener(VIEW_EVENTS.RUN, (event) => {
    if (event.target === views.cosmos?.element) lastRun = event.detail;
  });
  find('copy-link')?.addEventListener('click', async () => {
    const url = new URL(location.href);
    const {state, note} = await sharedState(dataSource(), include?.checked ?? true);
    try {
      url.hash = await encodeState(state);
    } catch (e) {
      if (!(e instanceof ShareLinkError)) throw e;
      status.textContent = `No link: ${e.message}. The embed snippet works here.`;
      return;
    }
    await copy(url.href, output, status, 'Link', note);
  });
  find('copy-embed')?.addEventListener('click', async () => {
    const {state, note} = await sharedState(dataSource(), include?.checked ?? true);
    // The element reads path-list queries only: a comparison's SQL queries stay out, and it says so.
    const sql = (state.p?.queries ?? '').split('\n').map((q) => q.trim()).filter((q) => q && !q.startsWith('/')).length;
    const left = state.p?.run && sql ? ` The comparison's ${sql} SQL quer${sql === 1 ? 'y is' : 'ies are'} left out: ` +
      'the element reads the paths a query filters on ("/tenantId, /userId").' : '';
    await copy(embedSnippet(state, moduleUrl), output, status, 'Embed snippet', note + left);
  });
  const handle = {
    /** The mode changed: the share bar shows what applies to it. */
    modeChanged: syncInclude,
  };
  if (!hash.startsWith(FRAGMENT_PREFIX)) return handle;
  document.body.dataset.restored = 'pending';
  decodeState(hash).then(async (state) => {
    await restoreState(state);
    document.body.dataset.restored = 'done';
    status.textContent = 'The view of the link is restored.';
  }).catch((e) => {
    document.body.dataset.restored = 'failed';
    status.textContent = `The link could not be restored: ${e.message}`;
  });
  return handle;
}
