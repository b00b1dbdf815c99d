#!/usr/bin/env node
// The size of the embed bundle: the files a docs site copies to use <partition-playground>.
//
//   node scripts/size-report.mjs [--root build/site]
//
// The bundle is the element module (partition-playground.js) and every module it imports,
// statically or with import('...'), followed transitively from it and from the worker (worker.js,
// which the client starts), plus the engine's wasm. D3 (vendor/d3.min.js) is counted in the bundle
// only when a bundle file loads it; otherwise it is listed apart as optional (the full page needs
// it, the element does not). Sizes are raw and gzip (node:zlib, level 9). Prints a table, then one
// JSON line: {"files": [...], "js": {raw, gzip}, "wasm": {raw, gzip}, "total": {raw, gzip},
//             "optional": [{file, raw, gzip}], "totalWithOptional": {raw, gzip}}
import {readFileSync, existsSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let root = join(repo, 'build', 'site');
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--root') root = resolve(process.argv[++i]);
  else if (arg.startsWith('--root=')) root = resolve(arg.slice(7));
  else {
    console.error(`size-report.mjs: unknown argument ${arg}`);
    process.exit(2);
  }
}

const ENTRIES = ['partition-playground.js', 'worker/worker.js', 'worker/client.js', 'worker/protocol.js'];
const EXTRA = ['engine/partplay.wasm', 'engine/partplay-api.mjs', 'engine/partplay.mjs'];
const D3 = 'vendor/d3.min.js';

/** Relative module specifiers of a JS file: import ... from './x.js', import('./y.mjs'), new URL('./z.js', import.meta.url). */
function specifiers(text) {
  const found = new Set();
  const patterns = [
    /\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g,
    /\bexport\s+[\w*{}\s,]+\s+from\s+['"](\.{1,2}\/[^'"]+)['"]/g,
    /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
    /new\s+URL\(\s*['"](\.{1,2}\/[^'"]+\.m?js)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.add(m[1]);
  return [...found];
}

const files = new Set();
const queue = [...ENTRIES, ...EXTRA].map((f) => join(root, f));
while (queue.length) {
  const file = queue.shift();
  if (files.has(file)) continue;
  if (!existsSync(file)) {
    console.error(`size-report.mjs: missing ${relative(root, file)} (run \`make site\` first)`);
    process.exit(1);
  }
  files.add(file);
  if (/\.m?js$/.test(file) && !file.endsWith('d3.min.js')) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) queue.push(resolve(dirname(file), spec));
  }
}

const measure = (file) => {
  const bytes = readFileSync(file);
  return {file: relative(root, file), kind: file.endsWith('.wasm') ? 'wasm' : 'js', raw: bytes.length,
          gzip: gzipSync(bytes, {level: 9}).length};
};
const usesD3 = [...files].some((f) => /\.m?js$/.test(f) && readFileSync(f, 'utf8').includes('d3.min.js'));
if (usesD3) files.add(join(root, D3));
const rows = [...files].map(measure).sort((a, b) => a.kind.localeCompare(b.kind) || b.raw - a.raw);
const optional = !usesD3 && existsSync(join(root, D3)) ? [measure(join(root, D3))] : [];

const sum = (list) => ({raw: list.reduce((s, r) => s + r.raw, 0), gzip: list.reduce((s, r) => s + r.gzip, 0)});
const js = sum(rows.filter((r) => r.kind === 'js'));
const wasm = sum(rows.filter((r) => r.kind === 'wasm'));
const total = sum(rows);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const width = Math.max(...rows.map((r) => r.file.length), 12);
const line = (name, raw, gzip) => `${name.padEnd(width)}  ${raw.padStart(10)}  ${gzip.padStart(10)}`;

console.log(`embed bundle (${relative(process.cwd(), root) || '.'})`);
console.log(line('file', 'raw', 'gzip -9'));
for (const r of rows) console.log(line(r.file, kb(r.raw), kb(r.gzip)));
console.log(line('JS total', kb(js.raw), kb(js.gzip)));
console.log(line('wasm total', kb(wasm.raw), kb(wasm.gzip)));
console.log(line('total', kb(total.raw), kb(total.gzip)));
const totalWithOptional = sum([...rows, ...optional]);
for (const r of optional) console.log(line(`${r.file} (optional, not loaded by the element)`, kb(r.raw), kb(r.gzip)));
if (optional.length) console.log(line('total with optional', kb(totalWithOptional.raw), kb(totalWithOptional.gzip)));
console.log(JSON.stringify({files: rows, js, wasm, total, optional, totalWithOptional}));
