// The effective partition key of the wasm engine (and a sample through the native CLI) against
// the Cosmos DB JavaScript SDK itself: hashPartitionKey from @azure/cosmos, on seeded random keys
// of every kind — strings of random length and random Unicode (surrogate pairs, lone surrogates,
// control characters, lengths around V1's 100-code-unit cut), integers beyond 2^53, random
// doubles, -0, denormals, booleans, null, undefined — for V1, V2 and MultiHash.
//
// EPK_SEED and EPK_COUNT (keys per version, default 10000) change the run.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {before, describe, test} from 'node:test';

import {mulberry32} from '../../scripts/prng.mjs';
import {CLI, ROOT, loadEngine} from './helpers.mjs';

// The package's exports map only exposes its entry point, so the hashing module is required by
// its file path.
const require = createRequire(import.meta.url);
const {hashPartitionKey} = require(
  path.join(ROOT, 'node_modules/@azure/cosmos/dist/commonjs/utils/hashing/hash.js'));

const SEED = Number(process.env.EPK_SEED ?? 0xC05305DB);
const COUNT = Number(process.env.EPK_COUNT ?? 10000);
const CLI_SAMPLE = 200;

const VERSIONS = {
  '1': {paths: ['/a'], kind: 'Hash', version: 1},
  '2': {paths: ['/a'], kind: 'Hash', version: 2},
  'multihash': {paths: ['/a', '/b', '/c'], kind: 'MultiHash', version: 2},
};

let api;
let engine;
before(async () => {
  ({api, engine} = await loadEngine());
});

// --- random keys ---------------------------------------------------------------------------------

function generator(seed) {
  const next = mulberry32(seed);
  const int = (n) => Math.floor(next() * n);  // 0 .. n-1
  const pick = (array) => array[int(array.length)];
  const u32 = () => Math.floor(next() * 4294967296) >>> 0;
  const view = new DataView(new ArrayBuffer(8));
  const fromBits = (hi, lo) => {
    view.setUint32(0, hi);
    view.setUint32(4, lo);
    return view.getFloat64(0);
  };

  function codePoint() {
    switch (int(12)) {
      case 0: return int(0x20);                       // control characters, NUL included
      case 1: case 2: case 3: return 0x20 + int(0x5f);  // printable ASCII
      case 4: return 0x80 + int(0x780);               // two UTF-8 bytes
      case 5: return pick([0x6771, 0x4eac, 0x3042, 0xac00, 0x20ac, 0xfffd, 0xffff, 0xfeff]);
      case 6: {                                       // three bytes, no surrogates
        const c = 0x800 + int(0x10000 - 0x800);
        return c >= 0xd800 && c <= 0xdfff ? 0xe000 + int(0x1000) : c;
      }
      case 7: case 8: return 0x1f300 + int(0x300);    // emoji: surrogate pairs
      case 9: return 0x10000 + int(0x100000);         // any supplementary plane
      case 10: return pick([0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff]);
      default: return 0x61 + int(26);
    }
  }

  function string() {
    let length;
    const shape = int(10);
    if (shape < 5) length = int(24);
    else if (shape < 8) length = 90 + int(21);        // around V1's 100-code-unit cut
    else if (shape < 9) length = int(300);
    else length = int(2100);
    let s = '';
    if (int(6) === 0) {
      // A surrogate pair straddling code units 99 and 100, or ending just before the cut.
      s = 'x'.repeat(97 + int(4)) + String.fromCodePoint(0x1f600 + int(0x40));
      length = int(5);
    }
    while (s.length < length) s += String.fromCodePoint(codePoint());
    if (int(40) === 0) {
      // A lone surrogate (the SDK's TextEncoder writes U+FFFD for it).
      const at = int(s.length + 1);
      s = s.slice(0, at) + String.fromCharCode(pick([0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d])) +
          s.slice(at);
    }
    return s;
  }

  function number() {
    switch (int(10)) {
      case 0: return int(2001) - 1000;
      case 1: return (next() < 0.5 ? -1 : 1) * Math.floor(next() * 2 ** 53);  // safe integers
      case 2: {
        // integers beyond 2^53, up to the largest double
        const exponent = 53 + int(971);
        return (next() < 0.5 ? -1 : 1) * Math.floor((1 + next()) * 2 ** 52) * 2 ** (exponent - 52);
      }
      case 3: return (next() - 0.5) * 10 ** (int(40) - 20);  // fractions
      case 4: return Math.round((next() - 0.5) * 1e6) / pick([2, 4, 10, 100, 1000]);
      case 5: case 6: {
        // any finite double, denormals included
        let d;
        do d = fromBits(u32(), u32()); while (!Number.isFinite(d));
        return d;
      }
      case 7: return (next() < 0.5 ? -1 : 1) * 2 ** (int(2098) - 1074);  // powers of two
      case 8: return pick([0, -0, 1, -1, 2, -2, 0.5, 5e-324, -5e-324, 2.2250738585072014e-308,
                           Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53,
                           2 ** 53 + 2, 2 ** 64, 1e21, 1e-7, 131072, Number.EPSILON]);
      default: return int(100);
    }
  }

  function value() {
    const kind = int(20);
    if (kind < 9) return string();
    if (kind < 16) return number();
    return [true, false, null, undefined][kind - 16];
  }

  function key(version) {
    if (int(500) === 0) return [];
    const components = version === '1' && int(4) !== 0 ? 1 : 1 + int(3);
    return Array.from({length: components}, value);
  }

  return {key};
}

// JSON text for the key when plain JSON.stringify writes it faithfully.
function plainJson(key) {
  const faithful = key.every((v) => v !== undefined && !Object.is(v, -0) &&
                                    (typeof v !== 'string' || v.isWellFormed()));
  return faithful ? JSON.stringify(key) : null;
}

function describeKey(key) {
  return '[' + key.map((v) => (v === undefined ? 'undefined' : Object.is(v, -0) ? '-0' :
                                typeof v === 'string' && v.length > 120 ?
                                `${JSON.stringify(v.slice(0, 120))}…(${v.length} code units)` :
                                JSON.stringify(v))).join(', ') + ']';
}

// --- the native CLI -------------------------------------------------------------------------------

// The CLI that `make test` builds (PARTPLAY_CLI overrides); null when it cannot run `epk`.
function findCli() {
  const candidate = process.env.PARTPLAY_CLI ?? CLI;
  if (!fs.existsSync(candidate)) return null;
  const r = spawnSync(candidate, ['epk', '--version', '2', '1'], {encoding: 'utf8'});
  return r.status === 0 ? candidate : null;
}

function cliArgument(v) {
  if (v === undefined) return 'undefined';
  if (Object.is(v, -0)) return '-0';
  return JSON.stringify(typeof v === 'string' ? v.toWellFormed() : v);
}

// --- tests -----------------------------------------------------------------------------------------

describe('effective partition key: wasm engine against @azure/cosmos hashPartitionKey', () => {
  for (const [version, definition] of Object.entries(VERSIONS)) {
    test(`version ${version}: ${COUNT} random keys`, (t) => {
      const {key: randomKey} = generator(SEED + version.length * 7919 + version.charCodeAt(0));
      const mismatches = [];
      const counts = {keys: 0, components: 0, viaJsonText: 0, lone: 0, cutPairs: 0};
      for (let i = 0; i < COUNT; ++i) {
        const key = randomKey(version);
        const expected = hashPartitionKey(key, definition);
        const actual = engine.effectivePartitionKey(key, version);
        counts.keys++;
        counts.components += key.length;
        if (key.some((v) => typeof v === 'string' && !v.isWellFormed())) counts.lone++;
        if (typeof key[0] === 'string' && key[0].length > 100 &&
            key[0].charCodeAt(99) >= 0xd800 && key[0].charCodeAt(99) <= 0xdbff) counts.cutPairs++;
        if (actual !== expected) mismatches.push({key: describeKey(key), expected, actual});
        const json = plainJson(key);
        if (json !== null) {
          counts.viaJsonText++;
          const fromText = engine.effectivePartitionKey(json, version);
          if (fromText !== expected) mismatches.push({json, expected, actual: fromText});
        }
      }
      t.diagnostic(`version ${version}: ${counts.keys} keys (${counts.components} components, ` +
                   `${counts.viaJsonText} also as JSON text, ${counts.lone} with a lone surrogate, ` +
                   `${counts.cutPairs} with a pair cut at 100 code units), ` +
                   `${mismatches.length} mismatches`);
      assert.deepEqual(mismatches.slice(0, 5), []);
      assert.equal(counts.keys, COUNT);
    });
  }
});

describe('effective partition key: native CLI against @azure/cosmos', () => {
  test(`partplay epk, ${CLI_SAMPLE} random keys per version`, (t) => {
    const cli = findCli();
    assert.ok(cli, `${CLI} must be built and know the epk command (make cli)`);
    let checked = 0;
    for (const [version, definition] of Object.entries(VERSIONS)) {
      const {key: randomKey} = generator(SEED ^ 0x5a5a5a5a ^ version.charCodeAt(0));
      for (let i = 0; i < CLI_SAMPLE; ++i) {
        let key = randomKey(version);
        if (key.length === 0) key = [null];  // the CLI needs at least one VALUE
        const r = spawnSync(cli, ['epk', '--version', version, '--', ...key.map(cliArgument)],
                            {encoding: 'utf8'});
        assert.equal(r.status, 0, `${describeKey(key)}: ${r.stderr}`);
        assert.equal(r.stdout, hashPartitionKey(key, definition) + '\n', describeKey(key));
        checked++;
      }
    }
    t.diagnostic(`native CLI (${path.relative(ROOT, cli)}): ${checked} keys, all equal`);
  });

  test('partplay epk: literals, -0, undefined, and bad values', (t) => {
    const cli = findCli();
    assert.ok(cli, `${CLI} must be built and know the epk command (make cli)`);
    const run = (...args) => spawnSync(cli, ['epk', ...args], {encoding: 'utf8'});
    const ok = (args, key, version) => {
      const r = run('--version', version, ...args);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, hashPartitionKey(key, VERSIONS[version]) + '\n');
    };
    ok(['"redmond"'], ['redmond'], '1');
    ok(['-0'], [-0], '2');
    ok(['-5.5', 'undefined', 'null', 'true'], [-5.5, undefined, null, true], 'multihash');
    ok(['--', '-1e308'], [-1e308], '1');
    ok(['"東京"', '5'], ['東京', 5], '2');
    for (const bad of [['redmond'], ['[1]'], ['"open'], ['1,2'], ['{"a":1}'], ['1e400']]) {
      const r = run('--version', '2', ...bad);
      assert.equal(r.status, 2, `${bad}: ${r.stderr}`);  // kUsage
      assert.match(r.stderr, /bad VALUE/);
    }
    assert.equal(run('--version', '3', '1').status, 2);
    assert.equal(run('1').status, 2);                   // no --version
    assert.equal(run('--version', '1').status, 2);      // no VALUE
  });
});

describe('effective partition key: the JS API', () => {
  test('documented example and result shape', () => {
    assert.equal(engine.effectivePartitionKey(['redmond'], 2), '22E342F38A486A088463DFF7838A5963');
    assert.equal(engine.effectivePartitionKey('["redmond"]', '2'), '22E342F38A486A088463DFF7838A5963');
    assert.equal(engine.effectivePartitionKey('"redmond"', 'multihash'),
                 hashPartitionKey(['redmond'], VERSIONS.multihash));
    assert.equal(engine.effectivePartitionKey([], 'multihash'), '');
    assert.equal(engine.effectivePartitionKey([undefined, -0], '2'),
                 hashPartitionKey([undefined, -0], VERSIONS['2']));
  });

  test('errors are PartplayError with the engine code', () => {
    const code = (name) => engine.errorCodes().find((c) => c.name === name).code;
    const throwsCode = (fn, name) => assert.throws(fn, (e) => {
      assert.ok(e instanceof api.PartplayError, String(e));
      assert.equal(e.code, code(name));
      assert.equal(e.codeName, name);
      assert.ok(e.message.length > 0);
      return true;
    });
    throwsCode(() => engine.effectivePartitionKey(['a'], '3'), 'bad_option');
    throwsCode(() => engine.effectivePartitionKey('["a", tru]', '2'), 'malformed_json');
    throwsCode(() => engine.effectivePartitionKey('["\\ud800"]', '2'), 'malformed_json');
    throwsCode(() => engine.effectivePartitionKey('[[1]]', '2'), 'bad_option');
    throwsCode(() => engine.effectivePartitionKey('[{"a": 1}]', '1'), 'bad_option');
    throwsCode(() => engine.effectivePartitionKey('', '1'), 'empty_input');
    assert.throws(() => engine.effectivePartitionKey([NaN], '2'), TypeError);
    assert.throws(() => engine.effectivePartitionKey([{a: 1}], '2'), TypeError);
    assert.throws(() => engine.effectivePartitionKey(5, '2'), TypeError);
  });
});
