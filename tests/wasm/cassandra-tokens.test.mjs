// Murmur3Partitioner tokens of `partplay token` (the native CLI, batch mode) against npm
// cassandra-driver itself: lib/encoder.js serializes each generated key value and
// lib/tokenizer.js's Murmur3Tokenizer hashes it. The driver does not apply Cassandra's
// Long.MIN_VALUE -> Long.MAX_VALUE rule (Murmur3Partitioner.getToken), so the test applies it.
//
// Keys of every partition key type: text (ASCII of every length 0..40, hence every tail length,
// and non-ASCII text whose tail bytes are >= 0x80, the sign-extension quirk), int, bigint, uuid,
// timeuuid, boolean, double, timestamp, date, blob, varint, and composite keys (text, int) and
// (uuid, text, bigint), whose serialization is per component a 2-byte length, the bytes, 0x00.
//
// TOKENS_SEED and TOKENS_COUNT (keys per type, default 1000) change the run; PARTPLAY_CLI points
// at another build of the CLI.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';

import {mulberry32} from '../../scripts/prng.mjs';
import {compositeKey, driverToken, driverTypes, encode} from '../oracles/cassandra.mjs';
import {CLI} from './helpers.mjs';

const SEED = Number(process.env.TOKENS_SEED ?? 0xCA55A4D2);
const COUNT = Number(process.env.TOKENS_COUNT ?? 1000);
const cli = process.env.PARTPLAY_CLI ?? CLI;

// --- random values, each as {value for the driver, CQL literal for partplay} ----------------------

const next = mulberry32(SEED);
const int = (n) => Math.floor(next() * n);  // 0 .. n-1
const pick = (array) => array[int(array.length)];

function codePoint() {
  switch (int(8)) {
    case 0: return 0x20 + int(0x5f);                  // printable ASCII
    case 1: return 0x80 + int(0x780);                 // two UTF-8 bytes
    case 2: return pick([0xe9, 0x6771, 0x4eac, 0x3042, 0xac00, 0x20ac, 0xfffd, 0xffff]);
    case 3: {                                          // three bytes, no surrogates
      const c = 0x800 + int(0x10000 - 0x800);
      return c >= 0xd800 && c <= 0xdfff ? 0xe000 + int(0x1000) : c;
    }
    case 4: return 0x1f300 + int(0x300);              // four bytes (emoji)
    case 5: return int(0x20);                         // control characters, NUL included
    default: return 0x61 + int(26);
  }
}

const cqlString = (s) => `'${s.replaceAll("'", "''")}'`;

function text(i) {
  // Every ASCII length 0..40 (all 16 tail lengths), then random text of up to 40 code points.
  let s = '';
  if (i < 41 * 3) {
    for (let k = 0; k < i % 41; ++k) s += String.fromCharCode(0x21 + int(0x5e));
  } else {
    const n = int(41);
    for (let k = 0; k < n; ++k) s += String.fromCodePoint(codePoint());
  }
  return {value: s, literal: cqlString(s)};
}

function bigintValue() {
  const shape = int(4);
  let v;
  if (shape === 0) v = BigInt(int(2000) - 1000);
  else if (shape === 1) v = pick([-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n, 2n ** 31n, -(2n ** 31n) - 1n]);
  else v = BigInt.asIntN(64, (BigInt(Math.floor(next() * 2 ** 32)) << 32n) | BigInt(Math.floor(next() * 2 ** 32)));
  return {value: v, literal: v.toString()};
}

function uuidValue() {
  const u = driverTypes.Uuid.fromString(hexUuid(4));
  return {value: u, literal: u.toString()};
}

function hexUuid(version) {
  let hex = '';
  for (let k = 0; k < 32; ++k) hex += int(16).toString(16);
  hex = hex.slice(0, 12) + version.toString(16) + hex.slice(13, 16) +
      (8 + int(4)).toString(16) + hex.slice(17);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const generators = {
  text,
  int: () => {
    const v = pick([int(200) - 100, (int(2 ** 32) - 2 ** 31) | 0, -(2 ** 31), 2 ** 31 - 1]);
    return {value: v, literal: String(v)};
  },
  bigint: bigintValue,
  uuid: uuidValue,
  timeuuid: () => {
    const u = driverTypes.TimeUuid.fromString(hexUuid(1));
    return {value: u, literal: u.toString()};
  },
  boolean: () => {
    const v = next() < 0.5;
    return {value: v, literal: String(v)};
  },
  double: () => {
    let v;
    switch (int(5)) {
      case 0: v = pick([0, -0, 1, -1, 0.5, Number.MAX_VALUE, Number.MIN_VALUE, Infinity, -Infinity, NaN]); break;
      case 1: v = int(100000) - 50000; break;
      case 2: {
        const view = new DataView(new ArrayBuffer(8));
        view.setUint32(0, Math.floor(next() * 2 ** 32));
        view.setUint32(4, Math.floor(next() * 2 ** 32));
        v = view.getFloat64(0);
        if (Number.isNaN(v)) v = 1.25;
        break;
      }
      default: v = (next() - 0.5) * 10 ** (int(40) - 20);
    }
    let literal;
    if (Number.isNaN(v)) literal = 'NaN';
    else if (v === Infinity) literal = 'Infinity';
    else if (v === -Infinity) literal = '-Infinity';
    else if (Object.is(v, -0)) literal = '-0.0';
    else literal = String(v);  // the shortest text that reads back to the same double
    return {value: v, literal};
  },
  timestamp: () => {
    const ms = int(2) === 0 ? int(2 ** 31) * 1000 - 2 ** 40 : Math.floor((next() - 0.5) * 2 ** 45);
    const date = new Date(ms);
    const year = date.getUTCFullYear();
    // As milliseconds, or as a date string when the year has four digits.
    const literal = int(2) === 0 && year >= 1 && year <= 9999 ? cqlString(date.toISOString()) : String(ms);
    return {value: date, literal};
  },
  date: () => {
    const days = int(2) === 0 ? int(80000) - 40000 : int(2 ** 20) - 2 ** 19;
    const date = new Date(days * 86400000);
    const year = date.getUTCFullYear();
    const value = driverTypes.LocalDate.fromDate(date);
    // A yyyy-mm-dd string, or the raw unsigned day number (epoch = 2^31) for odd years.
    const literal = year >= 1 && year <= 9999 ? cqlString(date.toISOString().slice(0, 10)) : String(2 ** 31 + days);
    return {value, literal};
  },
  blob: () => {
    const bytes = Buffer.alloc(int(41));
    for (let k = 0; k < bytes.length; ++k) bytes[k] = int(256);
    return {value: bytes, literal: '0x' + bytes.toString('hex')};
  },
  varint: () => {
    let v = 0n;
    const digits = 1 + int(40);
    for (let k = 0; k < digits; ++k) v = v * 10n + BigInt(int(10));
    if (int(2) === 0) v = -v;
    return {value: v, literal: v.toString()};
  },
};

function cliTokens(typeList, rows) {
  const input = rows.map((literals) => JSON.stringify(literals)).join('\n') + '\n';
  const r = spawnSync(cli, ['token', '--types', typeList, '--stdin'], {input, encoding: 'utf8', maxBuffer: 1 << 28});
  assert.equal(r.status, 0, `partplay token failed (${r.status}): ${r.stderr}`);
  return r.stdout.trimEnd().split('\n');
}

function check(typeList, keys) {
  const ours = cliTokens(typeList.join(','), keys.map((k) => k.literals));
  assert.equal(ours.length, keys.length);
  for (let i = 0; i < keys.length; ++i) {
    assert.equal(ours[i], keys[i].token,
        `${typeList.join(',')} ${JSON.stringify(keys[i].literals)}: partplay ${ours[i]}, driver ${keys[i].token}`);
  }
}

let total = 0;

for (const [type, generate] of Object.entries(generators)) {
  test(`single-column ${type} keys match cassandra-driver`, () => {
    const keys = [];
    for (let i = 0; i < COUNT; ++i) {
      const {value, literal} = type === 'text' ? generate(i) : generate();
      keys.push({literals: [literal], token: driverToken(encode(value, type))});
    }
    check([type], keys);
    total += keys.length;
  });
}

test('composite (text, int) keys match cassandra-driver', () => {
  const keys = [];
  for (let i = 0; i < COUNT; ++i) {
    const a = text(i);
    const b = generators.int();
    keys.push({
      literals: [a.literal, b.literal],
      token: driverToken(compositeKey([encode(a.value, 'text'), encode(b.value, 'int')])),
    });
  }
  check(['text', 'int'], keys);
  total += keys.length;
});

test('composite (uuid, text, bigint) keys match cassandra-driver', () => {
  const keys = [];
  for (let i = 0; i < COUNT; ++i) {
    const a = uuidValue();
    const b = text(i + 200);
    const c = bigintValue();
    keys.push({
      literals: [a.literal, b.literal, c.literal],
      token: driverToken(compositeKey([encode(a.value, 'uuid'), encode(b.value, 'text'),
        encode(c.value, 'bigint')])),
    });
  }
  check(['uuid', 'text', 'bigint'], keys);
  total += keys.length;
});

test('published vectors', () => {
  // Cassandra's documentation shows token(1) for an int key as -4069959284402364209.
  assert.deepEqual(cliTokens('int', [['1']]), ['-4069959284402364209']);
  assert.equal(driverToken(encode(1, 'int')), '-4069959284402364209');
});

test('at least 10,000 keys were compared', () => {
  if (COUNT >= 1000) assert.ok(total >= 10000, `${total} keys`);
});

test('bad literals fail with their message and the code on exit', () => {
  const r = spawnSync(cli, ['token', '--types', 'int', '--stdin'], {input: '["\'abc\'"]\n["7"]\n', encoding: 'utf8'});
  assert.equal(r.status, 42);
  assert.deepEqual(r.stdout.trimEnd().split('\n'),
      ['error: Invalid STRING constant (abc) for "key1" of type int', driverToken(encode(7, 'int'))]);
});
