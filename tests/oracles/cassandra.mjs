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
