// Murmur3Partitioner tokens of Cassandra 5.0 vector keys (a vector may be a primary key column,
// CQLVectorTest), partplay's (the native CLI's `partplay token --types`) against npm
// cassandra-driver 4.10's Vector encoder (lib/encoder.js encodeVector: elements of a fixed-size
// type concatenated, any other element after its unsigned vint length) and Murmur3Tokenizer.
// Values are generated: floats exactly representable as float32, ints and bigints over their
// whole range, text with non-ASCII characters and lengths past one vint byte, smallints (no
// fixed size in Cassandra, so length-prefixed), nested vectors, and a composite key.
//
// TOKENS_SEED and TOKENS_COUNT (values per type, default 300) change the run; PARTPLAY_CLI points
// at another build of the CLI.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {test} from 'node:test';

import {compositeKey, driverToken, driverTypes, encode} from '../oracles/cassandra.mjs';
import {cliTokens, cqlValues} from './cql-values.mjs';

const SEED = Number(process.env.TOKENS_SEED ?? 0x7EC7);
const COUNT = Number(process.env.TOKENS_COUNT ?? 300);
const dt = driverTypes.dataTypes;

const {int32, bigint, smallint, float32, text: anyText} = cqlValues(SEED);
const text = () => anyText({long: true});
const vectorType = (element, dimension) =>
  ({code: dt.custom, customTypeName: 'vector', info: [element, dimension]});

function vectorOf(generate, dimension) {
  const parts = Array.from({length: dimension}, generate);
  return {value: new driverTypes.Vector(parts.map((p) => p.value)),
    literal: `[${parts.map((p) => p.literal).join(', ')}]`};
}

const cases = [
  {cql: 'vector<float, 3>', driver: vectorType({code: dt.float}, 3), generate: float32, dimension: 3},
  {cql: 'vector<int, 5>', driver: vectorType({code: dt.int}, 5), generate: int32, dimension: 5},
  {cql: 'vector<bigint, 2>', driver: vectorType({code: dt.bigint}, 2), generate: bigint, dimension: 2},
  {cql: 'vector<text, 3>', driver: vectorType({code: dt.varchar}, 3), generate: text, dimension: 3},
  {cql: 'vector<smallint, 4>', driver: vectorType({code: dt.smallint}, 4), generate: smallint, dimension: 4},
  {cql: 'vector<vector<float, 2>, 2>', driver: vectorType(vectorType({code: dt.float}, 2), 2),
    generate: () => vectorOf(float32, 2), dimension: 2},
];

for (const c of cases) {
  test(`${c.cql} keys match cassandra-driver`, () => {
    const rows = [], expected = [];
    for (let i = 0; i < COUNT; ++i) {
      const v = vectorOf(c.generate, c.dimension);
      rows.push([v.literal]);
      expected.push(driverToken(encode(v.value, c.driver)));
    }
    assert.deepEqual(cliTokens(c.cql, rows), expected);
  });
}

test('composite keys with a vector component match cassandra-driver', () => {
  const rows = [], expected = [];
  for (let i = 0; i < COUNT; ++i) {
    const v = vectorOf(float32, 2), t = text();
    rows.push([v.literal, t.literal]);
    expected.push(driverToken(compositeKey([encode(v.value, vectorType({code: dt.float}, 2)),
      encode(t.value, {code: dt.varchar})])));
  }
  assert.deepEqual(cliTokens('vector<float, 2>,text', rows), expected);
});
