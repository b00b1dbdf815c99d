// "Copy link" and "Copy embed snippet" for the full page (index.html), and restoring a copied link.
//
//   import {initShare} from './embed-share.js';
//   initShare();   // wires #copy-link, #copy-embed, #share-output, #share-status; restores #pp=...
//
// The state travels in the URL fragment as #pp=<base64url(deflate-raw(JSON))>, never sent to a
// server. Cosmos DB mode: {m: 'cosmos', e: example id, k: key, h: hash version, r: RU/s, d: the
// pasted items when they are small (no example)}; Cassandra mode: {m: 'cassandra', s: the script
// when small, n: nodes, v: vnodes}; Sizing mode: {m: 'sizing'}. A link is restored by driving the
// page's own controls, as a reader would, once the first analysis has finished; the body then
// carries data-restored="done" (or "failed").
//
// This module reads the page through its controls' ids only; it never talks to the worker.
export const FRAGMENT_PREFIX = '#pp=';
/** Inline data or scripts above this many characters are left out of the link. */
export const MAX_INLINE_CHARS = 16 * 1024;
const TIMEOUT_MS = 60_000;

function toBase64Url(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The fragment ('#pp=...') of a state object. */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return FRAGMENT_PREFIX + toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

/** The state object of a fragment, or null when it is not one of ours (or is damaged). */
export async function decodeState(hash) {
  if (!hash?.startsWith(FRAGMENT_PREFIX)) return null;
  try {
    const bytes = await pipe(fromBase64Url(hash.slice(FRAGMENT_PREFIX.length)), new DecompressionStream('deflate-raw'));
    const state = JSON.parse(new TextDecoder().decode(bytes));
    return state && typeof state === 'object' ? state : null;
  } catch {
    return null;
  }
}

const escapeAttr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeText = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The <partition-playground> markup for a state, with the script tag that loads the element
 * from `moduleUrl`. Inline data goes into a child <script> (with "</script" defused).
 */
export function embedSnippet(state, moduleUrl) {
  const attrs = [['mode', state.m]];
  let child = '';
  if (state.m === 'cosmos') {
    if (state.e) attrs.push(['example', state.e]);
    if (state.k) attrs.push(['key', state.k]);
    if (state.h) attrs.push(['hash-version', state.h]);
    if (state.r) attrs.push(['ru', state.r]);
    if (state.d) child = `\n  <script type="application/json">\n${state.d.replace(/<\/script/gi, '<\\/script')}\n  </script>\n`;
  } else if (state.m === 'cassandra') {
    if (state.n) attrs.push(['nodes', state.n]);
    if (state.v) attrs.push(['vnodes', state.v]);
    if (state.s) child = `\n  <script type="text/cql">\n${state.s.replace(/<\/script/gi, '<\\/script')}\n  </script>\n`;
    else if (state.e) attrs.push(['example', state.e]);
  } else if (state.e) {
    attrs.push(['example', state.e]);
  }
  return `<script type="module" src="${escapeAttr(moduleUrl)}"></script>\n` +
    `<partition-playground ${attrs.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(' ')}>${child}</partition-playground>`;
}

const byId = (id) => document.getElementById(id);

/** The page's current state, read from its controls. */
export function currentState() {
  const mode = document.body.dataset.mode ?? 'cosmos';
  const number = (id) => {
    const v = Number(byId(id)?.value);
    return Number.isFinite(v) && v > 0 ? v : undefined;
  };
  if (mode === 'cassandra') {
    const script = byId('cql-editor')?.value ?? '';
    const state = {m: 'cassandra', n: number('ring-nodes'), v: number('ring-vnodes')};
    if (script.length <= MAX_INLINE_CHARS) state.s = script;
    else state.e = byId('cql-example')?.value;
    return state;
  }
  if (mode === 'sizing') return {m: 'sizing'};
  const select = byId('example-select');
  const own = select?.selectedOptions?.[0]?.hasAttribute('data-own');
  const state = {m: 'cosmos', k: byId('key-input')?.value ?? '', h: byId('hash-version')?.value, r: number('ru-input')};
  if (!own) state.e = select?.value;
  else {
    const text = byId('paste-input')?.value ?? '';
    if (text && text.length <= MAX_INLINE_CHARS) state.d = text;
  }
  return state;
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

const runs = () => Number(document.body.dataset.runs ?? 0);
const settled = (n) => () => runs() > n && document.body.dataset.state !== 'busy' && document.body.dataset.state !== 'loading';

/** Runs `action` and waits until the Cosmos DB view finished the analysis it started. */
async function analysisAfter(action) {
  const n = runs();
  action();
  await waitFor(settled(n));
}

function setValue(id, value) {
  const node = byId(id);
  if (node && value !== undefined && value !== null) node.value = String(value);
}

/** Drives the page's controls to `state`. */
export async function restoreState(state) {
  await waitFor(() => runs() >= 1 && document.body.dataset.state !== 'busy' && document.body.dataset.state !== 'loading');
  if (state.m === 'cassandra' || state.m === 'sizing') {
    byId(`mode-${state.m}`)?.click();
    if (state.m === 'cassandra') {
      const panel = byId('cassandra-view');
      const cqlRuns = () => Number(panel.dataset.cqlRuns ?? 0);
      const idle = (n) => () => cqlRuns() > n && panel.dataset.cqlPending === '0' && panel.dataset.cqlState !== 'busy';
      await waitFor(idle(0));
      const ringForm = byId('ring-form');
      if (ringForm && (state.n || state.v)) {
        setValue('ring-nodes', state.n);
        setValue('ring-vnodes', state.v);
        const n = cqlRuns();
        ringForm.requestSubmit();
        await waitFor(idle(n));
      }
      if (typeof state.s === 'string') {
        setValue('cql-editor', state.s);
        const n = cqlRuns();
        byId('cql-run').click();
        await waitFor(idle(n));
      }
    }
    return;
  }
  if (typeof state.d === 'string') {
    setValue('paste-input', state.d);
    await analysisAfter(() => byId('analyze-button').click());
  } else if (state.e && byId('example-select').value !== state.e &&
             [...byId('example-select').options].some((o) => o.value === state.e)) {
    const select = byId('example-select');
    select.value = state.e;
    await analysisAfter(() => select.dispatchEvent(new Event('change', {bubbles: true})));
  }
  setValue('hash-version', state.h);
  setValue('ru-input', state.r);
  setValue('key-input', state.k);
  await analysisAfter(() => byId('key-form').requestSubmit());
}

async function copy(text, output, status, what) {
  output.value = text;
  output.dataset.kind = what;
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `${what} copied.`;
  } catch {
    output.select();
    status.textContent = `${what} ready: copy it from the field (Ctrl+C).`;
  }
}

/** Wires the share bar and restores a #pp= link. The fragment is read now, before anything rewrites it. */
export function initShare({moduleUrl = new URL('partition-playground.js', document.baseURI).href} = {}) {
  const hash = location.hash;
  const output = byId('share-output');
  const status = byId('share-status');
  byId('copy-link')?.addEventListener('click', async () => {
    const url = new URL(location.href);
    url.hash = await encodeState(currentState());
    await copy(url.href, output, status, 'Link');
  });
  byId('copy-embed')?.addEventListener('click', () => copy(embedSnippet(currentState(), moduleUrl), output, status, 'Embed snippet'));
  if (!hash.startsWith(FRAGMENT_PREFIX)) return;
  document.body.dataset.restored = 'pending';
  decodeState(hash).then(async (state) => {
    if (!state) throw new Error('the link could not be read');
    await restoreState(state);
    document.body.dataset.restored = 'done';
    status.textContent = 'The view of the link is restored.';
  }).catch((e) => {
    document.body.dataset.restored = 'failed';
    status.textContent = `The link could not be restored: ${e.message}`;
  });
}
