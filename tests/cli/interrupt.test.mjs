// Ctrl-C (SIGINT) in the middle of a large analyze: the command ends with status 130
// (interrupted) and leaves no output file, not even its temporary one. The input is an endless
// NDJSON stream on stdin, so the signal always lands mid-read, whatever the machine's speed.
// Also: -o FILE is written whole on success and not at all on an error.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';

import {CLI, ROOT, run} from './helpers.mjs';

const INTERRUPTED = 130;

/** 1 MiB or so of NDJSON items, the n-th block of an endless stream. */
function block(n) {
  let s = '';
  for (let i = 0; s.length < 1 << 20; ++i) {
    s += `{"id":"${n}-${i}","userId":"u${(n * 7919 + i) % 5000}","payload":"${'x'.repeat(40)}"}\n`;
  }
  return s;
}

/**
 * Starts `partplay args` fed an endless stream (or, with `stream` false, reading only its own
 * arguments' files), sends SIGINT once stderr shows progress (so reading is under way), and
 * resolves {code, signal, stdout, stderr, sent} when it has ended.
 */
function interruptMidStream(args, {stream = true} = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, args, {stdio: [stream ? 'pipe' : 'ignore', 'pipe', 'pipe']});
    let stderr = '';
    let sent = false;
    let n = 0;
    const feed = () => {
      while (!child.stdin.destroyed && child.stdin.write(block(n++)));
    };
    if (stream) {
      child.stdin.on('drain', feed);
      child.stdin.on('error', () => {});  // EPIPE once the process has gone
    }
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => { stdout += text; });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      stderr += text;
      if (!sent && stderr.includes('items')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      child.stdin?.destroy();
      resolve({code, signal, stdout, stderr, sent});
    });
    if (stream) feed();
  });
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pp-cli-out-'));
}

test('SIGINT during analyze --jobs 2: every part stops between chunks, status 130, no merge', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'big.ndjson');
  try {
    // 256 MiB: the parts take a good part of a second, and the signal comes at the first
    // progress line, drawn as they start.
    const fd = fs.openSync(file, 'w');
    for (let n = 0; n < 256; ++n) fs.writeSync(fd, block(n));
    fs.closeSync(fd);
    const r = await interruptMidStream(['analyze', '--key', '/userId', '--jobs', '2', '--progress', file],
                                       {stream: false});
    assert.ok(r.sent, 'the signal was sent');
    assert.equal(r.signal, null, 'the process ended by itself');
    assert.equal(r.code, INTERRUPTED, r.stderr);
    assert.match(r.stderr, /stopped by Ctrl-C/);
    // Parts that ignored the flag would finish and merge before the watchdog's half second.
    assert.ok(!r.stderr.includes('merging'), JSON.stringify(r.stderr.slice(-300)));
    assert.equal(r.stdout, '', 'no report');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('SIGINT during analyze -o FILE: status 130, no file left', async () => {
  const dir = tempDir();
  const out = path.join(dir, 'report.json');
  try {
    const r = await interruptMidStream(['analyze', '--key', '/userId', '--format', 'json', '--progress', '-o', out, '-']);
    assert.ok(r.sent, 'the signal was sent');
    assert.equal(r.signal, null, 'the process ended by itself, not killed by the signal');
    assert.equal(r.code, INTERRUPTED, r.stderr);
    assert.match(r.stderr, /\{"error":\{"code":130,"name":"interrupted","message":"stopped by Ctrl-C/);
    assert.deepEqual(fs.readdirSync(dir), [], 'neither the output file nor its temporary file');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('SIGINT during analyze to stdout: status 130 and no report printed', async () => {
  const r = await interruptMidStream(['analyze', '--key', '/userId', '--progress', '-']);
  assert.equal(r.code, INTERRUPTED, r.stderr);
  assert.equal(r.signal, null);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /\r\x1b\[Kpartplay: interrupted: stopped by Ctrl-C \(SIGINT\) before the end\n$/);
});

test('SIGINT during size --data --format json: status 130, the error as JSON', async () => {
  const dir = tempDir();
  try {
    const r = await interruptMidStream(['size', '--data', '-', '--key', '/userId', '--format', 'json', '--progress',
                                        '-o', path.join(dir, 'sizes.json')]);
    assert.equal(r.code, INTERRUPTED, r.stderr);
    const json = JSON.parse(r.stderr.slice(r.stderr.indexOf('{')));
    assert.deepEqual([json.error.code, json.error.name], [INTERRUPTED, 'interrupted']);
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('SIGINT while the read waits on a silent stdin: status 130 at once, no file left', async () => {
  const dir = tempDir();
  try {
    const child = spawn(CLI, ['analyze', '--key', '/id', '-o', path.join(dir, 'out.json'), '-'],
                        {stdio: ['pipe', 'pipe', 'pipe']});
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => { stderr += text; });
    child.stdout.resume();
    const ended = new Promise((resolve) => child.on('close', (code, signal) => resolve({code, signal})));
    // The output's temporary file appears once the handler is in place and before the first
    // read: then the signal finds the process blocked reading a pipe nobody writes to.
    while (fs.readdirSync(dir).length === 0) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    const {code, signal} = await ended;
    child.stdin.destroy();
    assert.equal(signal, null);
    assert.equal(code, INTERRUPTED, stderr);
    assert.equal(stderr, 'partplay: interrupted: stopped by Ctrl-C (SIGINT) before the end\n');
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('SIGINT while the report is built: status 130 and no file, or a whole file and 0', async () => {
  // 300,000 partitions with the container model: building the report takes a while after the
  // reading, and the engine cannot look at the flag then; the watchdog ends the process. Should
  // the work finish before the signal lands, the file must be whole: never a half-written one.
  const dir = tempDir();
  const out = path.join(dir, 'report.json');
  try {
    const child = spawn(CLI, ['analyze', '--key', '/id', '--container', '--format', 'json', '--progress', '-o', out, '-'],
                        {stdio: ['pipe', 'pipe', 'pipe']});
    let stderr = '';
    let sent = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      stderr += text;
      if (!sent && stderr.includes('building the report')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stdout.resume();
    const ended = new Promise((resolve) => child.on('close', (code, signal) => resolve({code, signal})));
    let items = '';
    for (let i = 0; i < 300_000; ++i) items += `{"id":"item-${i}","v":${i}}\n`;
    child.stdin.end(items);
    const {code, signal} = await ended;
    assert.ok(sent, stderr);
    assert.equal(signal, null);
    if (code === INTERRUPTED) {
      assert.deepEqual(fs.readdirSync(dir), []);
      assert.match(stderr, /"name":"interrupted"/);
    } else {
      assert.equal(code, 0, stderr);
      assert.deepEqual(fs.readdirSync(dir), ['report.json']);
      assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).partition_count, 300_000);
    }
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('-o FILE on success: the same bytes as stdout, nothing else in the directory', () => {
  const dir = tempDir();
  try {
    const file = path.join(ROOT, 'examples/orders.ndjson');
    const out = path.join(dir, 'report.json');
    const args = ['analyze', '--key', '/customerId', '--format', 'json', file];
    const written = run([...args, '-o', out]);
    assert.equal(written.status, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.equal(fs.readFileSync(out, 'utf8'), run(args).stdout);
    assert.deepEqual(fs.readdirSync(dir), ['report.json']);
    // A second run replaces it whole.
    assert.equal(run(['analyze', '--key', '/customerId', file, `--output=${out}`]).status, 0);
    assert.match(fs.readFileSync(out, 'utf8'), /partitions/);
    assert.deepEqual(fs.readdirSync(dir), ['report.json']);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('-o FILE and a bad input: the error, no file, an existing FILE left as it was', () => {
  const dir = tempDir();
  try {
    const out = path.join(dir, 'report.json');
    const bad = run(['analyze', '--key', '/id', '-o', out, '-'], {input: '{"id": "a"}\n{"id": tru}\n'});
    assert.equal(bad.status, 11);
    assert.deepEqual(fs.readdirSync(dir), []);
    fs.writeFileSync(out, 'before');
    const again = run(['size', '--data', '-', '--key', '/id', '-o', out], {input: '[{"id": 1},'});
    assert.equal(again.status, 15, again.stderr);  // truncated_input
    assert.equal(fs.readFileSync(out, 'utf8'), 'before');
    assert.deepEqual(fs.readdirSync(dir), ['report.json']);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('-o into a directory that does not exist: an io error (3) before any reading', () => {
  const r = run(['analyze', '--key', '/id', '-o', '/nonexistent-dir/x.json', path.join(ROOT, 'examples/orders.ndjson')]);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /cannot write \/nonexistent-dir\/x\.json/);
});
