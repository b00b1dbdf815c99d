// Parts and their merge through the wasm module (issue 11, the page's several workers): an input
// cut where engine.splitPoints says, or at seeded item boundaries, analysed part by part
// (engine.newAnalysisPart; the first merged in memory, the others as partial bytes) and merged
// (engine.mergePartials) reports exactly what one pass reports, field for field, and throws the
// error one pass throws (code, message, byte offset, line, column, item index) on every
// bad-input class.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {before, test} from 'node:test';

import {ROOT, examples, loadEngine} from './helpers.mjs';

let engine;
let PartplayError;
before(async () => {
  ({engine, api: {PartplayError}} = await loadEngine());
});

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

// Item boundaries of NDJSON bytes (offsets after a newline between '}' and '{').
function boundaries(bytes) {
  const text = Buffer.from(bytes).toString('latin1');
  const out = [];
  const re = /\}[ \t\r]*\n[ \t\r\n]*(?=\{)/g;
  let m;
  while ((m = re.exec(text))) out.push(m.index + m[0].indexOf('\n') + 1);
  return out;
}

function pickCuts(bytes, count, next) {
  const all = boundaries(bytes);
  const chosen = new Set();
  while (chosen.size < Math.min(count, all.length)) chosen.add(all[Math.floor(next() * all.length)]);
  return [...chosen].sort((a, b) => a - b);
}

/** Feeds `bytes` in pieces of seeded sizes (chunk edges anywhere). */
function feedPieces(target, bytes, next) {
  for (let at = 0; at < bytes.length;) {
    const n = 1 + Math.floor(next() * 5000);
    target.feed(bytes.subarray(at, Math.min(bytes.length, at + n)));
    at += n;
  }
}

/** {report} or {error} of `run`, the error as plain data (code, message, location). */
function outcome(run) {
  try {
    return {report: run()};
  } catch (e) {
    if (!(e instanceof PartplayError)) throw e;
    return {error: e.toJSON()};
  }
}

function onePass(bytes, options, reportOptions) {
  return outcome(() => engine.analyzeBytes(bytes, options, reportOptions));
}

/**
 * Part 0 in memory ({first}), every other part as partial bytes, merged in order; idRecords
 * false as the page makes them (pageWay below).
 */
function inParts(bytes, options, cuts, reportOptions, next = rng(1), {idRecords = true, sizes = []} = {}) {
  const edges = [0, ...cuts, bytes.length];
  const parts = [];
  try {
    for (let k = 0; k + 1 < edges.length; k++) {
      const part = engine.newAnalysisPart(options, {first: k === 0, idRecords});
      parts.push(part);
      try {
        feedPieces(part, bytes.subarray(edges[k], edges[k + 1]), next);
        if (k === 0) part.finish();
      } catch (e) {
        if (!(e instanceof PartplayError)) throw e;  // the part keeps its error for the merge
      }
    }
    const partials = parts.map((part, k) => {
      if (k === 0) return part;
      const bytesOut = part.finishPartial();
      sizes.push(bytesOut.length);
      assert.ok(bytesOut instanceof Uint8Array && bytesOut.byteOffset === 0 &&
                bytesOut.buffer.byteLength === bytesOut.length, 'a partial owns its buffer (transferable)');
      return bytesOut.buffer;  // as it arrives from another worker
    });
    return outcome(() => {
      const merged = engine.mergePartials(partials);
      try {
        return merged.finish(reportOptions);
      } finally {
        merged.dispose();
      }
    });
  } finally {
    for (const part of parts) part.dispose();
  }
}

/** A merge of parts without id records that meets an id repeated across them. */
const unnamedRepeat = (outcome) => outcome.error?.codeName === 'bad_partial' && /made without id records/.test(outcome.error.message);

/**
 * The page's way (worker.js, client.js): parts keeping their ids' hashes only; a merge that
 * meets an id repeated across parts fails, and the input is read again in one pass.
 * Resolves to {outcome, again}.
 */
function pageWay(bytes, options, cuts, reportOptions) {
  const hashed = inParts(bytes, options, cuts, reportOptions, rng(1), {idRecords: false});
  if (!unnamedRepeat(hashed)) return {outcome: hashed, again: false};
  return {outcome: onePass(bytes, options, reportOptions), again: true};
}

function checkParts(name, bytes, options, cuts, reportOptions = {maxPartitions: -1}) {
  const one = onePass(bytes, options, reportOptions);
  const many = inParts(bytes, options, cuts, reportOptions);
  const what = `${name} ${JSON.stringify(options)} cuts ${cuts.join(',')}`;
  assert.deepEqual(many, one, what);
  const page = pageWay(bytes, options, cuts, reportOptions);
  assert.deepEqual(page.outcome, one, `${what}, the page's way`);
  return {...one, again: page.again};
}

async function splitPoints(bytes, parts, minPartBytes = 1) {
  const reads = [];
  const cuts = await engine.splitPoints({
    size: bytes.length, parts, minPartBytes,
    read: async (offset, length) => {
      reads.push(length);
      return bytes.slice(offset, offset + length);
    },
  });
  return {cuts, reads};
}

test('every example: parts cut by splitPoints and merged report what one pass reports', async () => {
  const next = rng(23);
  for (const example of examples()) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(ROOT, 'examples', example.file)));
    for (const parts of [2, 3, 5]) {
      const {cuts, reads} = await splitPoints(bytes, parts);
      if (example.format === 'ndjson') {
        assert.equal(cuts.length, parts - 1, `${example.id}: ${parts} parts`);
        const all = new Set(boundaries(bytes));
        for (const cut of cuts) assert.ok(all.has(cut), `${example.id}: cut ${cut} is an item boundary`);
      } else {
        assert.deepEqual(cuts, [], `${example.id}: a JSON ${example.format} is one part`);
        if (example.format === 'array') assert.equal(reads.length, 1, 'an array: only its head is read');
      }
      const container = example.container ?? {ru_per_second: 20000};
      checkParts(example.id, bytes, {key_paths: [example.key]}, cuts);
      checkParts(example.id, bytes, {key_paths: ['/id'], discover_items: 50}, cuts);
      checkParts(example.id, bytes, {key_paths: [example.key]}, cuts, {maxPartitions: 30, container});
    }
    if (example.format === 'ndjson') {
      checkParts(example.id, bytes, {key_paths: [example.key], discover_items: -1},
                 pickCuts(bytes, 1 + Math.floor(next() * 9), next));
    }
  }
});

function randomItems(seed, count) {
  const next = rng(seed);
  const pick = (n) => Math.floor(next() * n);
  const weights = ['0.1', '1e16', '-1e16', '3', '0.3', '"x"', '2.5'];
  const lines = [];
  for (let i = 0; i < count; i++) {
    const id = pick(9) === 0 ? String(pick(40)) : `"i${pick(count)}"`;
    const user = pick(11) === 0 ? '{"o":1}' : pick(13) === 0 ? 'null' : `"u${pick(25)}"`;
    let item = pick(17) === 0 ? `{"id":${id},"w":1}`  // no /user: the undefined partition
      : `{"id":${id},"user":${user},"w":${weights[pick(weights.length)]},"n":{"a":${pick(4)}}}`;
    if (pick(7) === 0) item = item.replaceAll(',', ',\n  ');  // pretty-printed over lines
    lines.push(item);
  }
  return new TextEncoder().encode(lines.join(pick(2) ? '\n' : '\r\n') + '\n');
}

test('seeded random inputs and cuts: parts merged = one pass, with every option kept by a part', async () => {
  const agains = [];
  for (let seed = 1; seed <= 8; seed++) {
    const bytes = randomItems(seed, 400);
    const next = rng(seed * 31);
    const optionSets = [
      {key_paths: ['/user'], weight_path: '/w', discover_items: 40},
      {key_paths: ['/id'], weight_path: '/w'},
      {key_paths: ['/n/a', '/user'], discover_items: -1},
      {key_paths: ['/user'], check_ids: false, discover_items: 0},
      {key_paths: ['/user'], synthetic: {kind: 'hash_suffix', buckets: 7, suffix_path: '/id'}},
      {key_paths: ['/user'], synthetic: {kind: 'concat', paths: ['/user', '/n/a'], separator: '-'}},
    ];
    for (const options of optionSets) {
      agains.push(checkParts(`random${seed}`, bytes, options, pickCuts(bytes, 1 + Math.floor(next() * 8), next)).again);
      agains.push(checkParts(`random${seed}`, bytes, options, (await splitPoints(bytes, 2 + (seed % 4))).cuts).again);
    }
  }
  // The page's parts (ids' hashes only) merged, or met an id repeated across them and read the
  // input again: both happen here.
  assert.ok(agains.includes(true) && agains.includes(false), JSON.stringify(agains));
});

test('duplicate ids across parts are found and a missing key is the undefined partition, as in one pass', () => {
  const bytes = new TextEncoder().encode(
    '{"id":"a","k":1}\n{"id":"b","k":1}\n{"id":"a","k":1}\n{"id":"a","k":2}\n{"id":"c"}\n{"id":"a"}\n');
  for (const key of ['/k', '/id']) {
    const {report, again} = checkParts(`dups ${key}`, bytes, {key_paths: [key]}, boundaries(bytes));
    assert.equal(report.items, 6);
    assert.equal(again, true, `${key}: the page's parts cannot name the repeat of "a"`);
    // Made without id records, the parts refuse to merge, naming the first part that holds a
    // repeat (keyed by /k, item 2 of part 3; keyed by /id, too).
    const refused = inParts(bytes, {key_paths: [key]}, boundaries(bytes), {}, rng(1), {idRecords: false});
    assert.deepEqual(refused.error && [refused.error.codeName, refused.error.message],
                     ['bad_partial', 'part 3 holds an id an earlier part holds too, and was made without id ' +
                      'records to name it by: analyse the parts again with records']);
  }
  // One cut after item 2 (whose repeat of item 0 is then inside part 1): keyed by /k, the parts
  // made without records check their pairs only at the merge, so they cannot name that repeat
  // either, and the input is read again.
  const cutAfter = [new TextDecoder().decode(bytes).indexOf('{"id":"a","k":2}')];
  assert.ok(cutAfter[0] > 0);
  const twice = inParts(bytes, {key_paths: ['/k']}, cutAfter, {}, rng(1), {idRecords: false});
  assert.deepEqual(twice.error && [twice.error.codeName, twice.error.message],
                   ['bad_partial', 'part 1 holds an id twice, and was made without id records to name ' +
                    'it by: analyse the parts again with records']);
  const merged = pageWay(bytes, {key_paths: ['/k']}, cutAfter, {maxPartitions: -1});
  assert.equal(merged.again, true);
  assert.deepEqual(merged.outcome, onePass(bytes, {key_paths: ['/k']}, {maxPartitions: -1}));
  // Without the repeat (items 0-1 and 3-5 apart from item 2), they merge at once.
  const text = new TextDecoder().decode(bytes);
  const noRepeat = new TextEncoder().encode(text.replace('{"id":"a","k":1}\n{"id":"a","k":2}', '{"id":"a","k":2}'));
  const held = pageWay(noRepeat, {key_paths: ['/k']}, [cutAfter[0] - '{"id":"a","k":1}\n'.length], {maxPartitions: -1});
  assert.equal(held.again, false);
  assert.deepEqual(held.outcome, onePass(noRepeat, {key_paths: ['/k']}, {maxPartitions: -1}));
  // Without records a part's partial holds its ids' hashes only: smaller.
  const withRecords = [], hashesOnly = [];
  inParts(bytes, {key_paths: ['/k']}, cutAfter, {}, rng(1), {sizes: withRecords});
  inParts(bytes, {key_paths: ['/k']}, cutAfter, {}, rng(1), {idRecords: false, sizes: hashesOnly});
  assert.ok(hashesOnly[0] < withRecords[0], `${hashesOnly} < ${withRecords}`);
  const {report} = onePass(bytes, {key_paths: ['/k']}, {maxPartitions: -1});
  assert.equal(report.duplicate_id.count, 1);
  assert.equal(report.undefined_key_items, 2);
});

test('errors: every bad-input class throws one pass\'s error, located, from the merge', () => {
  const good = randomItems(99, 120);
  const at = boundaries(good)[60];
  const bad = {
    'malformed JSON': '{"id":"x","user":tru}\n',
    'a trailing comma': '{"id":"x","user":"u",}\n',
    'an item that is no object': '{"id":"ok"}\n[1,2]\n',
    'invalid UTF-8': '{"id":"\xff"}\n',
    'a bad escape': '{"id":"\\q"}\n',
    'a raw control character in a string': '{"id":"a\tb"}\n',
    'too deep': `{"a":${'['.repeat(1100)}${']'.repeat(1100)}}\n`,
    'an unclosed object at the end': '{"id":"y",\n',
  };
  for (const [name, item] of Object.entries(bad)) {
    const itemBytes = Buffer.from(item, 'latin1');
    for (const bytes of [Buffer.concat([good.subarray(0, at), itemBytes, good.subarray(at)]),
                         Buffer.concat([good, itemBytes])]) {
      const input = new Uint8Array(bytes);
      const one = onePass(input, {key_paths: ['/user']}, {});
      assert.ok(one.error, `${name}: one pass fails`);
      assert.ok(one.error.location && one.error.location.byte_offset > 0, `${name}: located`);
      // Parts cut at item boundaries, one right before the bad item, others before and after.
      const cuts = [...new Set([...boundaries(input).filter((_, i) => i % 23 === 5), at])]
          .filter((c) => c < input.length).sort((a, b) => a - b);
      assert.ok(cuts.length >= 3);
      const many = inParts(input, {key_paths: ['/user']}, cuts, {});
      assert.deepEqual(many, one, `${name}: the merged error`);
    }
  }
});

test('a corrupt partial is a located bad_partial; a part refuses a random-suffix key', () => {
  const bytes = randomItems(5, 30);
  const part = engine.newAnalysisPart({key_paths: ['/user']});
  part.feed(bytes);
  const partial = part.finishPartial();
  part.dispose();
  const flipped = partial.slice();
  flipped[60] ^= 0x20;
  for (const corrupt of [partial.subarray(0, partial.length - 3), flipped, bytes]) {
    assert.throws(() => engine.mergePartials([corrupt]), (e) => {
      assert.equal(e.codeName, 'bad_partial');
      assert.ok(e.location.byte_offset >= 0 && e.location.byte_offset <= corrupt.length);
      return true;
    });
  }
  const other = engine.newAnalysisPart({key_paths: ['/id']});
  other.feed(bytes);
  assert.throws(() => engine.mergePartials([partial, other.finishPartial()]), /other options/);
  other.dispose();
  assert.throws(() => engine.newAnalysisPart({key_paths: ['/user'],
                                              synthetic: {kind: 'random_suffix', buckets: 4, seed: 1}}),
                PartplayError);
  // A first part is merged in memory only.
  const first = engine.newAnalysisPart({key_paths: ['/user']}, {first: true});
  first.feed(bytes);
  assert.throws(() => first.finishPartial(), /merged in memory/);
  first.dispose();
});

test('splitPoints reads bounded windows and cuts a multi-MB input near its targets', async () => {
  const line = (i) => `{"id":"${i}","userId":"u${i % 977}","pad":"${'p'.repeat(i % 300)}"}\n`;
  const text = Array.from({length: 40000}, (_, i) => line(i)).join('');
  const bytes = new TextEncoder().encode(text);
  const {cuts, reads} = await splitPoints(bytes, 4, 1 << 20);
  assert.equal(cuts.length, 3);
  const all = new Set(boundaries(bytes));
  cuts.forEach((cut) => assert.ok(all.has(cut), `cut ${cut}`));
  // Near the targets (split_points.h): the parts after the first equal (each cut within one item,
  // < 400 bytes, past its target), the first larger (kFirstPartWeightInPage shares to their 1).
  const sizes = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], bytes.length - cuts[2]];
  assert.ok(Math.abs(sizes[1] - sizes[2]) < 800 && Math.abs(sizes[2] - sizes[3]) < 800, `parts ${sizes}`);
  assert.ok(sizes[0] > sizes[1] && sizes[0] < 2 * sizes[1], `parts ${sizes}`);
  assert.ok(Math.max(...reads) <= (1 << 20) + (1 << 13), 'windows of about 1 MiB');
  // Parts of at least the whole input: one part.
  assert.deepEqual((await splitPoints(bytes, 4, bytes.length)).cuts, []);
});
