// .gz input in the native CLI (zlib): `analyze`, `size --data` and `cql` read a gzipped file (or
// stdin) exactly as the uncompressed one, so the report is byte for byte the same and sizes are
// the uncompressed JSON's; a truncated or corrupt .gz is a located io error, not a short read.
// The data: examples/cosmos-export.json.gz (scripts/gen-cosmos-export.mjs), a Cosmos DB export
// with its system properties.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {test} from 'node:test';
import {gunzipSync, gzipSync} from 'node:zlib';

import {CLI, ROOT} from './helpers.mjs';

const gz = path.join(ROOT, 'examples/cosmos-export.json.gz');
const dir = mkdtempSync(path.join(tmpdir(), 'partplay-gz-'));
const plain = path.join(dir, 'cosmos-export.json');
const json = gunzipSync(readFileSync(gz));
writeFileSync(plain, json);

function run(args, input) {
  const r = spawnSync(CLI, args, {input, encoding: 'utf8', maxBuffer: 1 << 28});
  return {status: r.status, stdout: r.stdout, stderr: r.stderr};
}

test('analyze gives the same report for the .gz export, the JSON and gzipped stdin', () => {
  const args = ['analyze', '--key', '/tenantId', '--format', 'json', '--container'];
  const fromJson = run([...args, plain]);
  assert.equal(fromJson.status, 0, fromJson.stderr);
  const fromGz = run([...args, gz]);
  assert.equal(fromGz.status, 0, fromGz.stderr);
  assert.equal(fromGz.stdout, fromJson.stdout);
  const fromStdin = run([...args, '-'], readFileSync(gz));
  assert.equal(fromStdin.stdout, fromJson.stdout);
  // Sizes are the uncompressed JSON's: every item's bytes add up to less than the file, and far
  // more than the compressed file.
  const report = JSON.parse(fromGz.stdout);
  assert.equal(report.items, 1500);
  assert.equal(report.input_bytes, json.length);
  assert.ok(report.bytes > readFileSync(gz).length * 5 && report.bytes < json.length, `bytes ${report.bytes}`);
});

test('size --data reads the .gz export as the JSON', () => {
  const args = ['size', '--data', '--key', '/tenantId', '--format', 'json'];
  const a = run(['size', '--data', plain, '--key', '/tenantId', '--format', 'json']);
  const b = run(['size', '--data', gz, '--key', '/tenantId', '--format', 'json']);
  assert.equal(a.status, 0, a.stderr + args.join(' '));
  assert.equal(b.stdout, a.stdout);
});

test('a gzipped CQL script runs as the script', () => {
  const script = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n" +
      'USE ks; CREATE TABLE t (k int PRIMARY KEY, d duration); INSERT INTO t (k, d) VALUES (1, 1h30m);\n' +
      'SELECT k, d, token(k) FROM t;\n';
  const file = path.join(dir, 'script.cql.gz');
  writeFileSync(file, gzipSync(Buffer.from(script)));
  const r = run(['cql', file]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '{"columns":["k","d","system.token(k)"],"rows":[[1,"1h30m",-4069959284402364209]]}\n');
});

test('a truncated or corrupt .gz is an io error naming the file', () => {
  const bytes = readFileSync(gz);
  const cut = path.join(dir, 'cut.json.gz');
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const r = run(['analyze', '--key', '/tenantId', cut]);
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /cannot read .*cut\.json\.gz: gzip: unexpected end of file/);
  const bad = Buffer.from(bytes);
  bad[bytes.length >> 1] ^= 0xff;
  bad[(bytes.length >> 1) + 1] ^= 0xff;
  const corrupt = path.join(dir, 'corrupt.json.gz');
  writeFileSync(corrupt, bad);
  const c = run(['analyze', '--key', '/tenantId', corrupt]);
  assert.notEqual(c.status, 0);
  assert.match(c.stderr, /corrupt\.json\.gz/);
});
