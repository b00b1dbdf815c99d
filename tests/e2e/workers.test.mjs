// A file analysed by several workers (issue 11, "Every core"; client.js, pool.js, protocol.js
// "Parts"): with ?workers=3 the page cuts a generated multi-MB NDJSON file among three engine
// workers and merges them, and shows what ?workers=1 shows; the client's report is the one-worker
// report field for field (with a container, after a re-analysis with another key and after a
// cancel), and a bad file gives the one-worker error, text and location alike. client.heap()
// (protocol.js heap) answers the wasm memory of the page worker's engine and of each pool worker's;
// a pool worker whose heap passed the client's retireHeapBytes is stopped after its part.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import * as protocol from '../../web/worker/protocol.js';
import {TIMEOUT, analysisAfter, byTestId, engineWorkers, figure, isReaderThread, openPage, useBrowser} from './harness.mjs';

useBrowser();

/** A seeded NDJSON file of `count` items (~120 bytes each). */
function generate({count, seed, badAt = -1, duplicates = true}) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const lines = [];
  for (let i = 0; i < count; i++) {
    if (i === badAt) {
      lines.push('{"id":"bad","userId":"u1","total":tru}');
      continue;
    }
    const user = Math.floor(next() ** 3 * 5000);
    const item = {id: `o${i}`, userId: `u${user}`, tenantId: `t${user % 37}`, total: Math.floor(next() * 1e5) / 100,
                  status: ['new', 'paid', 'sent'][i % 3], note: 'x'.repeat(Math.floor(next() * 40))};
    if (i % 1000 === 0) delete item.userId;  // the undefined partition
    if (duplicates && i % 997 === 5) item.id = lines.length > 10 ? 'o3' : item.id;  // duplicate ids
    lines.push(JSON.stringify(item));
  }
  return `${lines.join('\n')}\n`;
}

/** Runs analyses through the page's own client with `workers` workers; returns plain data. */
async function analyseInPage(page, {workers, count, seed, badAt, duplicates, runs}) {
  return page.evaluate(async ({workers, text, runs}) => {
    const {PlaygroundClient} = await import(new URL('worker/client.js', location.href).href);
    const file = new File([text], 'orders.ndjson', {type: 'application/x-ndjson'});
    const client = new PlaygroundClient({workers});
    await client.ready;
    const plain = (report) => {
      const {timing, ...rest} = report;
      return {...rest, partition_bytes: Array.from(report.partition_bytes ?? []), workersUsed: timing.workers ?? 1,
              idRecords: timing.id_records, readAhead: timing.read_ahead};
    };
    const out = [];
    try {
      for (const run of runs) {
        try {
          let progress = 0;
          const onProgress = ({bytesDone, bytesTotal}) => {
            if (bytesDone > bytesTotal) throw new Error('progress past the file');
            progress = Math.max(progress, bytesDone);
          };
          const report = run.reanalyze
            ? await client.reanalyze({keyPaths: run.keyPaths, container: run.container, onProgress})
            : await client.analyze({source: {kind: 'file', file}, keyPaths: run.keyPaths, container: run.container,
                                    onProgress});
          const again = await client.model({container: {...run.container, ru_per_second: 50000}});
          out.push({report: plain(report), model: plain(again), progress, size: file.size});
        } catch (e) {
          out.push({error: {name: e.name, codeName: e.codeName, message: e.message, location: e.location}});
        }
      }
    } finally {
      client.terminate();
    }
    return out;
  }, {workers, text: generate({count, seed, badAt, duplicates}), runs});
}

describe('protocol.js "Parts"', () => {
  test('split, analyze-part, merge and heap requests are checked', () => {
    const file = new Blob(['{"id":"a"}\n{"id":"b"}\n']);
    const {Request, request, validateRequest} = protocol;
    const ok = [
      request(1, Request.SPLIT, {source: {kind: 'file', file}, keyPaths: ['/id'], workers: 3, cores: 4}),
      request(1, Request.SPLIT, {source: {kind: 'file', file}, keyPaths: ['/id']}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: 11, first: true, keyPaths: ['/id']}),
      request(3, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 11, end: 22, first: false, keyPaths: ['/id'],
                                        idRecords: true, readAhead: true,
                                        synthetic: {kind: 'hash_suffix', buckets: 3, suffix_path: '/id'}}),
      request(4, Request.MERGE, {partials: [new ArrayBuffer(8)], slot: 'main', maxPartitions: 2000}),
      request(5, Request.HEAP, {}),
      request(6, Request.HEAP),
    ];
    for (const m of ok) assert.equal(validateRequest(m), m);
    const bad = [
      request(1, Request.SPLIT, {source: {kind: 'text', text: '{}'}, keyPaths: ['/id']}),
      request(1, Request.SPLIT, {source: {kind: 'file', file}, keyPaths: ['/id'], workers: 0}),
      request(1, Request.SPLIT, {source: {kind: 'file', file}, keyPaths: ['/id'], cores: 1.5}),
      request(1, Request.SPLIT, {source: {kind: 'file', file}}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 11, end: 5, first: false, keyPaths: ['/id']}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: 99, first: false, keyPaths: ['/id']}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: 11, keyPaths: ['/id']}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: 11, first: true, keyPaths: []}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: 11, first: true, keyPaths: ['/id'],
                                        idRecords: 'yes'}),
      request(2, Request.ANALYZE_PART, {source: {kind: 'file', file}, begin: 0, end: 11, first: true, keyPaths: ['/id'],
                                        readAhead: 1}),
      request(4, Request.MERGE, {partials: [new Uint8Array(8)]}),
      request(4, Request.MERGE, {partials: [], maxPartitions: 'all'}),
      request(5, Request.HEAP, []),
    ];
    for (const m of bad) assert.throws(() => validateRequest(m), TypeError, JSON.stringify(m.payload));
  });
});

describe('several workers', () => {
  test('the client: 3 workers report what 1 worker reports, field for field', {timeout: 4 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const runs = [
        {keyPaths: ['/userId']},
        {keyPaths: ['/userId'], container: {ru_per_second: 40000, hash_version: '2'}},
        {keyPaths: ['/id'], reanalyze: true},
        {keyPaths: ['/tenantId', '/userId'], reanalyze: true, container: {hash_version: 'multihash'}},
      ];
      const spec = {count: 50000, seed: 11, runs};
      const one = await analyseInPage(page, {...spec, workers: 1});
      const three = await analyseInPage(page, {...spec, workers: 3});
      assert.ok(one[0].size > 5e6, `a multi-MB file (${one[0].size} bytes)`);
      const idRecords = three.map((r) => r.report.idRecords);
      for (const r of three) delete r.report.idRecords;
      // One worker reads its file ahead on its reader thread where a second core is free; three
      // parts on fewer than four cores read their own (so the two ways are compared here too).
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      assert.deepEqual(one.map((r) => r.report.readAhead), runs.map(() => cores > 1));
      assert.deepEqual(three.map((r) => r.report.readAhead), runs.map(() => cores > 3));
      for (const r of [...one, ...three]) delete r.report.readAhead;
      for (let k = 0; k < runs.length; k++) {
        assert.ok(!one[k].error, JSON.stringify(one[k].error));
        assert.equal(one[k].report.workersUsed, 1);
        assert.equal(three[k].report.workersUsed, 3, `run ${k} used 3 workers`);
        assert.equal(three[k].progress, three[k].size, 'progress sums the parts to the whole file');
        assert.equal(one[k].report.idRecords, undefined, 'one worker: no parts');
        delete one[k].report.workersUsed;
        delete three[k].report.workersUsed;
        delete one[k].report.idRecords;
        assert.deepEqual(three[k].report, one[k].report, `run ${k}: ${JSON.stringify(runs[k])}`);
        assert.deepEqual(three[k].model, one[k].model, `run ${k}: the kept analysis re-modelled`);
      }
      // The data repeats ids across parts (whatever the key): the parts, their ids' hashes only,
      // could not name them, and were analysed again with records (the heap test below merges
      // parts without records).
      assert.deepEqual(idRecords, [true, true, true, true]);
      // Without a repeated id, the parts merge at once, and report what one worker reports.
      const unique = {count: 50000, seed: 12, duplicates: false, runs: runs.slice(0, 2)};
      const [alone, parted] = [await analyseInPage(page, {...unique, workers: 1}),
                               await analyseInPage(page, {...unique, workers: 3})];
      assert.deepEqual(parted.map((r) => [r.report.workersUsed, r.report.idRecords]), [[3, false], [3, false]]);
      for (const r of [...alone, ...parted]) {
        delete r.report.workersUsed;
        delete r.report.idRecords;
        delete r.report.readAhead;
      }
      assert.deepEqual(parted.map((r) => r.report), alone.map((r) => r.report));
      assert.equal(alone[0].report.duplicate_id.count, 0);
      assert.equal(one[0].report.items, 50000);
      assert.ok(one[0].report.duplicate_id.count > 0 && one[0].report.undefined_key_items === 50);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the client: heap() gives the wasm memory of every engine, the page worker\'s and each pool worker\'s',
       {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const seen = await page.evaluate(async (text) => {
        const {PlaygroundClient} = await import(new URL('worker/client.js', location.href).href);
        const file = new File([text], 'orders.ndjson', {type: 'application/x-ndjson'});
        const out = {};
        for (const workers of [1, 3]) {
          const client = new PlaygroundClient({workers});
          try {
            await client.ready;
            const before = await client.heap();
            const report = await client.analyze({source: {kind: 'file', file}, keyPaths: ['/id']});
            out[workers] = {before, after: await client.heap(), workersUsed: report.timing.workers ?? 1,
                            timing: report.timing};
          } finally {
            client.terminate();
          }
        }
        // Every pool worker retired after its part (retireHeapBytes 0): the next analysis starts
        // fresh ones and reports the same.
        const client = new PlaygroundClient({workers: 3, retireHeapBytes: 0});
        try {
          await client.ready;
          const runs = [];
          for (let k = 0; k < 2; k++) {
            const {timing, ...report} = await client.analyze({source: {kind: 'file', file}, keyPaths: ['/id']});
            runs.push({report: {...report, partition_bytes: Array.from(report.partition_bytes)}, timing,
                       heap: await client.heap()});
          }
          out.retiring = runs;
        } finally {
          client.terminate();
        }
        return out;
      }, generate({count: 50000, seed: 7}));
      const MIB = 1 << 20;
      const {retiring} = seen;
      delete seen.retiring;
      for (const [workers, {before, after, workersUsed}] of Object.entries(seen)) {
        assert.equal(workersUsed, Number(workers));
        assert.deepEqual(before.workers.map((w) => [w.worker, w.index]), [['page', null]],
                         'before the first analysis in parts only the page worker runs');
        assert.deepEqual(after.workers.map((w) => [w.worker, w.index]),
                         [['page', null], ...Array.from({length: workers - 1}, (_, k) => ['pool', k])]);
        for (const w of [...before.workers, ...after.workers]) {
          assert.deepEqual(w.engines.map((e) => [e.domain, e.module]), [['cosmos', 'cosmos-fast']], JSON.stringify(w));
          assert.ok(w.bytes >= 16 * MIB && w.bytes % 65536 === 0, `whole wasm pages, at least the initial 16 MiB: ${w.bytes}`);
          assert.equal(w.bytes, w.engines[0].bytes);
        }
        assert.equal(after.bytes, after.workers.reduce((sum, w) => sum + w.bytes, 0));
        assert.ok(after.workers[0].bytes >= before.workers[0].bytes, 'wasm memory never shrinks');
      }
      // Small heaps are kept (the pool's engines load once): the parts' heaps are the workers'.
      const {timing} = seen[3];
      assert.equal(timing.retired_workers, 0);
      assert.deepEqual(timing.part_heap_bytes.slice(1), seen[3].after.workers.slice(1).map((w) => w.bytes));
      assert.equal(timing.heap_bytes, seen[3].after.workers[0].bytes, 'the merging worker\'s heap after the merge');
      assert.equal(timing.heap_peak_bytes, Math.max(timing.part_heap_bytes.reduce((a, b) => a + b, 0),
                                                    seen[3].after.bytes));
      assert.equal(seen[1].timing.heap_peak_bytes, undefined, 'one pass has no parts');
      for (const run of retiring) {
        assert.equal(run.timing.workers, 3);
        assert.equal(run.timing.retired_workers, 2);
        assert.deepEqual(run.heap.workers.map((w) => w.worker), ['page'], 'the retired pool workers are gone');
        const parts = run.timing.part_heap_bytes;
        assert.equal(parts.length, 3);
        assert.ok(parts.every((b) => b >= 16 * MIB), JSON.stringify(parts));
        assert.equal(run.timing.heap_peak_bytes, Math.max(parts.reduce((a, b) => a + b, 0), run.timing.heap_bytes));
      }
      assert.deepEqual(retiring[1].report, retiring[0].report, 'fresh pool workers report the same');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the client: a bad item gives the one-worker error and location with 3 workers', {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const runs = [{keyPaths: ['/userId']}];
      for (const badAt of [30000, 49999]) {
        const spec = {count: 50000, seed: 5, badAt, runs};
        const [one] = await analyseInPage(page, {...spec, workers: 1});
        const [three] = await analyseInPage(page, {...spec, workers: 3});
        assert.equal(one.error?.codeName, 'malformed_json', JSON.stringify(one));
        assert.equal(one.error.location.item_index, badAt);
        assert.equal(one.error.location.line, badAt + 1);
        assert.deepEqual(three, one);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the page with ?workers=3 shows what ?workers=1 shows, for a good and a bad file', {timeout: 4 * TIMEOUT},
       async () => {
    const shown = async (workers, text) => {
      const {page, problems, close} = await openPage();
      try {
        await page.goto(new URL(`?workers=${workers}`, page.url()).href);
        await page.waitForFunction(() => document.body.dataset.state === 'ready', null, {timeout: TIMEOUT});
        problems.length = 0;  // the first page's requests, aborted by the navigation
        await page.fill(byTestId('key-input'), '/userId');
        const state = await analysisAfter(page, () => page.setInputFiles(byTestId('file-input'), {
          name: 'orders.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(text),
        }));
        const out = {state, workers: engineWorkers(page).length, readers: page.workers().filter(isReaderThread).length,
                     cores: await page.evaluate(() => navigator.hardwareConcurrency)};
        if (state === 'ready') {
          for (const id of ['summary-items', 'summary-partitions', 'summary-undefined', 'summary-invalid']) {
            out[id] = await figure(page, id);
          }
          out.key = await page.inputValue(byTestId('key-input'));
        } else {
          out.code = await page.getAttribute(byTestId('error-panel'), 'data-code');
          out.text = (await page.textContent(byTestId('error-panel'))).replace(/\s+/g, ' ').trim();
        }
        assert.deepEqual(problems, []);
        return out;
      } finally {
        await close();
      }
    };
    for (const text of [generate({count: 45000, seed: 3}), generate({count: 45000, seed: 3, badAt: 40000})]) {
      const one = await shown(1, text);
      const three = await shown(3, text);
      assert.equal(one.workers, 1, 'one engine worker');
      assert.equal(one.readers, one.cores > 1 ? 1 : 0, 'its reader thread, where a core is free for it');
      assert.ok(three.workers >= 3, `three engine workers (${three.workers})`);
      for (const out of [one, three]) {
        delete out.workers;
        delete out.readers;
        delete out.cores;
      }
      assert.deepEqual(three, one);
      if (three.state === 'error') {
        assert.equal(three.code, 'malformed_json');
        assert.match(three.text, /line\s*40,001\s*column\s*38/);
      } else {
        assert.equal(three['summary-items'], 45000);
      }
    }
  });
});
