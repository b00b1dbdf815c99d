// The reference for Cassandra tokens in tests: npm cassandra-driver's Murmur3Tokenizer over its
// own type encoders, plus the one rule the driver skips (a token equal to Long.MIN_VALUE is
// Long.MAX_VALUE in Cassandra's Murmur3Partitioner). Tokens are decimal strings.
//
//   import {driverToken, encode, compositeKey} from '../oracles/cassandra.mjs';
//   driverToken(encode('hello', 'text'));                        // '-...'
//   driverToken(compositeKey([encode('a', 'text'), encode(1, 'int')]));
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The driver's exports map only exposes its entry point: require its modules by file path.
const require = createRequire(import.meta.url);
const driverLib = path.join(repo, 'node_modules/cassandra-driver/lib');
const {Murmur3Tokenizer} = require(path.join(driverLib, 'tokenizer.js'));
const Encoder = require(path.join(driverLib, 'encoder.js'));
export const driverTypes = require(path.join(driverLib, 'types/index.js'));

const encoder = new Encoder(4, {encoding: {useBigIntAsLong: true, useBigIntAsVarint: true}});
const tokenizer = new Murmur3Tokenizer();
export const LONG_MIN = '-9223372036854775808';
export const LONG_MAX = '9223372036854775807';

/** The native-protocol bytes of `value` as CQL type `type` (the driver's encoder). */
export function encode(value, type) {
  return encoder.encode(value, type);
}

/** Cassandra's token of a serialized partition key. */
export function driverToken(buffer) {
  const token = tokenizer.hash(buffer).getValue().toString();
  return token === LONG_MIN ? LONG_MAX : token;
}

/** A composite partition key: per component a 2-byte big-endian length, the bytes, then 0x00. */
export function compositeKey(buffers) {
  const parts = [];
  for (const b of buffers) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(b.length);
    parts.push(length, b, Buffer.from([0]));
  }
  return Buffer.concat(parts);
}

const Metadata = require(path.join(driverLib, 'metadata/index.js'));
const schemaParsers = require(path.join(driverLib, 'metadata/schema-parser.js'));

/**
 * The driver's replica placement (its token-aware routing: Metadata.buildTokens and
 * getReplicas) over a ring given as partplay's CqlSession.ring() answer. `replication` is
 * {class: 'SimpleStrategy'|'NetworkTopologyStrategy', options: {replication_factor | dc: n}}.
 * Returns (token string) => node indexes, in the driver's order.
 */
export function driverReplicaPlacement(ring, replication) {
  const hosts = ring.nodes.map((n, i) => ({index: i, address: n.address, datacenter: n.datacenter,
                                           rack: n.rack, tokens: []}));
  for (const t of ring.tokens) hosts[t.node].tokens.push(t.token);
  const metadata = new Metadata({maxPrepared: 16}, null);
  metadata.log = () => {};
  metadata.setPartitioner('org.apache.cassandra.dht.Murmur3Partitioner');
  metadata.buildTokens({values: () => hosts});
  const parser = schemaParsers.getByVersion({}, null, null, [4, 0]);
  metadata.keyspaces.ks = parser._createKeyspace('ks', true,
      `org.apache.cassandra.locator.${replication.class}`, replication.options, false);
  return (token) => metadata.getReplicas('ks', metadata.tokenizer.parse(token)).map((h) => h.index);
}

/**
 * Cassandra 4.x NetworkTopologyStrategy.calculateNaturalReplicas, written out from its source
 * (DatacenterEndpoints: per datacenter, a new rack is always taken; a node of a rack already
 * taken only while `rf - racks` repeats remain), over a ring given as CqlSession.ring(). The
 * driver's own mapper shares one list of skipped hosts across datacenters, so with a datacenter
 * of fewer racks than its replication factor it can count another datacenter's node; this is
 * the reference for those rings. `rfs`: {dc: n}. Returns node indexes in walk order.
 */
export function cassandraNtsReplicas(ring, rfs, token) {
  const tokens = ring.tokens;
  const nodes = ring.nodes;
  let i = tokens.findIndex((t) => BigInt(t.token) >= BigInt(token));
  if (i < 0) i = 0;
  const dcs = new Map();
  for (const [dc, rf] of Object.entries(rfs)) {
    const inDc = nodes.filter((n) => n.datacenter === dc);
    const racks = new Set(inDc.map((n) => n.rack)).size;
    const wanted = Math.min(Number(rf), inDc.length);
    dcs.set(dc, {left: wanted, repeats: wanted - racks, racks: new Set()});
  }
  const out = [];
  for (let k = 0; k < tokens.length && [...dcs.values()].some((d) => d.left > 0); k++) {
    const node = tokens[(i + k) % tokens.length].node;
    const d = dcs.get(nodes[node].datacenter);
    if (!d || d.left <= 0 || out.includes(node)) continue;
    if (!d.racks.has(nodes[node].rack)) {
      d.racks.add(nodes[node].rack);
    } else if (d.repeats > 0) {
      d.repeats--;
    } else {
      continue;
    }
    d.left--;
    out.push(node);
  }
  return out;
}
