// Sharded analysis through the native CLI (issue 11): `analyze --jobs N`, and `analyze
// --partial-out` per shard then `merge`, print byte for byte what one pass prints — the report on
// every example and on seeded random inputs cut at seeded item boundaries, and the error (exit
// code, message, location) on every bad-input class. Needs only build/native/partplay.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';

import {CLI, ROOT, examples} from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'partplay-shard-'));

function run(args, input) {
  const r = spawnSync(CLI, args, {encoding: 'utf8', maxBuffer: 1 << 28, input});
  assert.equal(r.signal, null, `partplay died of ${r.signal}`);
  return {status: r.status, stdout: r.stdout, stderr: r.stderr};
}

// splitmix-style seeded choices, so a failure names a reproducible seed.
function rng(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) & 0xffffffffn) / 2 ** 32;
  };
}

// Item boundaries of an NDJSON text (offsets after a newline between '}' and '{').
function boundaries(text) {
  const out = [];
  const re = /\}[ \t\r]*\n[ \t\r\n]*(?=\{)/g;
  let m;
  while ((m = re.exec(text))) out.push(m.index + m[0].indexOf('\n') + 1);
  return out;
}

function writeShards(name, text, cuts) {
  const edges = [0, ...cuts, text.length];
  const files = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const file = path.join(tmp, `${name}.${String(k).padStart(3, '0')}`);
    fs.writeFileSync(file, text.slice(edges[k], edges[k + 1]), 'latin1');
    files.push(file);
  }
  return files;
}

// One pass, --jobs, and shards + merge over the same bytes: all three must print the same.
// `reportArgs` (container options) go to the command that prints: analyze, or merge.
function checkSharded(name, text, analysisArgs, cuts, reportArgs = [], jobs = [2, 3, 7]) {
  const analyzeArgs = [...analysisArgs, ...reportArgs];
  const file = path.join(tmp, `${name}.input`);
  fs.writeFileSync(file, text, 'latin1');
  for (const format of ['json', 'table']) {
    const one = run(['analyze', ...analyzeArgs, '--format', format, '--jobs', '1', file]);
    for (const n of jobs) {
      const many = run(['analyze', ...analyzeArgs, '--format', format, '--jobs', String(n), file]);
      assert.deepEqual(many, one, `${name} ${analyzeArgs.join(' ')} --format ${format} --jobs ${n}`);
    }
    const parts = writeShards(name, text, cuts).map((shard) => {
      const part = `${shard}.part`;
      const r = run(['analyze', ...analysisArgs, '--partial-out', part, shard]);
      assert.ok(fs.existsSync(part), `${part} written (exit ${r.status}: ${r.stderr})`);
      return part;
    });
    const merged = run(['merge', ...reportArgs, '--format', format, ...parts]);
    assert.equal(merged.status, one.status, `${name} merge exit: ${merged.stderr}`);
    assert.equal(merged.stdout, one.stdout, `${name} ${analyzeArgs.join(' ')} merge --format ${format}`);
    assert.equal(merged.stderr, one.stderr, `${name} merge error`);
  }
}

function pickCuts(text, count, next) {
  const all = boundaries(text);
  const chosen = new Set();
  while (chosen.size < Math.min(count, all.length)) chosen.add(all[Math.floor(next() * all.length)]);
  return [...chosen].sort((a, b) => a - b);
}

test('every NDJSON example: --jobs and shards + merge equal one pass', () => {
  const next = rng(17);
  for (const example of examples()) {
    if (example.format !== 'ndjson') continue;
    const text = fs.readFileSync(path.join(ROOT, 'examples', example.file), 'latin1');
    for (const [args, report] of [[['--key', example.key], []],
                                  [['--key', '/id', '--discover', '50'], []],
                                  [['--key', example.key], ['--container', '--ru', '20000']]]) {
      checkSharded(example.id, text, args, pickCuts(text, 1 + Math.floor(next() * 6), next), report);
    }
  }
});

test('a JSON array is analysed in one part by --jobs, with the same report', () => {
  for (const example of examples()) {
    if (example.format === 'ndjson') continue;
    const file = path.join(ROOT, 'examples', example.file);
    const one = run(['analyze', '--key', example.key, '--format', 'json', '--jobs', '1', file]);
    const many = run(['analyze', '--key', example.key, '--format', 'json', '--jobs', '4', file]);
    assert.equal(one.status, 0, one.stderr);
    assert.deepEqual(many, one, example.id);
  }
});

function randomItems(seed, count) {
  const next = rng(seed);
  const pick = (n) => Math.floor(next() * n);
  const weights = ['0.1', '1e16', '-1e16', '3', '0.3', '"x"', '2.5'];
  const lines = [];
  for (let i = 0; i < count; i++) {
    const id = pick(9) === 0 ? String(pick(40)) : `"i${pick(count)}"`;
    const user = pick(11) === 0 ? '{"o":1}' : `"u${pick(25)}"`;
    let item = `{"id":${id},"user":${user},"w":${weights[pick(weights.length)]},"n":{"a":${pick(4)}}}`;
    if (pick(7) === 0) item = item.replaceAll(',', ',\n  ');  // pretty-printed over lines
    lines.push(item);
  }
  return lines.join('\n') + '\n';
}

test('seeded random inputs and cuts: --jobs and shards + merge equal one pass', () => {
  for (let seed = 1; seed <= 6; seed++) {
    const text = randomItems(seed, 300);
    const next = rng(seed * 31);
    for (const args of [['--key', '/user', '--weight', '/w', '--discover', '40'],
                        ['--key', '/id', '--weight', '/w'],
                        ['--key', '/n/a', '--key', '/user', '--discover', 'all']]) {
      checkSharded(`random${seed}`, text, args, pickCuts(text, 1 + Math.floor(next() * 8), next));
    }
  }
});

test('without --jobs a file of two 8 MiB parts or more is cut for the cores: one pass\'s report and error', () => {
  // About 20 MB: the default cuts it on a machine of 2 cores or more (else it is one pass too).
  const text = randomItems(11, 400000);
  assert.ok(text.length > 16 << 20, `${text.length} bytes`);
  const file = path.join(tmp, 'default-jobs.input');
  fs.writeFileSync(file, text, 'latin1');
  for (const format of ['json', 'table']) {
    const args = ['analyze', '--key', '/user', '--weight', '/w', '--format', format];
    const one = run([...args, '--jobs', '1', file]);
    assert.equal(one.status, 0, one.stderr);
    assert.deepEqual(run([...args, file]), one, format);
  }
  // Bytes broken near the end: the default's error is the one pass's, at the same place.
  const bad = text.slice(0, text.length - 200) + '{"id":"x",\n"user":}\n' + text.slice(text.length - 200);
  fs.writeFileSync(file, bad, 'latin1');
  const one = run(['analyze', '--key', '/user', '--format', 'json', '--jobs', '1', file]);
  assert.notEqual(one.status, 0);
  assert.match(one.stderr, /"line":\d{6},/);  // in the second half: the second part's
  assert.deepEqual(run(['analyze', '--key', '/user', '--format', 'json', file]), one);
});

test('errors: the one-pass error with its location, with 1 and N parts', () => {
  const good = randomItems(99, 80);
  const at = boundaries(good)[40];
  const bad = {
    'bad JSON': '{"id":"x","user":tru}\n',
    'an item that is no object': '{"id":"ok"}\n[1,2]\n',
    'invalid UTF-8': '{"id":"\xff"}\n',
    'a bad escape': '{"id":"\\q"}\n',
    'too deep': `{"a":${'['.repeat(1100)}${']'.repeat(1100)}}\n`,
    'an unclosed object': '{"id":"y",\n',
  };
  for (const [name, item] of Object.entries(bad)) {
    for (const text of [good.slice(0, at) + item + good.slice(at), good + item]) {
      const file = path.join(tmp, 'bad.input');
      fs.writeFileSync(file, text, 'latin1');
      const one = run(['analyze', '--key', '/user', '--format', 'json', '--jobs', '1', file]);
      assert.notEqual(one.status, 0, name);
      assert.match(one.stderr, /"byte_offset":\d+,"line":\d+,"column":\d+/, name);
      for (const n of [2, 5]) {
        const many = run(['analyze', '--key', '/user', '--format', 'json', '--jobs', String(n), file]);
        assert.deepEqual(many, one, `${name} --jobs ${n}`);
      }
      // Shards cut at item boundaries, one of them right before the bad item.
      const cuts = [...new Set([...boundaries(text).filter((_, i) => i % 17 === 5), at])]
          .filter((c) => c < text.length).sort((a, b) => a - b);
      const parts = writeShards('bad', text, cuts).map((shard) => {
        run(['analyze', '--key', '/user', '--partial-out', `${shard}.part`, shard]);
        return `${shard}.part`;
      });
      const merged = run(['merge', '--format', 'json', ...parts]);
      assert.deepEqual(merged, one, `${name} merged`);
    }
  }
});

test('duplicate ids across shards are found, as in one pass', () => {
  const text = '{"id":"a","k":1}\n{"id":"b","k":1}\n{"id":"a","k":1}\n{"id":"a","k":2}\n';
  for (const key of ['/k', '/id']) checkSharded(`dups${key.slice(1)}`, text, ['--key', key], boundaries(text));
  const one = run(['analyze', '--key', '/k', '--format', 'json', path.join(tmp, 'dupsk.input')]);
  assert.equal(JSON.parse(one.stdout).duplicate_id.count, 1);
  // --jobs makes parts that keep their ids' hashes only: a part that repeats an earlier part's
  // id makes them read again with records, as the progress line says; without such a repeat
  // they merge at once. (20 items, the last repeating the first: the cut is between them.)
  const again = 'an id repeats across parts; reading the parts again to name it';
  const items = Array.from({length: 20}, (_, i) => `{"id":"x${i}","k":1}\n`).join('');
  const pair = path.join(tmp, 'pair.input');
  fs.writeFileSync(pair, `${items}{"id":"x0","k":1}\n`);
  const single = run(['analyze', '--key', '/k', '--format', 'json', pair]);
  assert.equal(JSON.parse(single.stdout).duplicate_id.count, 1);
  const twice = run(['analyze', '--key', '/k', '--format', 'json', '--jobs', '2', '--progress', pair]);
  assert.equal(twice.stdout, single.stdout);
  assert.ok(twice.stderr.includes(again), twice.stderr);
  const unique = path.join(tmp, 'unique.input');
  fs.writeFileSync(unique, `${items}{"id":"x0","k":2}\n`);
  const once = run(['analyze', '--key', '/k', '--format', 'json', '--jobs', '2', '--progress', unique]);
  assert.equal(once.status, 0);
  assert.ok(once.stderr.includes('2 parts read; merging') && !once.stderr.includes(again), once.stderr);
});

test('merge refuses a corrupt, truncated or foreign partial with a located bad_partial', () => {
  const input = path.join(tmp, 'small.ndjson');
  fs.writeFileSync(input, randomItems(5, 20));
  const part = path.join(tmp, 'small.part');
  assert.equal(run(['analyze', '--key', '/user', '--partial-out', part, input]).status, 0);
  assert.deepEqual(fs.readdirSync(tmp).filter((f) => f.includes('.tmp-')), [], 'no temporary file left');
  const bytes = fs.readFileSync(part);
  const cases = {
    truncated: bytes.subarray(0, bytes.length - 3),
    flipped: Buffer.concat([bytes.subarray(0, 60), Buffer.from([bytes[60] ^ 0x20]), bytes.subarray(61)]),
    foreign: fs.readFileSync(input),
  };
  for (const [name, content] of Object.entries(cases)) {
    const file = path.join(tmp, `${name}.part`);
    fs.writeFileSync(file, content);
    const r = run(['merge', '--format', 'json', file]);
    assert.equal(r.status, 17, `${name}: ${r.stderr}`);
    const error = JSON.parse(r.stderr).error;
    assert.equal(error.name, 'bad_partial', name);
    assert.ok(error.byte_offset >= 0 && error.byte_offset <= content.length, name);
    assert.ok(error.message.startsWith(file), name);
  }
  const other = path.join(tmp, 'other.part');
  run(['analyze', '--key', '/id', '--partial-out', other, input]);
  const mixed = run(['merge', part, other]);
  assert.equal(mixed.status, 17);
  assert.match(mixed.stderr, /part 2 was analysed with other options/);
  assert.equal(run(['merge', '--key', '/a', part]).status, 2, 'merge takes no analysis options');
});
