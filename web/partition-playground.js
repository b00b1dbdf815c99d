// <partition-playground>: the playground as a custom element for documentation pages.
//
//   <script type="module" src="partition-playground.js"></script>
//   <partition-playground mode="cassandra" example="uprofile-compound-key"></partition-playground>
//   <partition-playground mode="cosmos" example="vehicles" key="/date" ru="40000"></partition-playground>
//   <partition-playground mode="cosmos" key="/userId">
//     <script type="application/json">[{"id": "1", "userId": "a"}, {"id": "2", "userId": "b"}]</script>
//   </partition-playground>
//
// Attributes: mode (cosmos | cassandra | sizing), example (an id of examples/index.json or
// examples/cql/index.json), src (a data URL relative to the page), key (JSON pointers, comma
// separated), hash-version (1 | 2 | multihash), ru (RU/s; shows the physical partitions and the
// service's throughput rules for them), created-ru (the RU/s the container was created with),
// serverless (a serverless container, in place of ru), shared-with (ru is a shared-throughput
// database's, shared with these containers: JSON [{"name", "storage_gb", "demand_ru"}]),
// synthetic (cosmos: use the example's synthetic key; or key="hash:/date:/vin:400",
// "concat:/tenantId,month(/orderDate)" in the compare grammar, with separator), autoscale, growth
// and grown-ru, a workload (reads, writes, queries-per-second per second; spread uniform | zipf |
// field with zipf or weight-path), nodes, vnodes, rf (cassandra), view (the
// panels to show, space or comma separated; all tables when absent): tables summary | partitions |
// physical | capacity (cosmos), results | errors (cassandra); charts, each with its table alternative, map
// (the logical → physical map) | histogram (cosmos), ring (cassandra: the ring with the selected
// row's replicas; select="N" picks the N-th row of the first SELECT, 1 by default) | sizing (St term by term),
// top (partitions listed, default 10), height (a CSS length; the body scrolls), readonly (no
// editing controls). compare (cosmos): candidate keys judged side by side on the same data,
// separated by ";" — "/tenantId; /userId; /tenantId,/userId (hierarchical); concat:/tenantId,/date;
// hash:/tenantId:/id:10; random:/tenantId:10" — with queries (the paths each listed query filters
// on, ";" between queries) and growth (a data factor): a table of the engine's comparison and its
// pick (view "compare" shows only it). D3 and the chart styles are fetched only when a chart view is listed.
// Inline data: a child <script type="application/json"> (items) or <script type="text/cql">; with
// data-escaped="html" its "&lt;" and "&amp;" are read as "<" and "&" (the page's snippets write
// text holding "<" that way, so it cannot end the script early).
//
// Each instance has its own worker (web/worker/client.js; nothing here touches the wasm) and starts
// it only once the element scrolls into view; the worker loads only its mode's engine module
// (partplay-cosmos, partplay-cql or partplay-sizing) and the element only its mode's chart module
// (embed/). Every URL (worker, engine, examples) is resolved from
// this module's own URL, so the files work under any base path. Styles live in the shadow root and
// are themed by the custom properties --pp-bg, --pp-fg, --pp-muted, --pp-border, --pp-accent,
// --pp-error, --pp-font, --pp-mono; light and dark follow prefers-color-scheme, unless the host
// page says which with theme="light" or theme="dark" (its own scheme, whatever the OS's).
// The host carries data-state (idle | loading | ready | error), data-engine (off | on) and
// data-runs (finished runs) for tests and for authors' styling. When its worker or engine cannot
// load (a file missing, a page served in place of the .wasm, a Content-Security-Policy that blocks
// the worker or the wasm), it says so in its own box, naming the file's URL, what its server
// answered and what to change (common/load-failure.js), shows the author's fallback content (the
// element's children) below, logs the same to the console and carries data-failure="load".
import {PlaygroundClient} from './worker/client.js';
import {formatBytes, formatInt, formatKey, formatPercent} from './common/format.js';
import {inlineText} from './common/inline-data.js';
import {engineDefault} from './common/limits.js';
import {h, table} from './embed/element-dom.js';
import {constructedSheet, prepareCharts} from './embed/chart-kit.js';

const BASE = new URL('./', import.meta.url);
const DEFAULT_TOP = 10;
/** How long the engine may load before the status says it is still loading, and what to check. */
const STILL_LOADING_MS = 20_000; // lint-ok: a wait shown to the reader
/** A module that did not load, in the words of Chromium, Firefox and Safari. */
const MODULE_FETCH = /dynamically imported module|module script failed|error loading dynamically imported module/i;

const STYLE = `
:host {
  --_bg: var(--pp-bg, #ffffff); --_fg: var(--pp-fg, #1b1f24); --_muted: var(--pp-muted, #555d66);
  --_border: var(--pp-border, #c9ced4); --_accent: var(--pp-accent, #0b5cad); --_error: var(--pp-error, #a4161a);
  --_stripe: var(--pp-stripe, #f3f5f7);
  display: block; box-sizing: border-box; margin: 1em 0; color: var(--_fg); background: var(--_bg);
  border: 1px solid var(--_border); border-radius: 6px; font: 14px/1.45 var(--pp-font, system-ui, sans-serif);
}
@media (prefers-color-scheme: dark) {
  :host(:not([theme="light"])) {
    --_bg: var(--pp-bg, #16191d); --_fg: var(--pp-fg, #e6e8eb); --_muted: var(--pp-muted, #a9b1ba);
    --_border: var(--pp-border, #3a4048); --_accent: var(--pp-accent, #7db4ff); --_error: var(--pp-error, #ff8a8a);
    --_stripe: var(--pp-stripe, #1f2328);
  }
}
:host([theme="dark"]) {
  --_bg: var(--pp-bg, #16191d); --_fg: var(--pp-fg, #e6e8eb); --_muted: var(--pp-muted, #a9b1ba);
  --_border: var(--pp-border, #3a4048); --_accent: var(--pp-accent, #7db4ff); --_error: var(--pp-error, #ff8a8a);
  --_stripe: var(--pp-stripe, #1f2328);
}
:host([hidden]), [hidden] { display: none !important; }
* { box-sizing: border-box; }
header { display: flex; flex-wrap: wrap; gap: .4em 1em; align-items: baseline; padding: .5em .8em;
         border-bottom: 1px solid var(--_border); }
header .title { font-weight: 600; }
header .status { color: var(--_muted); }
.body { padding: .6em .8em; overflow: auto; container-type: inline-size; }
.body:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible {
  outline: 3px solid var(--_accent); outline-offset: 2px; }
form { display: flex; flex-wrap: wrap; gap: .5em; align-items: end; margin-bottom: .6em; }
form label { display: flex; flex-direction: column; font-size: .9em; color: var(--_muted); }
input, textarea, button { font: inherit; color: var(--_fg); background: var(--_bg); border: 1px solid var(--_border);
                          border-radius: 4px; padding: .25em .45em; }
textarea { font-family: var(--pp-mono, ui-monospace, monospace); font-size: .9em; width: min(100%, 48em); }
form label.script { flex: 1 1 100%; }
button { cursor: pointer; border-color: var(--_accent); color: var(--_accent); font-weight: 600; }
button:disabled { cursor: default; opacity: .6; }
button[aria-pressed="true"] { background: var(--_accent); color: var(--_bg); }
dl.summary { display: flex; flex-wrap: wrap; gap: .3em 1.6em; margin: 0 0 .6em; }
dl.summary div { display: flex; flex-direction: column-reverse; }
dl.summary dt { color: var(--_muted); font-size: .85em; }
dl.summary dd { margin: 0; font-size: 1.25em; font-weight: 600; font-variant-numeric: tabular-nums; }
section + section { margin-top: .8em; }
h3 { font-size: 1em; margin: .2em 0 .4em; }
pre.statement { font-family: var(--pp-mono, ui-monospace, monospace); font-size: .85em; margin: .2em 0;
                white-space: pre-wrap; color: var(--_muted); }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin-bottom: .4em; }
caption { text-align: left; color: var(--_muted); font-size: .85em; padding-bottom: .2em; }
th, td { border-bottom: 1px solid var(--_border); padding: .15em .6em .15em 0; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
td.num { white-space: nowrap; }
.table-scroll { max-width: 100%; overflow-x: auto; margin-bottom: .4em; }
.table-scroll > table { margin-bottom: 0; }
tbody tr:nth-child(even) { background: var(--_stripe); }
td.mono, code { font-family: var(--pp-mono, ui-monospace, monospace); font-size: .9em; }
.error { color: var(--_error); }
.load-failure { border-left: 3px solid var(--_error); padding: .1em 0 .1em .7em; }
.fallback { margin-top: .6em; }
.load-failure code { font-family: var(--pp-mono, ui-monospace, monospace); font-size: .9em; overflow-wrap: anywhere; }
.muted { color: var(--_muted); }
p { margin: .3em 0; }
/* A narrow element (a phone): tables a little smaller, values and keys on their line; a table
   still too wide scrolls in its own .table-scroll with its number column (a partition's id, a
   rank) held at the left, so a row is known wherever it is scrolled to. */
@container (max-width: 520px) {
  .table-scroll table { font-size: .88em; }
  th, td { padding-right: .5em; }
  td.mono { white-space: nowrap; }
  .table-scroll td.num:first-child, .table-scroll th.num:first-child {
    position: sticky; left: 0; background: var(--_bg); padding-left: .2em; }
  .table-scroll tbody tr:nth-child(even) td.num:first-child { background: var(--_stripe); }
  .table-scroll caption { position: sticky; left: 0; max-width: calc(100cqw - .2em); }
}
`;

let sheet = null;
/**
 * The shared styles: one constructed sheet (allowed by a strict style-src CSP), else (Safari
 * before 16.4, which has neither) a <style>.
 */
function adoptStyle(root) {
  sheet ??= constructedSheet(STYLE);
  if (sheet) root.adoptedStyleSheets = [sheet];
  else root.append(h('style', {text: STYLE}));
}

const indexCache = new Map();
/** examples/index.json or examples/cql/index.json, fetched once per page. */
function exampleIndex(path) {
  if (!indexCache.has(path)) {
    indexCache.set(path, fetch(new URL(path, BASE)).then((r) => {
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
      return r.json();
    }));
  }
  return indexCache.get(path);
}

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

/**
 * The page's Content-Security-Policy violations for this module's files or a blob: worker
 * ([{directive, blocked}]), watched from the first start: a worker the policy blocks fails with
 * no reason of its own, and the violation says which directive blocked it.
 */
const violations = [];
let watchingViolations = false;
function watchViolations() {
  if (watchingViolations || typeof document === 'undefined') return;
  watchingViolations = true;
  document.addEventListener('securitypolicyviolation', (event) => {
    const blocked = event.blockedURI ?? '';
    if (blocked.startsWith(BASE.origin) || blocked.startsWith('blob')) violations.push({directive: event.effectiveDirective, blocked});
  });
}

/** A sentence with each URL in it as code (text only). */
function withUrls(text) {
  return text.split(/(https?:\/\/[^\s"]+?)(?=[.,;:)]?(?:\s|$))/).map((part, i) => (i % 2 ? h('code', {text: part}) : part));
}

let instances = 0;

export class PartitionPlayground extends HTMLElement {
  static observedAttributes = ['mode', 'example', 'src', 'key', 'hash-version', 'ru', 'nodes', 'vnodes', 'rf',
                               'view', 'height', 'readonly', 'top', 'synthetic', 'select', 'compare', 'queries',
                               'growth', 'created-ru', 'serverless', 'shared-with', 'separator', 'autoscale', 'grown-ru',
                               'reads', 'writes', 'queries-per-second', 'spread', 'zipf', 'weight-path'];

  #client = null;
  #clientDomain = null;  // the engine module of #client: cosmos, cql or sizing
  #observer = null;
  #started = false;
  #runs = 0;
  #ids = ++instances;
  #dom = null;
  #override = {};   // what the reader typed: {key} or {script}
  #rerun = null;
  #charts = [];     // the chart views mounted (embed/chart-figure.js), torn down before each run
  #workerUrl = null;  // the worker script of #client

  connectedCallback() {
    if (!this.shadowRoot) this.#build();
    this.dataset.engine ??= 'off';
    this.dataset.state ??= 'idle';
    this.dataset.runs ??= '0';
    if (this.#started) return;
    if (!('IntersectionObserver' in window)) {
      this.#start();
      return;
    }
    this.#observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.#observer.disconnect();
        this.#observer = null;
        this.#start();
      }
    });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#client?.terminate();
    this.#client = null;
    this.#clearCharts();
    this.#started = false;
    this.dataset.engine = 'off';
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (!this.shadowRoot || oldValue === newValue) return;
    if (name === 'height') this.#applyHeight();
    if (name === 'readonly') this.#dom.form.hidden = this.hasAttribute('readonly');
    if (!this.#started || name === 'height' || name === 'readonly') return;
    clearTimeout(this.#rerun);
    this.#rerun = setTimeout(() => this.#run(), 0);
  }

  /** The mode actually run: sizing falls back to the CQL script when the client has no sizing. */
  get mode() {
    const mode = (this.getAttribute('mode') ?? '').toLowerCase();
    if (mode === 'cassandra' || mode === 'sizing') return mode;
    if (mode === 'cosmos') return 'cosmos';
    return this.querySelector('script[type="text/cql"]') ? 'cassandra' : 'cosmos';
  }

  /** The views listed in the view attribute (lower case), or [] for the default (every table). */
  get views() {
    return (this.getAttribute('view') ?? '').toLowerCase().split(/[\s,]+/).filter(Boolean);
  }

  #shows(name) {
    const views = this.views;
    return views.length === 0 || views.includes(name);
  }

  #clearCharts() {
    for (const chart of this.#charts) chart?.destroy();
    this.#charts = [];
  }

  /** Loads D3, the chart styles and the mode's chart module; mounts the charts draw() returns. */
  async #mountCharts(client, section, load, draw) {
    const [, module] = await Promise.all([prepareCharts(this.#dom.root), load()]);
    if (client !== this.#client) return;
    this.#charts.push(...draw(module, section));
  }

  #build() {
    const root = this.attachShadow({mode: 'open'});
    const title = h('span', {className: 'title', text: 'Partition Playground', attrs: {id: 'title'}});
    const status = h('span', {className: 'status', text: 'Starts when scrolled into view',
                              attrs: {role: 'status', 'aria-live': 'polite'}, testid: 'status'});
    const form = h('form', {attrs: {'aria-label': 'Playground settings'}});
    const body = h('div', {className: 'body', testid: 'body', attrs: {tabindex: '0', role: 'region', 'aria-labelledby': 'title'}});
    const output = h('div', {testid: 'output'});
    body.append(form, output);
    adoptStyle(root);
    root.append(h('header', {}, [title, status]), body);
    this.#dom = {root, title, status, form, body, output};
    form.hidden = this.hasAttribute('readonly');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      this.#override = Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v)]));
      this.#run();
    });
    this.#applyHeight();
  }

  #applyHeight() {
    const height = this.getAttribute('height');
    this.#dom.body.style.maxHeight = height ? (/^\d+$/.test(height) ? `${height}px` : height) : '';
  }

  #setStatus(state, text) {
    this.dataset.state = state;
    this.#dom.status.textContent = text;
    this.#dom.status.classList.toggle('error', state === 'error');
  }

  #start() {
    if (this.#started) return;
    this.#started = true;
    watchViolations();
    this.dataset.engine = 'on';
    this.#run();
  }

  /** The client of the mode's engine module; a mode of another module replaces the worker. */
  #clientForMode() {
    const domain = {cosmos: 'cosmos', cassandra: 'cql', sizing: 'sizing'}[this.mode];
    if (this.#client && this.#clientDomain === domain) return this.#client;
    this.#client?.terminate();
    this.#client = null;
    this.#clientDomain = domain;
    this.#workerUrl = new URL(`./worker/worker.js?domain=${domain}&size=small`, BASE);
    this.#client = new PlaygroundClient({workerUrl: this.#workerUrl});
    return this.#client;
  }

  async #run() {
    if (!this.#started) return;
    delete this.dataset.failure;
    let client;
    try {
      client = this.#clientForMode();
    } catch (error) {
      // A worker the browser refuses at once (a URL or a policy it will not start).
      await this.#loadFailed(error, null);
      return;
    }
    this.#setStatus('loading', 'Loading the engine…');
    // A load that never ends (a stalled connection) is not left as an endless "Loading".
    const slow = setTimeout(() => {
      if (client !== this.#client || this.dataset.state !== 'loading') return;
      this.#setStatus('loading', `Still loading the engine after ${STILL_LOADING_MS / 1000} s: if it never ends, check ` +
        `that ${this.#workerUrl} and the engine's .wasm beside it load (the browser's network panel).`);
    }, STILL_LOADING_MS);
    try {
      try {
        await client.ready;
      } finally {
        clearTimeout(slow);
      }
      const mode = this.mode;
      if (mode === 'cosmos') await this.#runCosmos(client);
      else if (mode === 'sizing' && typeof client.sizeTable === 'function') await this.#runSizing(client);
      else await this.#runCql(client, mode);
      if (client !== this.#client) return;
      this.#runs++;
      this.dataset.runs = String(this.#runs);
    } catch (error) {
      if (client !== this.#client || error?.cancelled) return;
      if (error?.codeName === 'engine_load' || MODULE_FETCH.test(error?.message ?? '')) {
        await this.#loadFailed(error, client);
        return;
      }
      this.#runs++;
      this.dataset.runs = String(this.#runs);
      this.#setStatus('error', 'Failed');
      const where = error?.location ? ` (line ${error.location.line}, column ${error.location.column})` : '';
      this.#dom.output.replaceChildren(h('p', {className: 'error', testid: 'error', text: `${error?.message ?? error}${where}`}));
    }
  }

  /**
   * The worker or the engine did not load: what failed, its URL, what its server answered and what
   * to change, in the element's box above the author's fallback content, and in the console. The
   * engine's own failures arrive worded (worker/engines.js); the worker's are worded here.
   */
  async #loadFailed(error, client) {
    const reason = String(error?.message ?? error ?? '');
    let message = reason;
    const worded = error?.codeName === 'engine_load' && !/^The engine worker failed to start/.test(reason);
    if (!worded) {
      try {
        const {workerStartMessage} = await import('./common/load-failure.js');
        message = await workerStartMessage(error, this.#workerUrl ?? new URL('./worker/worker.js', BASE), violations);
      } catch {
        // The explanation's own module did not load either: the browser's words stay.
      }
    }
    if (client !== this.#client) return;
    this.#runs++;
    this.dataset.runs = String(this.#runs);
    this.dataset.failure = 'load';
    this.#setStatus('error', 'Could not start');
    this.#clearCharts();
    this.#dom.output.replaceChildren(h('section', {className: 'load-failure', testid: 'load-failure', attrs: {role: 'alert'}}, [
      h('h3', {text: 'The playground could not start'}),
      h('p', {className: 'error', testid: 'load-failure-message'}, withUrls(message)),
      h('p', {className: 'muted', text: 'The browser\'s console has the details.'}),
    ]), h('div', {className: 'fallback', testid: 'fallback'}, [h('slot')]));
    console.error(`<partition-playground> could not start: ${message}${message === reason ? '' : `\n(${reason})`}`);
  }

  // --------------------------------------------------------------------------------------------
  // Cosmos DB: the logical partitions of the items, and with ru the physical partitions.

  async #cosmosInput() {
    const inline = this.querySelector('script[type="application/json"]');
    if (inline) return {source: {kind: 'text', text: inlineText(inline.textContent, inline.dataset.escaped), name: 'inline items'}, entry: null};
    const src = this.getAttribute('src');
    if (src) return {source: {kind: 'url', url: new URL(src, document.baseURI).href, name: src}, entry: null};
    const id = this.getAttribute('example') ?? 'orders';
    const entry = (await exampleIndex('examples/index.json')).find((e) => e.id === id);
    if (!entry) throw new Error(`No Cosmos DB example "${id}" in examples/index.json.`);
    return {source: {kind: 'url', url: new URL(`examples/${entry.file}`, BASE).href, name: entry.title}, entry};
  }

  async #runCosmos(client) {
    const {source, entry} = await this.#cosmosInput();
    await client.ready;  // the engine's defaults (engineDefault) arrive with it
    const defaultRu = engineDefault('container').ru_per_second;
    const keyText = this.#override.key ?? this.getAttribute('key') ?? entry?.key ?? '/id';
    // A synthetic key in the CLI's --candidate grammar ("hash:/date:/vin:400", "concat:/a,month(/b)"),
    // read by the engine; else one path or a hierarchical key's paths.
    const spec = keyText.includes(':') ? await client.candidateSpec(keyText.trim()) : null;
    const keyPaths = spec ? spec.key_paths : keyText.split(',').map((s) => s.trim()).filter(Boolean);
    const serverless = this.hasAttribute('serverless');
    const number = (name) => (this.hasAttribute(name) ? Number(this.getAttribute(name)) : undefined);
    const workload = Object.fromEntries([['point_reads_per_second', number('reads')], ['writes_per_second', number('writes')],
      ['queries_per_second', number('queries-per-second')], ['spread', this.getAttribute('spread') ?? undefined],
      ['zipf_exponent', number('zipf')]].filter(([, v]) => v !== undefined));
    const weightPath = this.getAttribute('weight-path') ?? undefined;
    // A container is modelled when one is described: ru (or serverless) shows its physical partitions.
    const ruAttr = serverless ? '' : this.getAttribute('ru');
    const createdRu = this.getAttribute('created-ru');
    const hashVersion = this.getAttribute('hash-version') ?? (keyPaths.length > 1 ? 'multihash' : null);
    let container = null;
    const wantsMap = this.views.includes('map');
    const growth = number('growth');
    if (ruAttr !== null || hashVersion !== null || wantsMap || Object.keys(workload).length || growth > 1) {
      container = {...(entry?.container ?? {})};
      if (serverless) {
        container.serverless = true;
        delete container.ru_per_second;
        delete container.created_ru_per_second;
      } else {
        if (ruAttr !== null) container.ru_per_second = Number(ruAttr);
        if (createdRu !== null) container.created_ru_per_second = Number(createdRu);
        if (!container.ru_per_second) container.ru_per_second = defaultRu;
        const sharedWith = this.getAttribute('shared-with');
        if (sharedWith !== null) {
          // A shared-throughput database: ru is the database's; the others as JSON, read by the engine.
          container.shared_database = true;
          container.shared_with = JSON.parse(sharedWith);
        }
      }
      if (hashVersion !== null) container.hash_version = hashVersion;
      if (this.hasAttribute('autoscale')) container.autoscale = true;
      if (growth > 1) container.growth = growth;
      if (number('grown-ru') > 0) container.grown_ru_per_second = number('grown-ru');
      if (Object.keys(workload).length) container.workload = {...(container.workload ?? {}), ...workload};
    }
    const separator = this.getAttribute('separator');
    const synthetic = spec?.synthetic
      ? {...spec.synthetic, ...(separator !== null ? {separator} : {})}
      : this.hasAttribute('synthetic') && entry?.synthetic ? {separator: '.', ...entry.synthetic} : undefined;
    const base = spec ? spec.key_paths[0] : entry?.key;
    this.#controls(synthetic && !spec ? [] : [{name: 'key', label: 'Partition key path (JSON pointers, comma separated)', value: keyText}]);
    this.#dom.title.textContent = `Cosmos DB · ${entry?.title ?? source.name}`;
    const top = Math.max(1, Number(this.getAttribute('top') ?? DEFAULT_TOP) || DEFAULT_TOP);
    const report = await client.analyze({source, keyPaths: synthetic ? [base] : keyPaths, synthetic, container, weightPath,
                                         maxPartitions: Math.max(top, 100)});
    if (client !== this.#client) return;
    const show = (name) => this.#shows(name);
    const keyLabel = spec?.synthetic ? `synthetic key ${keyText.trim()}`
      : synthetic ? `synthetic key (${entry.key} + ${synthetic.separator} + 1..${synthetic.buckets} from ${synthetic.suffix_path})`
        : keyPaths.join(', ');
    const out = [];
    if (show('summary')) {
      // The page's summary figures (cosmos/summary-figures.js, imported in this mode only), the
      // ones an embed has room for.
      const {summaryFigures} = await import('./cosmos/summary-figures.js');
      if (client !== this.#client) return;
      const all = new Map(summaryFigures(report).map((f) => [f.id, f]));
      const figures = ['items', 'partitions', 'largest', 'gini', 'undefined'].map((id) => all.get(id));
      const layout = report.container?.before;
      if (layout) {
        figures.push({label: 'physical partitions', text: formatInt(layout.ranges.length), value: layout.ranges.length},
                     {label: 'throttled demand', text: formatPercent(layout.throttled_fraction ?? 0),
                      value: layout.throttled_fraction ?? 0, level: layout.throttled_level});
      }
      out.push(h('section', {testid: 'summary'}, [
        h('p', {className: 'muted', text: `Key: ${keyLabel}`}),
        h('dl', {className: 'summary'}, figures.map((f) =>
          h('div', {attrs: {'data-figure': f.label, 'data-level': f.level ?? ''}, testid: `figure-${f.label.replace(/ /g, '-')}`}, [
            h('dt', {text: f.label}),
            h('dd', {text: f.verdict ? `${f.text} (${f.verdict})` : f.text, attrs: {'data-value': String(f.value)}})]))),
      ]));
    }
    if (show('partitions')) {
      const rows = report.partitions.slice(0, top).map((p) => [
        {text: formatKey(p.key), mono: true}, {text: formatInt(p.items), num: true}, {text: formatBytes(p.bytes), num: true}]);
      out.push(h('section', {}, [table(
        `The ${formatInt(rows.length)} largest of ${formatInt(report.partition_count)} logical partitions`,
        ['partition key', {text: 'items', num: true}, {text: 'bytes', num: true}], rows, {testid: 'partitions'})]));
    }
    const layout = report.container?.before;
    if (layout && ruAttr !== null && show('physical')) {
      const rows = layout.ranges.map((r) => [
        {text: r.id, num: true}, {text: formatInt(r.logical_partitions), num: true}, {text: formatInt(r.items), num: true},
        {text: formatBytes(r.bytes), num: true}, {text: formatInt(r.ru_share), num: true},
        {text: formatInt(Math.round(r.demand_ru)), num: true}, {text: formatPercent(r.throttled_fraction ?? 0), num: true}]);
      out.push(h('section', {}, [table(
        `Physical partitions at ${formatInt(layout.ru_per_second)} RU/s: each gets an equal share of the throughput`,
        [{text: 'partition', num: true}, {text: 'logical partitions', num: true}, {text: 'items', num: true},
         {text: 'bytes', num: true}, {text: 'RU/s share', num: true}, {text: 'RU/s demand', num: true},
         {text: 'throttled', num: true}], rows, {testid: 'physical'})]));
    }
    if (layout && ruAttr !== null && show('capacity')) {
      // The service's throughput rules for this container, as the page's container section words
      // them (imported here: the Cassandra and sizing modes never load it).
      const {capacityLines} = await import('./cosmos/capacity-lines.js');
      if (client !== this.#client) return;
      out.push(h('section', {testid: 'capacity'}, [
        h('ul', {className: 'capacity'}, capacityLines(report.container).map(({testid, text}) => h('li', {testid, text})))]));
    }
    this.#clearCharts();
    this.#dom.output.replaceChildren(...out);
    const compare = this.getAttribute('compare');
    if (compare !== null && (this.views.length === 0 || this.views.includes('compare'))) {
      const section = await this.#compareSection(client, compare, container);
      if (client !== this.#client) return;
      this.#dom.output.append(section);
    }
    const charts = ['map', 'histogram'].filter((v) => this.views.includes(v));
    if (charts.length) {
      const section = h('section', {className: 'pp-charts', testid: 'charts'});
      this.#dom.output.append(section);
      await this.#mountCharts(client, section, () => import('./embed/cosmos-views.js'), (views, root) => charts.map((v) =>
        v === 'map' ? views.mountMap(root, report, {keyLabel}) : views.mountHistogram(root, report, {keyLabel})));
      if (client !== this.#client) return;
    }
    this.dataset.partitions = String(report.partition_count);
    this.dataset.items = String(report.items);
    this.#setStatus('ready', `${formatInt(report.items)} items, ${formatInt(report.partition_count)} logical partitions`);
  }

  /** The compare attribute's keys judged on the data just analysed (protocol.js compare). */
  async #compareSection(client, spec, container) {
    // Each key in the CLI's --candidate grammar ("/a", "/a,/b", "concat:/a,/b", "hash:/a:/b:N",
    // "random:/a:N"), read by the engine.
    const keys = await Promise.all(spec.split(';').map((s) => s.trim()).filter(Boolean)
      .map((one) => client.candidateSpec(one)));
    const queries = (this.getAttribute('queries') ?? '').split(';').map((q) => q.trim()).filter(Boolean)
      .map((q) => ({filter: q.split(',').map((p) => p.trim()).filter(Boolean)}));
    const growth = Number(this.getAttribute('growth') ?? 1);
    const defaultRu = engineDefault('container').ru_per_second;
    const model = {...(container ?? {ru_per_second: Number(this.getAttribute('ru') ?? defaultRu) || defaultRu}),
                   growth: Number.isFinite(growth) && growth >= 1 ? growth : 1};
    delete model.route;
    const table_ = await client.compare({keys, container: model, queries});
    const rows = [...table_.keys].sort((a, b) => a.rank - b.rank).map((k) => [
      {text: k.rank, num: true}, {text: k.label, mono: true}, {text: formatInt(k.logical_partitions), num: true},
      {text: formatBytes(k.largest_bytes_after_growth), num: true}, {text: formatInt(k.over_20gb_partitions), num: true},
      {text: formatInt(k.physical_partitions), num: true},
      table_.workload_given ? {text: formatInt(Math.round(k.busiest_demand_ru)), num: true}
        : {text: k.storage_max_over_mean.toFixed(2), num: true},
      {text: `${table_.queries.length - k.fanout_queries} of ${table_.queries.length}`, num: true},
      {text: k.problems.length ? k.problems.join(' ') : 'none'}]);
    const section = h('section', {testid: 'compare'}, [
      h('p', {className: 'why', testid: 'compare-why', text: table_.why}),
      table(`Candidate keys side by side${model.growth > 1 ? `, data ×${formatInt(model.growth)}` : ''}`,
            [{text: 'rank', num: true}, 'key', {text: 'logical partitions', num: true},
             {text: model.growth > 1 ? 'largest after growth' : 'largest', num: true}, {text: 'over 20 GB', num: true},
             {text: 'physical partitions', num: true},
             {text: table_.workload_given ? 'busiest RU/s' : 'fullest ÷ mean', num: true},
             {text: 'queries to one partition', num: true}, 'problems'], rows, {testid: 'compare-table'})]);
    section.dataset.best = table_.best >= 0 ? table_.keys[table_.best].label : '';
    return section;
  }

  // --------------------------------------------------------------------------------------------
  // Cassandra: a CQL script, each SELECT's rows with token and replicas, each error located.

  async #cqlScript() {
    const inline = this.querySelector('script[type="text/cql"]');
    if (inline) return {script: inlineText(inline.textContent, inline.dataset.escaped).replace(/^\s*\n/, ''), title: 'CQL'};
    const src = this.getAttribute('src');
    if (src) return {script: await fetchText(new URL(src, document.baseURI)), title: src};
    const id = this.getAttribute('example') ?? 'uprofile-compound-key';
    const entry = (await exampleIndex('examples/cql/index.json')).find((e) => e.id === id);
    if (!entry) throw new Error(`No CQL example "${id}" in examples/cql/index.json.`);
    return {script: await fetchText(new URL(`examples/cql/${entry.file}`, BASE)), title: entry.title};
  }

  async #runCql(client, mode) {
    const {script: original, title} = await this.#cqlScript();
    const script = this.#override.script ?? original;
    // rf: every keyspace the script creates keeps that many copies (the engine applies it).
    const rf = this.getAttribute('rf');
    const replicationFactor = rf !== null && /^\d+$/.test(rf) && Number(rf) >= 1 ? Number(rf) : undefined;
    this.#controls([{name: 'script', label: 'CQL script', value: this.#override.script ?? original, multiline: true}]);
    this.#dom.title.textContent = `${mode === 'sizing' ? 'Sizing' : 'Cassandra'} · ${title}`;
    const nodes = this.getAttribute('nodes');
    const vnodes = this.getAttribute('vnodes');
    if (nodes !== null || vnodes !== null) {
      await client.ring({ring: {nodes: Number(nodes ?? 3), num_tokens: Number(vnodes ?? 16)}});
    }
    await client.cqlReset();
    const {results, view} = await client.cql({script, replicationFactor});
    if (client !== this.#client) return;
    const names = (view.ring?.nodes ?? []).map((n) => n.name ?? n.address);
    const out = [];
    let selects = 0;
    let errors = 0;
    const listed = this.views;
    const which = listed.length ? listed : null;
    const wantsRing = listed.includes('ring');
    const selectAt = Math.max(1, Number(this.getAttribute('select') ?? 1) || 1);
    const rowButtons = [];
    let firstRows = null;
    results.forEach((result, i) => {
      if (result.kind === 'error') {
        errors++;
        if (which && !which.includes('errors') && !which.includes('results')) return;
        const e = result.error ?? result;
        out.push(h('section', {testid: 'cql-error'}, [
          h('pre', {className: 'statement', text: result.statement ?? ''}),
          h('p', {className: 'error', text: `Line ${e.line ?? result.line}, column ${e.column ?? result.column}: ${e.message ?? result.message}`,
                  attrs: {'data-line': String(e.line ?? result.line), 'data-column': String(e.column ?? result.column)}}),
        ]));
        return;
      }
      if (result.kind !== 'rows') return;
      selects++;
      firstRows ??= result;
      if (which && !which.includes('results')) return;
      const cells = result.cells ?? [];
      const rows = cells.map((row, k) => {
        const p = result.partitions?.[result.row_partition?.[k] ?? -1];
        return [...row.map((c) => ({text: c ?? 'null', mono: true})),
                {text: p?.token ?? '', num: true, mono: true},
                {text: p ? p.replicas.map((n) => names[n] ?? `#${n}`).join(', ') : ''}];
      });
      const tableNode = table(`Statement ${i + 1} (line ${result.line}): ${formatInt(rows.length)} ${rows.length === 1 ? 'row' : 'rows'}`,
                              [...(result.columns ?? []).map((c) => c.name), {text: 'token', num: true}, 'replicas'], rows);
      if (wantsRing) {
        // A button per row (keyboard reachable) shows that row's partition on the ring.
        tableNode.querySelector('thead tr').append(h('th', {text: 'ring', attrs: {scope: 'col'}}));
        tableNode.querySelectorAll('tbody tr').forEach((tr, k) => {
          const token = result.partitions?.[result.row_partition?.[k] ?? -1]?.token ?? null;
          const button = h('button', {text: 'Show', testid: 'select-row', attrs: {type: 'button', 'aria-pressed': 'false',
            'aria-label': `Show the replicas of row ${k + 1} on the ring`}});
          button.dataset.token = token ?? '';
          button.disabled = token === null;
          rowButtons.push(button);
          tr.append(h('td', {}, [button]));
        });
      }
      out.push(h('section', {testid: 'cql-rows'}, [h('pre', {className: 'statement', text: result.statement ?? ''}), tableNode]));
    });
    if (!out.length && !wantsRing) out.push(h('p', {className: 'muted', text: 'The script ran; it has no SELECT.'}));
    this.#clearCharts();
    this.#dom.output.replaceChildren(...out);
    if (wantsRing && view.ring) {
      const section = h('section', {className: 'pp-charts', testid: 'charts'});
      this.#dom.output.append(section);
      // The selection: the select="N"-th row of the first SELECT (rows without a partition skipped).
      const firstTokens = (firstRows?.cells ?? []).map((_, k) => firstRows.partitions?.[firstRows.row_partition?.[k] ?? -1]?.token)
        .filter((t) => t !== undefined);
      const partitionAt = (token) => view.layout?.partitions?.find((p) => p.token === token) ?? null;
      await this.#mountCharts(client, section, () => import('./embed/cassandra-views.js'), (views, root) => {
        let ring = null;
        const select = (partition) => {
          ring?.destroy();
          ring = views.mountRing(root, view, {selected: partition, onSelect: (p) => select(partitionAt(p.token))});
          this.#charts = [ring];
          for (const b of rowButtons) b.setAttribute('aria-pressed', String(!!partition && b.dataset.token === partition.token));
          this.dataset.selectedToken = partition?.token ?? '';
          this.dataset.selectedReplicas = (partition?.replicas ?? []).join(',');
        };
        for (const b of rowButtons) b.addEventListener('click', () => select(partitionAt(b.dataset.token)));
        select(partitionAt(firstTokens[Math.min(selectAt, firstTokens.length) - 1] ?? null));
        return [];
      });
      if (client !== this.#client) return;
    }
    this.dataset.selects = String(selects);
    this.dataset.errors = String(errors);
    this.#setStatus('ready', `${selects} SELECT${selects === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}`);
  }

  // --------------------------------------------------------------------------------------------
  // Sizing: a CQL table's partition size from the schema and estimates, every term of Nv and St.

  async #runSizing(client) {
    let request;
    let title;
    const inline = this.querySelector('script[type="text/cql"]');
    if (inline || this.getAttribute('src')) {
      const {script} = await this.#cqlScript();
      request = {cql: script, table: this.getAttribute('table') ?? '',
                 rows_per_partition: this.getAttribute('rows-per-partition') ?? '1'};
      title = request.table;
    } else {
      const id = this.getAttribute('example') ?? 'hotel';
      const entry = (await exampleIndex('examples/cql/sizing.json')).find((e) => e.id === id);
      if (!entry) throw new Error(`No sizing example "${id}" in examples/cql/sizing.json.`);
      const {id: _id, title: entryTitle, file, description: _d, ...rest} = entry;
      request = {cql: await fetchText(new URL(`examples/cql/${file}`, BASE)), ...rest};
      title = entryTitle;
    }
    const rows = this.#override.rows ?? this.getAttribute('rows-per-partition');
    if (rows) request.rows_per_partition = /^\d+$/.test(rows) ? Number(rows) : rows;
    const rf = this.getAttribute('rf');
    if (rf !== null && /^\d+$/.test(rf)) request.replication_factor = Number(rf);
    this.#controls([{name: 'rows', label: 'Rows per partition (a number or a product, e.g. 100*730)',
                     value: String(request.rows_per_partition)}]);
    this.#dom.title.textContent = `Sizing · ${title}`;
    const report = await client.sizeTable(request);
    if (client !== this.#client) return;
    // The same sections as the page's Sizing view draws (embed/sizing-views.js), the mode's module.
    const views = await import('./embed/sizing-views.js');
    if (client !== this.#client) return;
    const t = report.average.terms;
    const all = this.views.length === 0;
    const out = [views.renderSizingSummary(report)];
    if (all || this.views.includes('terms')) out.push(views.renderSizingTerms(report));
    const findings = views.renderSizingFindings(report.average);
    if (findings) out.push(findings);
    const options = all || this.views.includes('options') ? views.renderSizingOptions(report) : null;
    if (options) out.push(options);
    this.#clearCharts();
    this.#dom.output.replaceChildren(...out);
    if (this.views.includes('sizing')) {
      const section = h('section', {className: 'pp-charts', testid: 'charts'});
      this.#dom.output.insertBefore(section, this.#dom.output.children[1] ?? null);
      await this.#mountCharts(client, section, () => import('./embed/sizing-views.js'),
                              (views, root) => [views.mountSizing(root, report)]);
      if (client !== this.#client) return;
    }
    this.dataset.nv = String(t.nv);
    this.dataset.st = String(t.st_bytes);
    this.#setStatus('ready', `Nv ${formatInt(t.nv)}, St ${formatBytes(t.st_bytes)}`);
  }

  /** The editing controls (hidden with readonly): labelled fields and a Run button. */
  #controls(fields) {
    const form = this.#dom.form;
    form.hidden = this.hasAttribute('readonly') || fields.length === 0;
    if (form.dataset.fields === fields.map((f) => f.name).join()) return;
    form.dataset.fields = fields.map((f) => f.name).join();
    form.replaceChildren(...fields.map((f) => {
      const id = `pp${this.#ids}-${f.name}`;
      const input = f.multiline ? h('textarea', {attrs: {rows: '8', spellcheck: 'false'}}) : h('input', {attrs: {type: 'text'}});
      input.id = id;
      input.name = f.name;
      input.value = f.value;
      const label = h('label', {className: f.multiline ? 'script' : '', attrs: {for: id}}, [h('span', {text: f.label}), input]);
      return label;
    }), h('button', {text: 'Run', attrs: {type: 'submit'}}));
  }
}

if (!customElements.get('partition-playground')) customElements.define('partition-playground', PartitionPlayground);
