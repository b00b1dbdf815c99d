// Murmur3Partitioner tokens of tuple, user-defined type and duration values, partplay's (the
// native CLI) against npm cassandra-driver's encoders (lib/encoder.js) and Murmur3Tokenizer:
// tuples and durations through `partplay token --types` (a duration cannot be a key column, but
// its serialization is hashed the same way), user-defined types through a `partplay cql` script
// (CREATE TYPE, a table keyed by the frozen type, SELECT token(k)). Values are generated with
// null components, missing fields, nested tuples, and durations of either sign.
//
// TOKENS_SEED and TOKENS_COUNT (values per type, default 300) change the run; PARTPLAY_CLI points
// at another build of the CLI.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';

import {driverToken, driverTypes, encode} from '../oracles/cassandra.mjs';
import {CLI} from './helpers.mjs';
import {cliTokens, cqlValues} from './cql-values.mjs';

const SEED = Number(process.env.TOKENS_SEED ?? 0x7A5E1);
const COUNT = Number(process.env.TOKENS_COUNT ?? 300);
const cli = process.env.PARTPLAY_CLI ?? CLI;
const dt = driverTypes.dataTypes;

const {int, int32, bigint, double, text, cqlString} = cqlValues(SEED);

// Sometimes null: the driver encodes a null component as length -1, as partplay does.
function maybeNull(generate) {
  return int(5) === 0 ? {value: null, literal: 'null'} : generate();
}

test('tuple keys match cassandra-driver', () => {
  const type = {code: dt.tuple, info: [{code: dt.int}, {code: dt.varchar}, {code: dt.bigint},
    {code: dt.tuple, info: [{code: dt.double}, {code: dt.varchar}]}]};
  const rows = [], expected = [];
  for (let i = 0; i < COUNT; ++i) {
    const a = maybeNull(int32), b = maybeNull(text), c = maybeNull(bigint), d = double(), e = maybeNull(text);
    const value = new driverTypes.Tuple(a.value, b.value, c.value, new driverTypes.Tuple(d.value, e.value));
    rows.push([`(${a.literal}, ${b.literal}, ${c.literal}, (${d.literal}, ${e.literal}))`]);
    expected.push(driverToken(encode(value, type)));
  }
  const ours = cliTokens('frozen<tuple<int, text, bigint, tuple<double, text>>>', rows);
  assert.deepEqual(ours, expected);
});

test('duration serializations hash as cassandra-driver encodes them', () => {
  const rows = [], expected = [];
  for (let i = 0; i < COUNT; ++i) {
    // Cassandra's durations keep one sign for months, days and nanoseconds.
    const sign = int(2) ? -1 : 1;
    const months = int(2 ** (1 + int(31))), days = int(2 ** (1 + int(31)));
    const nanos = BigInt(int(2 ** 31)) * BigInt(int(2 ** (1 + int(31))));
    const value = new driverTypes.Duration(sign * months, sign * days,
        driverTypes.Long.fromString((BigInt(sign) * nanos).toString()));
    let literal;
    if (int(2)) {
      literal = `${sign < 0 ? '-' : ''}${months}mo${days}d${nanos}ns`;
    } else {
      // ISO 8601: years and months, weeks-free days, then hours/minutes/seconds only when the
      // nanoseconds are whole seconds: rebuild the value from what the literal says.
      const y = Math.floor(months / 12), mo = months % 12;
      literal = `${sign < 0 ? '-' : ''}P${y}Y${mo}M${days}D`;
      const isoValue = new driverTypes.Duration(sign * months, sign * days, driverTypes.Long.ZERO);
      rows.push([literal]);
      expected.push(driverToken(encode(isoValue, {code: dt.duration})));
      continue;
    }
    rows.push([literal]);
    expected.push(driverToken(encode(value, {code: dt.duration})));
  }
  const ours = cliTokens('duration', rows);
  assert.deepEqual(ours, expected);
});

test('user-defined type keys match cassandra-driver', () => {
  const point = {code: dt.udt, info: {name: 'point', fields: [
    {name: 'lat', type: {code: dt.double}}, {name: 'lon', type: {code: dt.double}}]}};
  const address = {code: dt.udt, info: {name: 'address', fields: [
    {name: 'street', type: {code: dt.varchar}},
    {name: 'zip', type: {code: dt.int}},
    {name: 'at', type: point},
    {name: 'tags', type: {code: dt.tuple, info: [{code: dt.varchar}, {code: dt.bigint}]}}]}};
  let script = `CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE ks;
CREATE TYPE point (lat double, lon double);
CREATE TYPE address (street text, zip int, at frozen<point>, tags tuple<text, bigint>);
CREATE TABLE t (k frozen<address> PRIMARY KEY, i int);
`;
  const expected = new Map();
  const seen = new Set();
  for (let i = 0; i < COUNT; ++i) {
    const street = maybeNull(text), zip = maybeNull(int32), lat = double(), lon = double();
    const tag = text(), count = bigint();
    const value = {street: street.value, zip: zip.value, at: {lat: lat.value, lon: lon.value},
      tags: new driverTypes.Tuple(tag.value, count.value)};
    // A field left out of the literal is null, as the driver writes an absent property.
    const fields = [];
    if (street.value !== null) fields.push(`street: ${street.literal}`);
    if (zip.value !== null || int(2)) fields.push(`zip: ${zip.literal}`);
    fields.push(`at: {lat: ${lat.literal}, lon: ${lon.literal}}`, `tags: (${tag.literal}, ${count.literal})`);
    const token = driverToken(encode(value, address));
    if (seen.has(token)) continue;
    seen.add(token);
    expected.set(i, token);
    script += `INSERT INTO t (k, i) VALUES ({${fields.join(', ')}}, ${i});\n`;
  }
  script += 'SELECT i, token(k) FROM t;\n';
  const r = spawnSync(cli, ['cql', '--format', 'cqlsh', '-'], {input: script, encoding: 'utf8', maxBuffer: 1 << 26});
  assert.equal(r.status, 0, `partplay cql failed (${r.status}): ${r.stderr}`);
  const ours = new Map();
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\s*\|\s*(-?\d+)\s*$/.exec(line);
    if (m) ours.set(Number(m[1]), m[2]);
  }
  assert.equal(ours.size, expected.size);
  for (const [i, token] of expected) assert.equal(ours.get(i), token, `row ${i}`);
});
