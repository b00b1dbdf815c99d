#!/usr/bin/env node
// What each mode of the embeddable element loads, and what the full page loads before its first
// analysis shows: raw and gzip (node:zlib, level 9) bytes, followed from the entry modules.
//
//   node scripts/size-report.mjs [--root build/site] [--json]
//
// The element module (partition-playground.js) and the worker (worker/worker.js, which the client
// starts) are followed through their static imports and `new URL('./x.js', import.meta.url)`;
// a dynamic import('./y') is followed only when it belongs to the mode: the worker loads one
// engine module per domain (engine/partplay-cosmos.mjs, partplay-cql-element.mjs, partplay-sizing.mjs;
// web/worker/worker.js), whose glue fetches the .wasm of the same name, and
// the worker imports the handler modules of its domain's requests (worker/handlers/index.js), and
// the element imports its mode's chart views (embed/<mode>-views.js) only when a chart view is
// listed, with D3 (vendor/d3.min.js) and charts.css (embed/chart-kit.js). Each mode is reported
// twice: tables only, and with its charts. The full page (index.html) counts its stylesheet, D3,
// app.js and its imports, the worker with the Cosmos DB engine built for speed
// (partplay-cosmos-fast), examples/index.json and the first
// example, which it analyses on load. Prints a table, then (with --json) one JSON line.
import {existsSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {gzipSync} from 'node:zlib';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let root = join(repo, 'build', 'site');
let json = false;
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--root') root = resolve(process.argv[++i]);
  else if (arg.startsWith('--root=')) root = resolve(arg.slice(7));
  else if (arg === '--json') json = true;
  else {
    console.error(`size-report.mjs: unknown argument ${arg}`);
    process.exit(2);
  }
}

/** The budget of one element's mode, gzip, wasm included (issue 14). */
const BUDGET = 300 * 1024;

/** Relative specifiers of a JS file: {static: [...], dynamic: [...]}. */
function specifiers(text) {
  const found = {static: new Set(), dynamic: new Set()};
  const staticPatterns = [
    // Minified too: `import{a as b}from"./x.js"` has no spaces.
    /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g,
    /\bexport\s*[\w$*{}\s,]+?\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    /new\s+URL\(\s*['"](\.{1,2}\/[^'"?]+\.m?js)(?:\?[^'"]*)?['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const pattern of staticPatterns) for (const m of text.matchAll(pattern)) found.static.add(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.dynamic.add(m[1]);
  return found;
}

/** Every file loaded from `entries`: static imports always, dynamic ones when `wanted(path)`. */
function follow(entries, wanted) {
  const files = new Set();
  const queue = entries.map((f) => join(root, f));
  while (queue.length) {
    const file = queue.shift();
    if (files.has(file)) continue;
    if (!existsSync(file)) {
      console.error(`size-report.mjs: missing ${relative(root, file)} (run \`make site\` first)`);
      process.exit(1);
    }
    files.add(file);
    if (!/\.m?js$/.test(file) || file.endsWith('d3.min.js')) continue;
    const {static: always, dynamic} = specifiers(readFileSync(file, 'utf8'));
    for (const spec of always) queue.push(resolve(dirname(file), spec));
    for (const spec of dynamic) {
      const target = resolve(dirname(file), spec);
      if (wanted(relative(root, target))) queue.push(target);
    }
    // An Emscripten glue module fetches the wasm of its own name.
    const wasm = file.replace(/\.mjs$/, '.wasm');
    if (file.includes(`${join(root, 'engine')}/partplay`) && existsSync(wasm)) queue.push(wasm);
  }
  return [...files];
}

const cache = new Map();
function measure(file) {
  if (!cache.has(file)) {
    const bytes = readFileSync(file);
    cache.set(file, {file: relative(root, file), kind: file.endsWith('.wasm') ? 'wasm' : 'other', raw: bytes.length,
                     gzip: gzipSync(bytes, {level: 9}).length});
  }
  return cache.get(file);
}
const sum = (rows) => ({raw: rows.reduce((s, r) => s + r.raw, 0), gzip: rows.reduce((s, r) => s + r.gzip, 0),
                        wasmGzip: rows.filter((r) => r.kind === 'wasm').reduce((s, r) => s + r.gzip, 0)});

const ELEMENT = ['partition-playground.js', 'worker/worker.js'];
/** The engine's JS wrapper, which the worker imports to load its domain's module. */
const API = 'engine/partplay-api.mjs';
const CHART_EXTRAS = ['vendor/d3.min.js', 'charts.css'];
const MODES = [
  // lazy: what the element imports in that mode only (partition-playground.js).
  {mode: 'cosmos', domain: 'cosmos', engine: 'engine/partplay-cosmos.mjs', views: 'embed/cosmos-views.js',
   lazy: ['cosmos/capacity-lines.js', 'cosmos/summary-figures.js']},
  {mode: 'cassandra', domain: 'cql', engine: 'engine/partplay-cql-element.mjs', views: 'embed/cassandra-views.js', lazy: []},
  {mode: 'sizing', domain: 'sizing', engine: 'engine/partplay-sizing.mjs', views: 'embed/sizing-views.js', lazy: []},
];
// The worker imports a handler module on its first request (worker/handlers/index.js): a mode
// loads the modules of its domain's request types (protocol.js REQUESTS), as the site has them.
const {REQUESTS} = await import(pathToFileURL(join(root, 'worker/protocol.js')).href);
const {LAZY_HANDLERS} = await import(pathToFileURL(join(root, 'worker/handlers/index.js')).href);
const handlerModules = (domain) => new Set(REQUESTS.filter((e) => e.domain === domain && LAZY_HANDLERS[e.type])
  .map((e) => `worker/handlers/${LAZY_HANDLERS[e.type][0]}.js`));

const report = {modes: [], page: null};
for (const {mode, domain, engine, views, lazy} of MODES) {
  const handlers = handlerModules(domain);
  for (const charts of [false, true]) {
    const wanted = (path) => path === API || path === engine || handlers.has(path) || lazy.includes(path) ||
      (charts && path === views);
    const files = follow([...ELEMENT, ...(charts ? CHART_EXTRAS : [])], wanted).map(measure);
    report.modes.push({mode, charts, files, total: sum(files)});
  }
}

// The full page before its first analysis: index.html's stylesheet and scripts, the worker with the
// Cosmos DB engine, the examples index and the first example.
const html = readFileSync(join(root, 'index.html'), 'utf8');
const pageEntries = ['index.html', ...[...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1])
  .filter((p) => !/^[a-z]+:/.test(p) && existsSync(join(root, p)) && !p.endsWith('.svg')), 'worker/worker.js'];
const examples = JSON.parse(readFileSync(join(root, 'examples', 'index.json'), 'utf8'));
if (examples[0]?.file) pageEntries.push('examples/index.json', join('examples', examples[0].file));
const pageHandlers = handlerModules('cosmos');
const pageFiles = follow(pageEntries, (path) => path === API || path === 'engine/partplay-cosmos-fast.mjs' ||
                                               pageHandlers.has(path)).map(measure);
report.page = {files: pageFiles, total: sum(pageFiles)};

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`what each mode loads (${relative(process.cwd(), root) || '.'}), gzip -9; budget per element mode ${kb(BUDGET)}`);
const width = 34;
const line = (name, raw, gzip, wasm, note = '') =>
  console.log(`${name.padEnd(width)}  ${raw.padStart(10)}  ${gzip.padStart(10)}  ${wasm.padStart(12)}  ${note}`);
line('', 'raw', 'gzip', 'of it wasm');
for (const m of report.modes) {
  const t = m.total;
  line(`element, ${m.mode}${m.charts ? ', with charts' : ', tables'}`, kb(t.raw), kb(t.gzip), kb(t.wasmGzip),
       t.gzip <= BUDGET ? 'within budget' : 'OVER BUDGET');
}
line('full page, before its first analysis', kb(report.page.total.raw), kb(report.page.total.gzip),
     kb(report.page.total.wasmGzip));
// Where wasm SIMD does not run (Safari before 16.4), every mode loads this one module instead of
// its own (wasm/partplay-api.mjs createEngine): a fallback, outside the element budget.
const nosimd = ['engine/partplay-nosimd.mjs', 'engine/partplay-nosimd.wasm'].map((f) => measure(join(root, f)));
report.nosimd = sum(nosimd);
line('no wasm SIMD: the engine, any mode', kb(report.nosimd.raw), kb(report.nosimd.gzip),
     kb(report.nosimd.wasmGzip), 'a fallback (Safari < 16.4)');
const heaviest = [...report.page.files].sort((a, b) => b.gzip - a.gzip).slice(0, 6);
console.log(`  heaviest: ${heaviest.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}`);
if (json) console.log(JSON.stringify(report));
