// A batch's partitions as the engine reports them (StatementResult.batch: each partition's token
// and replicas) against npm cassandra-driver: its Murmur3 tokens over its own encoders, and the
// replicas its token-aware routing computes from the same ring (tests/oracles/cassandra.mjs),
// for SimpleStrategy and NetworkTopologyStrategy over random vnode rings of two datacenters with
// at least as many racks as replicas each. With fewer racks than replicas in a datacenter the
// driver's mapper is wrong (one list of skipped hosts for every datacenter: it can place a dc1
// node as a dc2 replica), so there the reference is Cassandra's algorithm written out from
// NetworkTopologyStrategy.java (cassandraNtsReplicas).
//
// BATCH_SEED changes the run.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {cassandraNtsReplicas, compositeKey, driverReplicaPlacement, driverToken, encode} from '../oracles/cassandra.mjs';
import {loadEngine} from './helpers.mjs';

const SEED = Number(process.env.BATCH_SEED ?? 0xBA7C4);
const {engine} = await loadEngine('cql');

// A small deterministic generator (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RUNS = [
  {replication: {class: 'SimpleStrategy', options: {replication_factor: '3'}}, dc2Racks: 1, oracle: 'driver'},
  {replication: {class: 'NetworkTopologyStrategy', options: {dc1: '2', dc2: '2'}}, dc2Racks: 2, oracle: 'driver'},
  {replication: {class: 'NetworkTopologyStrategy', options: {dc1: '2', dc2: '2'}}, dc2Racks: 1, oracle: 'cassandra'},
];

for (const [r, {replication, dc2Racks, oracle}] of RUNS.entries()) {
  test(`batch partitions: tokens and ${replication.class} replicas (dc2 of ${dc2Racks} rack${dc2Racks > 1 ? 's' : ''}) ` +
       `match ${oracle === 'driver' ? 'cassandra-driver' : 'Cassandra\'s algorithm'}`, () => {
    const next = random(SEED + r);
    const session = engine.createCqlSession();
    try {
      session.configureRing({num_tokens: 8, random_tokens: true, seed: 1 + Math.floor(next() * 1000),
                             datacenters: [{name: 'dc1', nodes: 4, racks: 2}, {name: 'dc2', nodes: 3, racks: dc2Racks}]});
      const options = Object.entries(replication.options).map(([k, v]) => `'${k}': ${v}`).join(', ');
      let script = `CREATE KEYSPACE ks WITH replication = {'class': '${replication.class}', ${options}};\n` +
        'USE ks; CREATE TABLE t (k int, c int, PRIMARY KEY (k, c));\n' +
        'CREATE TABLE u (a text, b bigint, v int, PRIMARY KEY ((a, b)));\n';
      const expected = new Map();  // "table token" -> key bytes
      script += 'BEGIN UNLOGGED BATCH\n';
      for (let i = 0; i < 60; ++i) {
        const k = Math.floor(next() * 2 ** 32) - 2 ** 31;
        script += `  INSERT INTO t (k, c) VALUES (${k}, ${i});\n`;
        expected.set(`ks.t ${driverToken(encode(k, 'int'))}`, true);
        const a = `key-${Math.floor(next() * 1e9)}`, b = BigInt(Math.floor(next() * 2 ** 52)) - 2n ** 51n;
        script += `  UPDATE u SET v = ${i} WHERE a = '${a}' AND b = ${b};\n`;
        expected.set(`ks.u ${driverToken(compositeKey([encode(a, 'text'), encode(b, 'bigint')]))}`, true);
      }
      script += 'APPLY BATCH;';
      const results = session.execute(script).results;
      const batch = results.at(-1);
      assert.equal(batch.kind, 'void', JSON.stringify(batch.error));
      assert.equal(batch.verb, 'BATCH');
      assert.equal(batch.batch.partitions.length, expected.size);
      assert.deepEqual(new Set(batch.batch.partitions.map((p) => `${p.table} ${p.token}`)), new Set(expected.keys()));
      // Cassandra's warnings: the size (IMutation.dataSize, Cassandra 4.1: per update a 21-byte static
      // row and 8 bytes of deletion info; a row of t: clustering 4 + liveness 8 + deletion 13; a
      // row of u: liveness 8 + deletion 13 + the cell of v, 16 + 4), then an unlogged batch across
      // more than 10 partition keys.
      const size = 60 * (29 + 4 + 8 + 13) + 60 * (29 + 8 + 13 + 20);
      assert.deepEqual(batch.warnings, [
        `Batch for [ks.t, ks.u] is of size ${size}, exceeding specified threshold of 5120 by ${size - 5120}.`,
        `Unlogged batch covering ${expected.size} partitions detected against tables ` +
        '[ks.t, ks.u]. You should use a logged batch for atomicity, or asynchronous writes for performance.']);
      const ring = session.ring('ks');
      const placement = oracle === 'driver' ? driverReplicaPlacement(ring, replication)
                                            : (token) => cassandraNtsReplicas(ring, replication.options, token);
      for (const p of batch.batch.partitions) {
        const theirs = placement(p.token);
        // The primary replica first; the driver's walk may order the other datacenters' replicas
        // differently, so the rest compare as sets.
        assert.equal(p.replicas[0], theirs[0], `${p.table} ${p.token}`);
        assert.deepEqual([...p.replicas].sort(), [...theirs].sort(), `${p.table} ${p.token}`);
      }
    } finally {
      session.dispose();
    }
  });
}
