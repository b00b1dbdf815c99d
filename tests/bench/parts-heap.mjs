#!/usr/bin/env node
// Where the wasm memory (and time) goes when the page analyses a file in parts (client.js, protocol.js
// "Parts"), step by step, in Node over the page's engine (build/site/engine, cosmos-fast): the
// file cut where the page cuts it (engine.splitPoints), each later part analysed in a fresh
// module as a pool worker does (heap while feeding, after finishPartial, the partial's size),
// then the first part in a fresh module as the page's worker does, held, and merged with the
// partials (heap after the first part, after each addPartial, after merge, after the report). Each
// engine's heap is its wasm memory (its peak; it grows by up to 20%, at most 96 MiB, past what
// was asked, so a figure is the peak in use plus at most that). With --parts 1: one pass
// (engine.newAnalysis), what the page does with one worker.
//
//   node tests/bench/parts-heap.mjs FILE [--parts 2] [--key /id] [--discover 10000] [--id-records 0]
//
// e.g. after `node tests/bench/run-bench.mjs --many 5000000 --only-many`:
//   node tests/bench/parts-heap.mjs bench-data/items-5000000-seed20240611-users50000-v1.ndjson
import fs from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIR = join(repo, 'build/site/engine');
const MIB = 1 << 20;

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const parts = Number(opt('--parts', '2'));
const key = opt('--key', '/id');
// --id-records 0: the parts keep their ids' hashes only, as the page's first try does.
const idRecords = opt('--id-records', '1') !== '0';
const discover = Number(opt('--discover', '10000'));
const file = args[0];
if (!file || !(parts >= 1)) {
  console.error('usage: node tests/bench/parts-heap.mjs FILE [--parts N] [--key /id] [--discover 10000]');
  process.exit(2);
}

const api = await import(pathToFileURL(join(DIR, 'partplay-api.mjs')).href);
const factory = (await import(pathToFileURL(join(DIR, 'partplay-cosmos-fast.mjs')).href)).default;
const wasmBinary = fs.readFileSync(join(DIR, 'partplay-cosmos-fast.wasm'));
const freshModule = () => factory({wasmBinary});
const mb = (bytes) => `${(bytes / MIB).toFixed(1)} MiB`;
const ms = (d) => `${d.toFixed(0)} ms`;
const size = fs.statSync(file).size;
const fd = fs.openSync(file, 'r');
const read = (offset, length) => {
  const b = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
  fs.readSync(fd, b, 0, b.length, offset);
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
};
const options = {key_paths: [key], discover_items: discover};
const feed = (target, begin, end) => {
  for (let at = begin; at < end; at += MIB) target.feed(read(at, Math.min(MIB, end - at)));
};

if (parts === 1) {
  const engine = new api.Engine(await freshModule());
  const analysis = engine.newAnalysis(options);
  const t0 = performance.now();
  feed(analysis, 0, size);
  const fed = engine.heapBytes();
  const t1 = performance.now();
  const report = analysis.finish({maxPartitions: 2000});
  const t2 = performance.now();
  const n = report.partition_count;
  console.log(`one pass: ${report.items} items, ${n} partitions; heap after feeding ${mb(fed)}, after finish ` +
              `${mb(engine.heapBytes())} (${(engine.heapBytes() / n).toFixed(0)} B/partition); feeding ` +
              `${ms(t1 - t0)}, finish and report ${ms(t2 - t1)}`);
  process.exit(0);
}

const cuts = await new api.Engine(await freshModule()).splitPoints({size, parts, minPartBytes: MIB, read});
const edges = [0, ...cuts, size];
console.log(`${file}: ${(size / 1e6).toFixed(1)} MB, key ${key}, ${edges.length - 1} parts (cuts ${cuts.join(', ')})`);
let total = 0;
const partials = [];
for (let k = 1; k < edges.length - 1; k++) {
  const module = await freshModule();
  const part = new api.AnalysisPart(module, options, {idRecords});
  const t0 = performance.now();
  feed(part, edges[k], edges[k + 1]);
  const items = part.itemsSeen;
  const fed = module.HEAPU8.length;
  const t1 = performance.now();
  const partial = part.finishPartial();
  const t2 = performance.now();
  part.dispose();
  const peak = module.HEAPU8.length;
  total += peak;
  console.log(`part ${k} (a pool worker): ${items} items; heap after feeding ${mb(fed)} (${(fed / items).toFixed(0)} B/item), ` +
              `after finishPartial ${mb(peak)} (${(peak / items).toFixed(0)} B/item); its partial ${mb(partial.length)} ` +
              `(${(partial.length / items).toFixed(1)} B/item); feeding ${ms(t1 - t0)}, finishPartial ${ms(t2 - t1)}`);
  partials.push(partial);
}
const module = await freshModule();
const first = new api.AnalysisPart(module, options, {first: true, idRecords});
const firstStarted = performance.now();
feed(first, 0, edges[1]);
const items0 = first.itemsSeen;
first.finish();
const firstMs = performance.now() - firstStarted;
let t = performance.now();
const lap = () => {
  const now = performance.now();
  const d = ms(now - t);
  t = now;
  return d;
};
console.log(`part 0 (the page's worker): ${items0} items, held; heap ${mb(module.HEAPU8.length)} ` +
            `(${(module.HEAPU8.length / items0).toFixed(0)} B/item), ${ms(firstMs)}`);
const raw = new module.Analysis();
raw.addPart(first.raw);
for (const [k, partial] of partials.entries()) {
  const room = raw.partialBuffer(partial.length);
  if (!room.ok) throw new Error(room.error.message);
  module.HEAPU8.set(partial, room.pointer);
  const r = raw.addPartial();
  if (!r.ok) throw new Error(r.error.message);
  console.log(`  addPartial(part ${k + 1}, ${mb(partial.length)}): heap ${mb(module.HEAPU8.length)}, ${lap()}`);
}
const merged = raw.merge();
if (!merged.ok) throw new Error(merged.error.message);
console.log(`  merge(): heap ${mb(module.HEAPU8.length)}, ${lap()}`);
const reply = raw.report(JSON.stringify({max_partitions: 2000, container: null}));
if (!reply.ok) throw new Error(reply.error.message);
const report = JSON.parse(reply.json);
const n = report.partition_count;
total += module.HEAPU8.length;
console.log(`  report: ${n} partitions; heap ${mb(module.HEAPU8.length)}, ${lap()}`);
console.log(`every engine's heap together: ${mb(total)} (${(total / n).toFixed(0)} B/partition)`);
