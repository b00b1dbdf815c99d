// `make bench BENCH_ARGS="--many N"`: N items keyed by /id, one logical partition each,
// analysed the page's way in headless Chromium, with the wasm memory of every engine involved
// against issue 11's 1.5 GB (run-bench.mjs's header lists the fields it prints).
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import {join, sep} from 'node:path';
import {DEFAULT_DIR, ensureNdjson} from './gen-ndjson.mjs';
import {BENCH_DIR, BenchFailure, CHROMIUM, MIB, agree, mbPerS, openBenchPage, repo, round, say,
        startBenchServer} from './bench-common.mjs';
// memory of every engine involved against issue 11's 1.5 GB.

const MANY_HEAPS_LIMIT_BYTES = 1.5e9;
const MANY_KEY = '/id';

/**
 * Chromium's processes (the descendants of this process whose program is chromium), from /proc:
 * [{pid, type, pssKb (proportional: shared pages divided among their users), hwmKb (peak RSS)}].
 */
function chromiumProcesses() {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const mine = (pid) => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  const out = [];
  for (const pid of parent.keys()) {
    if (!mine(pid)) continue;
    try {
      // Chromium rewrites its argv: one string, arguments separated by spaces.
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!/^\S*chromium /.test(cmdline)) continue;
      const kb = (text, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
      const type = /--type=(\S+)/.exec(cmdline)?.[1] ?? 'browser';
      out.push({pid, type, pssKb: kb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss'),
                hwmKb: kb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM')});
    } catch {}
  }
  return out;
}

/**
 * --many N: generates (or reuses) N items, each with its own uuid `id`, and analyses them keyed
 * by /id the page's way: the page's client (web/worker/client.js) with its default workers on a
 * File the page gets from a file input (disk-backed, as a dropped file), timed from analyze() to
 * the report, in a fresh browser and a fresh client, so the pool starts and its engines load
 * inside the timed run. Then client.heap() (protocol.js heap): the wasm memory of every engine,
 * the page worker's and each pool worker's, each its peak (wasm memory never shrinks); sampled
 * every second meanwhile too, so a run that fails still says how far each heap had grown.
 * Chromium's processes are sampled from /proc (VmRSS summed; each one's VmHWM at the end).
 * Fails the bench unless partition_count equals N (and items N).
 */
export async function manySection(options, openPage, baseUrl) {
  say(`many partitions: ${options.many} items keyed by ${MANY_KEY}, the page's way`);
  const data = await ensureNdjson({items: options.many, seed: options.seed, ascii: options.ascii,
                                   log: (m) => say(`  ${m}`)});
  const page = await openPage();
  const samples = [];
  await page.exposeFunction('benchManyHeap', (heap) => samples.push({at: performance.now(), heap}));
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'many-file';
    document.body.append(input);
  });
  await page.setInputFiles('#many-file', data.file);
  const idlePssKb = chromiumProcesses().reduce((sum, p) => sum + p.pssKb, 0);
  let peakPssKb = 0;
  const samplePss = () => {
    peakPssKb = Math.max(peakPssKb, chromiumProcesses().reduce((sum, p) => sum + p.pssKb, 0));
  };
  const pssTimer = setInterval(samplePss, 500);
  let r, failure = null;
  try {
    r = await page.evaluate(async ({keyPaths, discoverItems, workers}) => {
      const file = document.getElementById('many-file').files[0];
      const {PlaygroundClient} = await import('/site/worker/client.js');
      const client = new PlaygroundClient(workers ? {workers} : {});
      await client.ready;
      let polling = true;
      const poll = (async () => {
        while (polling) {
          await new Promise((ok) => setTimeout(ok, 1000));
          if (!polling) break;
          try {
            await window.benchManyHeap(await client.heap());
          } catch {}
        }
      })();
      const t0 = performance.now();
      try {
        const report = await client.analyze({source: {kind: 'file', file}, keyPaths, discoverItems});
        const ms = performance.now() - t0;
        polling = false;
        await poll;
        const heap = await client.heap();
        const {heap_peak_bytes: peak = null, part_heap_bytes: partHeaps = null, retired_workers: retired = 0} = report.timing;
        return {ms, file_size: file.size, workers: report.timing.workers ?? 1, heap, peak, partHeaps, retired, items: report.items,
                bytes: report.bytes, input_bytes: report.input_bytes, partition_count: report.partition_count,
                undefined_key_items: report.undefined_key_items, duplicate_ids: report.duplicate_id?.count ?? null};
      } catch (e) {
        polling = false;
        return {error: `${e.codeName ?? e.name}: ${e.message}`, ms: performance.now() - t0};
      } finally {
        client.terminate();
      }
    }, {keyPaths: [MANY_KEY], discoverItems: options.discover, workers: options.manyWorkers});
  } catch (e) {
    failure = `the page failed: ${e.message}`;
  } finally {
    clearInterval(pssTimer);
  }
  samplePss();
  const processes = chromiumProcesses();
  const lastSeen = new Map();  // the largest heap each worker was seen with while it ran
  for (const {heap} of samples) {
    for (const w of heap.workers) {
      const name = w.worker === 'page' ? 'page' : `pool ${w.index}`;
      lastSeen.set(name, Math.max(lastSeen.get(name) ?? 0, w.bytes));
    }
  }
  const seenText = () => [...lastSeen].map(([name, bytes]) => `${name} ${(bytes / MIB).toFixed(0)} MiB`).join(', ');
  if (failure || r.error) {
    throw new BenchFailure(`--many ${options.many}: ${failure ?? r.error} after ${((r?.ms ?? 0) / 1000).toFixed(1)} s; ` +
                           `wasm heaps last seen (sampled each second): ${seenText() || 'none'}; Chromium's ` +
                           `processes peaked at ${(peakPssKb / 1024).toFixed(0)} MiB (PSS, summed)`);
  }
  agree(`the page's way (--many ${options.many}, key ${MANY_KEY}) and the generated data`, [
    ['file size', r.file_size, data.file_bytes], ['items', r.items, data.items], ['bytes', r.bytes, data.item_bytes],
    ['input_bytes', r.input_bytes, data.file_bytes], ['partition_count', r.partition_count, data.items],
    ['undefined_key_items', r.undefined_key_items, 0],
  ]);
  const heaps = r.heap.workers.map((w) => ({worker: w.worker === 'page' ? 'page' : `pool ${w.index}`,
                                            mb: round(w.bytes / MIB, 1)}));
  // The most the heaps held at once: with parts, the client's figure (every part's heap at its
  // end, or the merge beside the pool workers it kept; a retired worker is gone after the run).
  const peakBytes = Math.max(r.peak ?? 0, r.heap.bytes);
  const seconds = r.ms / 1000;
  const renderer = processes.filter((p) => p.type === 'renderer').reduce((a, p) => Math.max(a, p.hwmKb), 0);
  const fields = {
    many_file: data.file.startsWith(repo + sep) ? data.file.slice(repo.length + 1) : data.file,
    many_items: data.items, many_bytes: data.file_bytes, many_input_mb: round(data.file_bytes / 1e6, 1),
    many_key: MANY_KEY, many_discover_items: options.discover,
    many_seconds: round(seconds, 3), many_mb_s: round(mbPerS(data.file_bytes, seconds), 1),
    many_partition_count: r.partition_count, many_workers: r.workers,
    many_wasm_heaps_mb: heaps,  // MiB, one per engine instance (each worker loads one)
    many_wasm_heaps_total_mb: round(r.heap.bytes / MIB, 1),  // MiB, the engines alive after the run
    many_part_heaps_mb: r.partHeaps ? r.partHeaps.map((b) => round(b / MIB, 1)) : null,  // each worker after its part
    many_retired_workers: r.retired,  // pool workers stopped after their part (ingest/parts_plan.h kPageRetireHeapBytes)
    many_wasm_heaps_peak_mb: round(peakBytes / MIB, 1),  // MiB, all heaps together at their most
    many_wasm_heap_bytes_per_partition: round(peakBytes / r.partition_count, 1),
    many_heaps_lt_1_5_gb: peakBytes < MANY_HEAPS_LIMIT_BYTES,
    many_chromium_peak_pss_mb: round(peakPssKb / 1024, 1),  // MiB, PSS of its processes summed, sampled
    many_chromium_idle_pss_mb: round(idlePssKb / 1024, 1),  // the same before the run (the page open, no client)
    many_renderer_peak_rss_mb: renderer ? round(renderer / 1024, 1) : null,  // MiB, VmHWM (the workers run there)
  };
  const line = `--many ${data.items} (key ${MANY_KEY}, the page's way, ${r.workers} worker${r.workers === 1 ? '' : 's'}): ` +
    `${seconds.toFixed(2)} s, ${fields.many_mb_s} MB/s, ${r.partition_count} partitions; wasm heaps ` +
    `${heaps.map((h) => `${h.worker} ${h.mb}`).join(' + ')} = ${fields.many_wasm_heaps_total_mb} MiB after the run` +
    (r.partHeaps ? ` (after each part: ${fields.many_part_heaps_mb.join(' + ')} MiB; ${r.retired} pool worker(s) retired)` : '') +
    `, at most ${fields.many_wasm_heaps_peak_mb} MiB together ` +
    `(${fields.many_wasm_heap_bytes_per_partition} bytes per partition; < 1.5 GB: ` +
    `${fields.many_heaps_lt_1_5_gb ? 'met' : 'NOT met'}); Chromium's processes at most ` +
    `${fields.many_chromium_peak_pss_mb} MiB (PSS, summed; ${fields.many_chromium_idle_pss_mb} MiB before), the renderer's peak RSS ${fields.many_renderer_peak_rss_mb} MiB`;
  say(`  ${line}`);
  say(JSON.stringify(fields));
  return {fields, line};
}

/** --only-many: the --many measurement alone (no native CLI needed); prints its JSON line last. */
export async function manyOnly(options) {
  for (const [what, path, hint] of [['the site', join(options.site, 'engine/partplay-api.mjs'), 'make site'],
                                    ['Chromium', CHROMIUM, 'apt-get install chromium']]) {
    if (!existsSync(path)) throw new BenchFailure(`${what} is missing (${path}): run \`${hint}\``);
  }
  const {server, url: baseUrl} = await startBenchServer({site: options.site, bench: BENCH_DIR, data: DEFAULT_DIR});
  let browser = null;
  try {
    const {fields, line} = await manySection(options, async () => {
      const opened = await openBenchPage(baseUrl);
      browser = opened.browser;
      say(`headless Chromium ${browser.version()}`);
      return opened.page;
    }, baseUrl);
    say('');
    say(line);
    console.log(JSON.stringify({...fields, targets: {many_heaps_lt_1_5_gb: fields.many_heaps_lt_1_5_gb},
                                targets_met: fields.many_heaps_lt_1_5_gb}));
  } finally {
    if (browser) await browser.close();
    server.close();
  }
}
