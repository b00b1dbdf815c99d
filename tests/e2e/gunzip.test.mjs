// The worker's gzip reader (web/worker/gunzip.js) in Node, which has the browsers' streams and
// DecompressionStream: gzip is known by its first two bytes however the source is cut into
// chunks, the bytes out are the file's, the compressed bytes are counted, other input passes
// untouched, and a truncated or corrupt stream ends in the io error naming the source with how
// far it got (never a short read). No browser: the page's paths are in gzip-input.test.mjs.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {gunzipSync, gzipSync} from 'node:zlib';
import {examplesDir} from './harness.mjs';
import {gunzipIfCompressed, isGzip} from '../../web/worker/gunzip.js';

const gz = readFileSync(join(examplesDir, 'cosmos-export.json.gz'));
const json = gunzipSync(gz);

/** A raw source of `bytes` cut into pieces of `size` bytes. */
function source(bytes, size) {
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += size) yield new Uint8Array(bytes.subarray(at, at + size));
  }
  return {bytesTotal: bytes.length, chunks: chunks()};
}

const ioError = async (message) => Object.assign(new Error(message), {codeName: 'io'});

async function readAll(input) {
  const parts = [];
  for await (const chunk of input.chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

test('gzip is recognised by its first bytes however the chunks are cut, and decompressed', async () => {
  assert.ok(isGzip(gz));
  assert.ok(!isGzip(json));
  const small = gzipSync(json.subarray(0, 3000));
  for (const [bytes, size] of [[small, 1], [small, 2], [small, 3], [gz, 4096], [gz, gz.length]]) {
    const input = await gunzipIfCompressed(source(bytes, size), {name: 'export.json.gz', ioError});
    assert.equal(input.bytesTotal, null, 'the decompressed size is not known before the end');
    const out = await readAll(input);
    assert.ok(out.equals(gunzipSync(bytes)), `chunks of ${size}`);
    assert.deepEqual(input.compressed, {bytesRead: bytes.length, bytesTotal: bytes.length});
  }
});

test('other input passes as it is, with its own total', async () => {
  for (const bytes of [json, Buffer.from('{'), Buffer.alloc(0), Buffer.from([0x1f])]) {
    const input = await gunzipIfCompressed(source(bytes, bytes.length > 100 ? 4096 : 1), {name: 'x.json', ioError});
    assert.equal(input.compressed, null);
    assert.equal(input.bytesTotal, bytes.length);
    assert.ok((await readAll(input)).equals(bytes));
  }
});

test('a truncated, corrupt or wrongly checksummed gzip is an io error naming the source', async () => {
  const cases = {
    cut: gz.subarray(0, gz.length >> 1),
    crc: Buffer.from(gz).fill(0, gz.length - 8, gz.length - 4),
    method: Buffer.concat([gz.subarray(0, 2), Buffer.from([7]), gz.subarray(3)]),
  };
  for (const [name, bytes] of Object.entries(cases)) {
    const input = await gunzipIfCompressed(source(bytes, 1000), {name: `${name}.json.gz`, ioError});
    await assert.rejects(readAll(input), (e) => {
      assert.equal(e.codeName, 'io');
      assert.match(e.message, new RegExp(`^${name}\\.json\\.gz is not valid gzip: .+ \\(it stopped after [\\d.]+ K?B of [\\d.]+ KB of gzip, [\\d.]+ K?B decompressed\\)\\.$`));
      return true;
    }, name);
  }
});

test('an error reading the source itself is reported as it is', async () => {
  const failing = {bytesTotal: 100, chunks: (async function* () {
    yield new Uint8Array(gz.subarray(0, 50));
    throw Object.assign(new Error('The file could not be read'), {codeName: 'io'});
  })()};
  const input = await gunzipIfCompressed(failing, {name: 'f.json.gz', ioError});
  await assert.rejects(readAll(input), /^Error: The file could not be read$/);
});
