// The wasm module against the native CLI (same engine code, two compilers, two simdjson kernels)
// and against an independent plain-JS grouping of the same data.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {before, describe, test} from 'node:test';

import {ROOT, cliAnalyze, cliErrorCodes, examples, loadEngine} from './helpers.mjs';

let api;
let engine;
before(async () => {
  ({api, engine} = await loadEngine());
});

/** Analyzes `bytes` in the wasm engine, fed in slices of `chunk` bytes. */
function wasmAnalyze(bytes, keyPaths, chunk = 1 << 20, discover = 10000) {
  const analysis = engine.newAnalysis({key_paths: keyPaths, discover_items: discover});
  try {
    for (let at = 0; at < bytes.length; at += chunk) analysis.feed(bytes.subarray(at, at + chunk));
    return analysis.finish();
  } finally {
    analysis.dispose();
  }
}

function withoutTypedArrays(report) {
  const {partition_bytes: _, ...rest} = report;
  return rest;
}

// Every example, with its suggested key and every candidate path the engine discovers in it.
describe('wasm and native CLI agree on every example', () => {
  for (const example of examples()) {
    test(example.id, () => {
      const file = path.join(ROOT, 'examples', example.file);
      const bytes = new Uint8Array(fs.readFileSync(file));
      const first = cliAnalyze(file, [example.key]);
      assert.equal(first.status, 0, first.stderr);
      const keys = [example.key, ...first.report.candidate_paths.paths.map((p) => p.path)];
      for (const key of new Set(keys)) {
        const native = cliAnalyze(file, [key]).report;
        const wasm = wasmAnalyze(bytes, [key]);
        assert.deepEqual(withoutTypedArrays(wasm), native, `key ${key}`);
        // The typed array holds every partition's size in the same order.
        assert.deepEqual(Array.from(wasm.partition_bytes), native.partitions.map((p) => p.bytes));
        // Small odd-sized chunks give the same answer as one big chunk.
        assert.deepEqual(withoutTypedArrays(wasmAnalyze(bytes, [key], 4093)), native, `key ${key}, 4093-byte chunks`);
      }
    });
  }
});

// No sample (discover 0): past the sample every item takes the validated path (simdjson DOM,
// item_stream.h) in both builds, and the reports still agree, fed whole and in odd chunks.
describe('wasm and native CLI agree on every example through the validated path', () => {
  for (const example of examples()) {
    test(example.id, () => {
      const file = path.join(ROOT, 'examples', example.file);
      const bytes = new Uint8Array(fs.readFileSync(file));
      const native = cliAnalyze(file, [example.key], ['--discover', '0']);
      assert.equal(native.status, 0, native.stderr);
      assert.deepEqual(withoutTypedArrays(wasmAnalyze(bytes, [example.key], 1 << 20, 0)), native.report);
      assert.deepEqual(withoutTypedArrays(wasmAnalyze(bytes, [example.key], 4093, 0)), native.report);
    });
  }
});

// Which reader took the items (analysis.h items_scanned): the scanner settles every item whose
// tracked values it reads exactly, and leaves the others, and the sampled items (every value
// counts), to simdjson's DOM.
test('the scanner takes the plain items and leaves tracked decimals and escapes to the DOM', () => {
  const lines = [];
  for (let i = 0; i < 3000; i++) {
    lines.push(JSON.stringify({id: String(i), userId: `u${i % 7}`, amount: i + 0.5, city: i % 2 ? 'Köln' : 'Paris',
                               esc: i % 3 ? 'plain' : 'tab\there', tags: [i, {x: null}], ok: i % 2 === 0}));
  }
  const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
  const readers = (key, discover) => {
    const analysis = engine.newAnalysis({key_paths: [key], discover_items: discover});
    try {
      analysis.feed(bytes);
      analysis.finish();
      return analysis.readers;
    } finally {
      analysis.dispose();
    }
  };
  assert.deepEqual(readers('/userId', 0), {seen: 3000, validated: 3000, scanned: 3000});
  assert.deepEqual(readers('/city', 100), {seen: 3000, validated: 3000, scanned: 2900});  // UTF-8, no escape
  assert.deepEqual(readers('/ok', 0), {seen: 3000, validated: 3000, scanned: 3000});
  assert.deepEqual(readers('/amount', 0), {seen: 3000, validated: 3000, scanned: 0});  // decimals: the DOM's
  assert.deepEqual(readers('/esc', 0), {seen: 3000, validated: 3000, scanned: 2000});  // "tab\there": the DOM's
  // A part (the page's workers) reads the same way.
  const part = engine.newAnalysisPart({key_paths: ['/userId'], discover_items: 0}, {first: true});
  try {
    part.feed(bytes);
    part.finish();
    assert.deepEqual(part.readers, {seen: 3000, validated: 3000, scanned: 3000});
  } finally {
    part.dispose();
  }
});

test('the parse limit probe counts the documents the analysis counts; bad JSON throws', () => {
  const lines = [];
  for (let i = 0; i < 3000; i++) lines.push(JSON.stringify({id: String(i), userId: `u${i % 7}`, v: [i, {x: null}]}));
  const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
  const {documents, ms} = engine.parseLimit(bytes);
  assert.equal(documents, 3000);
  assert.equal(wasmAnalyze(bytes, ['/userId']).items, documents);
  assert.ok(ms >= 0);
  assert.throws(() => engine.parseLimit(new TextEncoder().encode('{"a":1}\n{"a":tru}\n')),
                (e) => e.codeName === 'malformed_json' && /document 1/.test(e.message));
});

// An independent reading of the same semantics: JSON.parse each NDJSON line and group by the
// typed key value ("5" and 5 differ, 5 and 5.0 do not, a missing key is its own partition).
function jsGroup(text, pointer) {
  const segments = pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const groups = new Map();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let v = JSON.parse(line);
    for (const s of segments) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? v[s] : undefined;
    if (v !== null && typeof v === 'object') continue;  // invalid key: in no partition
    const id = v === undefined ? 'undefined' : `${typeof v}:${String(v)}`;
    const g = groups.get(id) ?? {items: 0, bytes: 0};
    g.items += 1;
    g.bytes += Buffer.byteLength(line.trim());
    groups.set(id, g);
  }
  return groups;
}

function idOf(key) {
  const v = key[0];
  if (v !== null && typeof v === 'object') return 'undefined';
  return `${typeof v}:${String(v)}`;
}

test('partitions match a plain-JS grouping of the NDJSON examples', () => {
  for (const example of examples().filter((e) => e.format === 'ndjson')) {
    const text = fs.readFileSync(path.join(ROOT, 'examples', example.file), 'utf8');
    const report = wasmAnalyze(new TextEncoder().encode(text), [example.key]);
    for (const key of [example.key, ...report.candidate_paths.paths.map((p) => p.path)]) {
      const expected = jsGroup(text, key);
      const got = wasmAnalyze(new TextEncoder().encode(text), [key]);
      assert.equal(got.partition_count, expected.size, `${example.id} ${key}`);
      for (const p of got.partitions) {
        assert.deepEqual({items: p.items, bytes: p.bytes}, expected.get(idOf(p.key)), `${example.id} ${key} ${JSON.stringify(p.key)}`);
      }
    }
  }
});

test('typed keys: "5", 5 and 5.0, and the undefined partition', () => {
  const text = '{"k":"5"}\n{"k":5}\n{"k":5.0}\n{"k":-0}\n{"k":0}\n{"other":1}\n{"k":[1]}\n';
  const r = wasmAnalyze(new TextEncoder().encode(text), ['/k']);
  assert.equal(r.items, 7);
  assert.equal(r.partition_count, 4);  // "5", 5, 0, undefined
  const keys = r.partitions.map((p) => JSON.stringify(p.key)).sort();
  assert.deepEqual(keys, ['["5"]', '[0]', '[5]', '[{}]']);
  assert.equal(r.partitions.find((p) => JSON.stringify(p.key) === '[5]').items, 2);
  assert.equal(r.undefined_key_items, 1);
  assert.equal(r.invalid_key.items, 1);
  assert.equal(r.invalid_key.examples[0].item_index, 6);
  assert.equal(r.invalid_key.examples[0].type, 'array');
});

test('the error-code table is the same in the wasm module and the CLI', () => {
  assert.deepEqual(engine.errorCodes(), cliErrorCodes());
});

describe('bad input throws PartplayError with the same code and location as the CLI', () => {
  const cases = {
    'malformed JSON': '{"a":1}\n{"a":2}\n{"a": tru}\n',
    'not an object': '"just a string"',
    'array element not an object': '[{"a":1}, 42]',
    'invalid UTF-8': '{"a":"\xff"}',
    'empty input': '   \n',
    'truncated': '{"a":1}\n{"a":"unterminated',
    'too deep': '{"a":' + '['.repeat(2000) + ']'.repeat(2000) + '}',
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-wasm-'));
  for (const [name, text] of Object.entries(cases)) {
    test(name, () => {
      const bytes = name === 'invalid UTF-8' ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
      const file = path.join(tmp, 'input.json');
      fs.writeFileSync(file, bytes);
      const native = cliAnalyze(file, ['/a']);
      assert.notEqual(native.status, 0);
      assert.equal(native.status, native.error.code, 'exit code = error code');
      let thrown;
      try {
        wasmAnalyze(new Uint8Array(bytes), ['/a'], 3);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof api.PartplayError, `expected PartplayError, got ${thrown}`);
      assert.equal(thrown.code, native.error.code);
      assert.equal(thrown.codeName, native.error.name);
      assert.equal(thrown.message, native.error.message);
      assert.equal(thrown.location.line, native.error.line);
      assert.equal(thrown.location.column, native.error.column);
      assert.equal(thrown.location.byte_offset, native.error.byte_offset);
    });
  }
  test('malformed JSON is located at line 3, column 7', () => {
    assert.throws(() => wasmAnalyze(new TextEncoder().encode(cases['malformed JSON']), ['/a']),
      (e) => e.code === 11 && e.location.line === 3 && e.location.column === 10 && e.location.item_index === 2);
  });
  test('a bad key path is rejected before any input', () => {
    assert.throws(() => engine.newAnalysis({key_paths: ['userId']}),
      (e) => e instanceof api.PartplayError && e.codeName === 'bad_key_path' && /\/userId/.test(e.message));
  });
});

test('memory stays bounded while 200 MB stream through in 1 MiB chunks', () => {
  // 200 MB of NDJSON over 1,000 keys: the heap must not grow with the input.
  const line = (i) => `{"id":"${i}","k":"key-${i % 1000}","pad":"${'x'.repeat(150)}"}\n`;
  const block = new TextEncoder().encode(Array.from({length: 5000}, (_, i) => line(i)).join(''));
  const analysis = engine.newAnalysis({key_paths: ['/k'], discover_items: 0});
  let fed = 0;
  while (fed < 200e6) {
    analysis.feed(block);
    fed += block.length;
  }
  const report = analysis.finish();
  analysis.dispose();
  assert.equal(report.partition_count, 1000);
  assert.equal(report.input_bytes, fed);
  assert.ok(engine.heapBytes() < 64 * 2 ** 20, `heap ${engine.heapBytes()} bytes for ${fed} bytes of input`);
});
