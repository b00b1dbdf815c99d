// The reader thread (web/worker/reader.js): where a core is free, an engine worker's File is read
// ahead on a helper thread and its chunks handed over. Its reports are those of the same bytes
// given as bytes (plain and gzip), and its partial states those of the worker reading the file
// itself into one reused buffer; a cancel in the middle of a read leaves the worker and its
// reader working; a file that changed on disk after it was chosen is the `io` error it is
// without the reader, and the worker goes on.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {TIMEOUT, engineWorkers, isReaderThread, openPage, useBrowser} from './harness.mjs';

// gc() in the workers: a test collects garbage while a worker's reads are pending.
useBrowser({args: ['--js-flags=--expose-gc']});

/** `count` NDJSON items with ids, users and some padding (~100 bytes each). */
function ndjson(count) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    lines.push(JSON.stringify({id: `i${i}`, userId: `u${(i * 7919) % 3001}`, n: i, pad: 'p'.repeat(i % 50)}));
  }
  return `${lines.join('\n')}\n`;
}

/** Polls `read()` until `done(value)`, for up to TIMEOUT. */
async function waitFor(read, done, what) {
  const until = Date.now() + TIMEOUT;
  let value;
  while (!done(value = await read())) {
    if (Date.now() > until) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Loads the page's client in the page as window.readerTest: {client}. */
async function startClient(page) {
  await page.evaluate(async () => {
    const {PlaygroundClient} = await import(new URL('worker/client.js', location.href).href);
    const client = new PlaygroundClient({workers: 1});
    await client.ready;
    window.readerTest = {client};
  });
}

test('a file read ahead gives the report of the same bytes, plain and gzip', {timeout: 2 * TIMEOUT}, async () => {
  const {page, problems, close} = await openPage();
  try {
    await startClient(page);
    const text = ndjson(120000);
    const gz = gzipSync(Buffer.from(text));
    const seen = await page.evaluate(async ({text, gz}) => {
      const {client} = window.readerTest;
      const bytes = new TextEncoder().encode(text);
      const plain = ({timing, source, slot, ...report}) => ({...report, partition_bytes: Array.from(report.partition_bytes)});
      const out = {};
      for (const [name, data] of [['plain', bytes], ['gzip', new Uint8Array(gz)]]) {
        const asFile = await client.analyze({source: {kind: 'file', file: new File([data], `orders-${name}`)}, keyPaths: ['/userId']});
        const asBytes = await client.analyze({source: {kind: 'bytes', buffer: data.slice().buffer}, keyPaths: ['/userId']});
        out[name] = {file: plain(asFile), bytes: plain(asBytes), readAhead: [asFile.timing.read_ahead, asBytes.timing.read_ahead],
                     fileBytes: asFile.source.bytes, compressed: asFile.source.compressedBytes ?? null};
      }
      out.cores = navigator.hardwareConcurrency;
      return out;
    }, {text, gz: Array.from(gz)});
    // Read ahead wherever the machine has a second core (CI's has two); bytes are never files.
    const expected = seen.cores > 1;
    for (const name of ['plain', 'gzip']) {
      assert.deepEqual(seen[name].readAhead, [expected, false], name);
      assert.deepEqual(seen[name].file, seen[name].bytes, `${name}: the file's report is the bytes' report`);
      assert.equal(seen[name].file.items, 120000);
      assert.equal(seen[name].fileBytes, Buffer.byteLength(text));
    }
    assert.equal(seen.gzip.compressed, gz.length);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a file a worker reads itself, into one reused buffer, gives the partial state read ahead gives', {timeout: 2 * TIMEOUT}, async () => {
  const {page, problems, close} = await openPage();
  try {
    const seen = await page.evaluate(async () => {
      // Each file spans several of the worker's 4 MiB read buffers; the gzip one does compressed too.
      let seed = 7;
      const noise = () => (seed = (seed * 48271) % 2147483647).toString(36);
      const lines = [];
      for (let i = 0; i < 300000; i++) lines.push(JSON.stringify({id: `i${i}`, userId: `u${i % 4001}`, pad: noise() + noise() + noise()}));
      const text = new TextEncoder().encode(`${lines.join('\n')}\n`);
      const gz = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
      const {Reply, Request, request} = await import(new URL('worker/protocol.js', location.href).href);
      const worker = new Worker(new URL('worker/worker.js', location.href), {type: 'module'});
      let next = 1;
      const ask = (type, payload) => new Promise((resolve, reject) => {
        const id = next++;
        worker.addEventListener('message', function on({data}) {
          if (data.id !== id || data.type === Reply.PROGRESS) return;
          worker.removeEventListener('message', on);
          if (data.type === Reply.RESULT) resolve(data.payload);
          else reject(new Error(JSON.stringify(data.payload)));
        });
        worker.postMessage(request(id, type, payload));
      });
      const out = {};
      try {
        for (const [name, data] of [['plain', text], ['gzip', gz]]) {
          const file = new File([data], `items-${name}`);
          for (const readAhead of [false, true]) {
            const part = await ask(Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: file.size,
                                                          first: false, keyPaths: ['/userId'], readAhead});
            // The partial state (with every id's hash: MBs) as its length and SHA-256.
            const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', part.partial));
            out[`${name} ${readAhead}`] = {items: part.items, bytes: part.bytes, readAhead: part.readAhead,
                                           partial: `${part.partial.byteLength} ${Array.from(digest).join(',')}`};
          }
        }
      } finally {
        worker.terminate();
      }
      return {out, sizes: [text.length, gz.length]};
    });
    const [textBytes, gzBytes] = seen.sizes;
    assert.ok(textBytes > 3 * (4 << 20) && gzBytes > 4 << 20, `${textBytes} and ${gzBytes} bytes`);
    for (const name of ['plain', 'gzip']) {
      const itself = seen.out[`${name} false`];
      const ahead = seen.out[`${name} true`];
      assert.deepEqual([itself.readAhead, ahead.readAhead], [false, true], name);
      assert.deepEqual([itself.items, itself.bytes], [300000, textBytes], name);
      assert.ok(Number.parseInt(itself.partial, 10) > 300000 * 8, `${name}: a partial state with the ids' hashes`);
      assert.equal(itself.partial, ahead.partial, `${name}: the same partial state either way`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a worker reading its own file finishes its reads through garbage collections', {timeout: 2 * TIMEOUT}, async () => {
  const {page, problems, close} = await openPage();
  // Collects garbage in every engine worker, again and again, until stopped: a collection then
  // lands while a read is pending. Chromium 156 took a byte stream with a pending BYOB read if
  // nothing else held it, and the read never settled (the second of these reads, every time).
  let collecting = true;
  const collector = (async () => {
    let collections = 0;
    while (collecting) {
      for (const worker of engineWorkers(page)) {
        if (await worker.evaluate(() => (globalThis.gc?.(), 1)).catch(() => 0)) collections++;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return collections;
  })();
  try {
    const seen = await page.evaluate(async (text) => {
      const file = new File([text], 'items.ndjson');
      const {Reply, Request, request} = await import(new URL('worker/protocol.js', location.href).href);
      const worker = new Worker(new URL('worker/worker.js', location.href), {type: 'module'});
      let next = 1;
      // A read that never settles is reported as such (not as the whole test's timeout).
      const ask = (type, payload) => new Promise((resolve, reject) => {
        const id = next++;
        const stuck = setTimeout(() => reject(new Error(`request ${id} had no answer in 20 s`)), 20000);
        worker.addEventListener('message', function on({data}) {
          if (data.id !== id || data.type === Reply.PROGRESS) return;
          worker.removeEventListener('message', on);
          clearTimeout(stuck);
          if (data.type === Reply.RESULT) resolve(data.payload);
          else reject(new Error(JSON.stringify(data.payload)));
        });
        worker.postMessage(request(id, type, payload));
      });
      const items = [];
      try {
        for (let k = 0; k < 8; k++) {
          const begin = k * 1000;  // a slice, as a part reads: from item boundary to the end
          const at = begin === 0 ? 0 : text.split('\n', k * 1000).join('\n').length + 1;
          const part = await ask(Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: at, end: file.size,
                                                        first: false, keyPaths: ['/userId'], readAhead: false});
          items.push(part.items);
        }
      } catch (e) {
        items.push(e.message);
      } finally {
        worker.terminate();
      }
      return items;
    }, ndjson(40000));
    collecting = false;
    assert.ok(await collector > 0, 'garbage was collected in the workers');
    assert.deepEqual(seen, Array.from({length: 8}, (_, k) => 40000 - k * 1000));
    assert.deepEqual(problems, []);
  } finally {
    collecting = false;
    await collector;
    await close();
  }
});

test('a cancel in the middle of a read leaves the worker and its reader working', {timeout: 2 * TIMEOUT}, async () => {
  const {page, problems, close} = await openPage();
  try {
    await startClient(page);
    const seen = await page.evaluate(async (text) => {
      const {client} = window.readerTest;
      // About 120 MB: many chunks, so the cancel lands while the reader is still reading (the
      // worker takes a cancel when it yields, every 50 ms; this machine reads 40 MB in 130 ms).
      const big = new File(Array.from({length: 36}, () => text), 'big.ndjson');
      const small = new File([text.slice(0, text.indexOf('\n', 5000) + 1)], 'small.ndjson');
      const controller = new AbortController();
      let doneAtCancel = null;
      const cancelled = await client.analyze({
        source: {kind: 'file', file: big}, keyPaths: ['/userId'], signal: controller.signal,
        onProgress: ({bytesDone}) => {
          if (bytesDone > 0 && doneAtCancel === null) {
            doneAtCancel = bytesDone;
            controller.abort();
          }
        },
      }).then(() => 'finished', (e) => e.codeName);
      const after = [];
      for (const file of [small, big]) {
        const report = await client.analyze({source: {kind: 'file', file}, keyPaths: ['/userId']});
        after.push({items: report.items, readAhead: report.timing.read_ahead});
      }
      return {cancelled, doneAtCancel, size: big.size, after, cores: navigator.hardwareConcurrency};
    }, ndjson(30000));
    assert.equal(seen.cancelled, 'cancelled');
    assert.ok(seen.doneAtCancel < seen.size, `cancelled at ${seen.doneAtCancel} of ${seen.size} bytes`);
    // Every read the reader thread served has ended, the cancelled one included (a lost cancel
    // would leave it waiting, its window full, for good).
    if (seen.cores > 1) {
      const reader = page.workers().find(isReaderThread);
      assert.ok(reader, 'the reader thread runs');
      await waitFor(() => reader.evaluate(() => self.readsInFlight), (n) => n === 0, 'the reads in flight end');
    }
    const smallItems = seen.after[0].items;
    assert.ok(smallItems > 10 && smallItems < 30000, `${smallItems} items in the small file`);
    assert.deepEqual(seen.after.map((r) => r.readAhead), [seen.cores > 1, seen.cores > 1]);
    assert.equal(seen.after[1].items, 36 * 30000);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a file changed on disk after it was chosen is an io error, and the worker goes on', {timeout: 2 * TIMEOUT}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'partplay-reader-'));
  const {page, problems, close} = await openPage();
  try {
    const path = join(dir, 'changing.ndjson');
    const text = ndjson(20000);
    writeFileSync(path, text);
    // A modification time long past: Chromium compares them to the second, and a change within
    // the same second reads as the file it chose (its first `size` bytes, checked: the test then
    // fails), as the clean-clone run once had it.
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(path, past, past);
    await startClient(page);
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'reader-test-input';
      input.hidden = true;
      document.body.append(input);
    });
    await page.setInputFiles('#reader-test-input', path);
    // The browser has taken its snapshot of the file (size and time) before it changes.
    assert.equal(await page.evaluate(() => document.getElementById('reader-test-input').files[0].size),
                 Buffer.byteLength(text));
    // Changed after it was chosen: the browser refuses to read what it no longer has.
    writeFileSync(path, text + text);
    const seen = await page.evaluate(async () => {
      const {client} = window.readerTest;
      const file = document.getElementById('reader-test-input').files[0];
      const error = await client.analyze({source: {kind: 'file', file}, keyPaths: ['/userId']})
        .then(() => null, (e) => ({codeName: e.codeName, message: e.message}));
      const next = await client.analyze({source: {kind: 'file', file: new File(['{"id":"a","userId":"u"}\n'], 'next.ndjson')},
                                         keyPaths: ['/userId']});
      return {error, next: {items: next.items, readAhead: next.timing.read_ahead}, cores: navigator.hardwareConcurrency};
    });
    assert.equal(seen.error?.codeName, 'io', JSON.stringify(seen.error));
    assert.match(seen.error.message, /^The file "changing\.ndjson" could not be read: .+/);
    assert.deepEqual(seen.next, {items: 1, readAhead: seen.cores > 1});
    // The refused read is the browser's own console line, not the page's.
    assert.deepEqual(problems.filter((p) => !/changing\.ndjson|ERR_FILE|net::/.test(p)), []);
  } finally {
    await close();
    rmSync(dir, {recursive: true, force: true});
  }
});
