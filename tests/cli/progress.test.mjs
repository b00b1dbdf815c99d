// Progress on stderr: drawn when stderr is a terminal (a pseudo-terminal here), never through a
// pipe; --progress forces it, --quiet stops it; the line is erased at the end and stdout is the
// same either way.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';

import {ROOT, run, runOnTerminal} from './helpers.mjs';

const FILE = path.join(ROOT, 'examples/orders.ndjson');
const ANALYZE = ['analyze', '--key', '/customerId', FILE];
const ERASE = '\r\x1b[K';
// "partplay analyze: 12.3 KB of 12.3 KB (100%), 40 items, ..."
const LINE = /\rpartplay analyze: [\d.]+ k?B of [\d.]+ k?B \(\d+%\), [\d,]+ items(, [\d.]+ [kMG]?B\/s)?.*?\x1b\[K/i;

/** The progress lines drawn, in order (what each \r starts). */
function drawn(stderr) {
  return stderr.split('\r').filter((s) => s.length > 0).map((s) => s.replace(/\x1b\[K$/, ''));
}

test('analyze on a terminal draws progress lines on stderr and erases them', () => {
  const plain = run(ANALYZE);
  assert.equal(plain.status, 0, plain.stderr);
  const r = runOnTerminal(ANALYZE);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, plain.stdout, 'stdout is the same with a terminal on stderr');
  assert.match(r.stderr, LINE);
  const items = JSON.parse(run(['analyze', '--key', '/customerId', '--format', 'json', FILE]).stdout).items;
  const bytes = fs.statSync(FILE).size;
  const lines = drawn(r.stderr);
  assert.ok(lines.some((l) => l.includes('(100%)') && l.includes(`, ${items.toLocaleString('en-US')} items`)),
            `a line with every byte and item read: ${JSON.stringify(lines)} (${bytes} bytes)`);
  assert.ok(lines.some((l) => l === `partplay analyze: ${items.toLocaleString('en-US')} items read; building the report`), JSON.stringify(lines));
  assert.ok(r.stderr.endsWith(ERASE), `the last thing written erases the line: ${JSON.stringify(r.stderr)}`);
  assert.ok(!r.stderr.includes('\n'), 'no line feed: the line is redrawn in place');
});

test('analyze --jobs 2 on a terminal draws the parts\' progress, summed, then the merge', () => {
  const jobs = ['analyze', '--key', '/customerId', '--jobs', '2', FILE];
  const plain = run(ANALYZE);
  const r = runOnTerminal(jobs);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, plain.stdout, 'the same report as one pass');
  assert.match(r.stderr, LINE);
  const lines = drawn(r.stderr);
  assert.ok(lines.includes('partplay analyze: 2 parts read; merging'), JSON.stringify(lines));
  const items = JSON.parse(run(['analyze', '--key', '/customerId', '--format', 'json', FILE]).stdout).items;
  assert.ok(lines.includes(`partplay analyze: ${items.toLocaleString('en-US')} items read; building the report`),
            JSON.stringify(lines));
  assert.ok(r.stderr.endsWith(ERASE), `the last thing written erases the line: ${JSON.stringify(r.stderr)}`);
  assert.equal(run([...jobs.slice(0, -1), '--quiet', FILE]).stderr, '', 'through a pipe, nothing');
});

test('size --data on a terminal draws progress too', () => {
  const r = runOnTerminal(['size', '--data', FILE, '--key', '/customerId']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /\rpartplay size: .* of .*\(100%\), [\d,]+ items/);
  assert.ok(r.stderr.endsWith(ERASE));
});

test('--quiet on a terminal: no progress', () => {
  const r = runOnTerminal([...ANALYZE.slice(0, -1), '--quiet', FILE]);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
});

test('through a pipe: nothing on stderr', () => {
  for (const args of [ANALYZE, ['size', '--data', FILE, '--key', '/customerId']]) {
    const r = run(args);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', args.join(' '));
  }
  // stdin from a pipe too
  const piped = run(['analyze', '--key', '/customerId', '-'], {input: fs.readFileSync(FILE)});
  assert.equal(piped.status, 0);
  assert.equal(piped.stderr, '');
});

test('--progress through a pipe draws it anyway; from a pipe the total is unknown', () => {
  const r = run([...ANALYZE.slice(0, -1), '--progress', FILE]);
  assert.equal(r.status, 0);
  assert.match(r.stderr, LINE);
  assert.ok(r.stderr.endsWith(ERASE));
  const piped = run(['analyze', '--key', '/customerId', '--progress', '-'], {input: fs.readFileSync(FILE)});
  assert.equal(piped.status, 0);
  assert.match(piped.stderr, /\rpartplay analyze: [\d.]+ k?B read, [\d,]+ items/i);
  assert.equal(piped.stdout, r.stdout);
});

test('an error after progress: the line is erased, then the error printed', () => {
  const r = run(['analyze', '--key', '/id', '--progress', '-'], {input: '{"id": "a"}\n{"id": tru}\n'});
  assert.equal(r.status, 11);
  assert.match(r.stderr, /\r\x1b\[Kpartplay: malformed_json at line 2/);
});

test('cql on a terminal draws the progress of a COPY FROM file, and nothing through a pipe', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-copy-'));
  try {
    const rows = Array.from({length: 20000}, (_, i) => `${i % 97},${i},v${i}`).join('\n');
    fs.writeFileSync(path.join(dir, 'rows.csv'), `k,c,v\n${rows}\n`);
    const script = path.join(dir, 'load.cql');
    fs.writeFileSync(script, `CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c));
COPY ks.t (k, c, v) FROM 'rows.csv' WITH HEADER = TRUE;
SELECT count(*) FROM ks.t;
`);
    const plain = run(['cql', script]);
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(plain.stderr, '');
    const r = runOnTerminal(['cql', script]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, plain.stdout);
    // Redrawn at most 4 times a second: the first line at least, then the step after the reading.
    assert.match(r.stderr, /\rpartplay cql: COPY FROM rows\.csv: [\d.]+ k?B of [\d.]+ k?B \(\d+%\), [\d,]+ lines/i);
    assert.match(r.stderr, /\rpartplay cql: COPY FROM rows\.csv: loading the rows/);
    assert.ok(r.stderr.endsWith(ERASE));
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('merge on a terminal draws progress over its parts, and nothing through a pipe', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-merge-'));
  try {
    const lines = fs.readFileSync(FILE, 'utf8').split('\n').filter(Boolean);
    const half = Math.floor(lines.length / 2);
    const parts = [lines.slice(0, half), lines.slice(half)].map((chunk, i) => {
      const shard = path.join(dir, `shard-${i}.ndjson`);
      fs.writeFileSync(shard, `${chunk.join('\n')}\n`);
      const part = path.join(dir, `shard-${i}.part`);
      const made = run(['analyze', '--key', '/customerId', '--partial-out', part, shard]);
      assert.equal(made.status, 0, made.stderr);
      return part;
    });
    const plain = run(['merge', ...parts]);
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(plain.stderr, '');
    const r = runOnTerminal(['merge', ...parts]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, plain.stdout);
    assert.match(r.stderr, /\rpartplay merge: [\d.]+ k?B of [\d.]+ k?B \(\d+%\), [12] parts/i);
    assert.match(r.stderr, /\rpartplay merge: 2 parts read; merging/);
    assert.ok(r.stderr.endsWith(ERASE));
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});
