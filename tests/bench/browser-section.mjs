// `make bench` in headless Chromium: the wasm engine, the page's client and plain JS, each
// measurement in a browser of its own (no engine or worker of an earlier run left in it), the
// variants interleaved round by round (bench-stats.mjs).
//
// Variants (bench-page.html; the file fetched into an ArrayBuffer before the clock starts):
//   wasm_engine  the engine alone on the page's thread (no worker, no reader thread): newAnalysis
//                + 1 MiB feeds + finish(), discover_items 10000; createEngine() (the module's
//                compile and start, once per page) is outside the clock, as the parse limit's is;
//                wasm_engine_with_init: the same runs with it (the measure before 30 November 2026)
//   wasm_parse   simdjson's DOM parse_many alone in wasm on the page's thread (engine.parseLimit)
//   js1          plain JS on the page's thread (js-baseline.mjs: TextDecoder, split, JSON.parse, Map)
//   page1        the page's client (web/worker/client.js) on a File with one worker (its reader
//                thread reads ahead where a core is left over: timing.read_ahead)
//   pageN        the page's client with its default workers (min(cores, 4)); timed after one
//                untimed analysis that starts its pool, as the page keeps its workers
//   jsPoolN      plain JS on a pool of as many workers as pageN used in the same round (it runs
//                just before), over cuts of the same File
import {BenchFailure, MIB, say} from './bench-common.mjs';
import {runInterleaved} from './bench-stats.mjs';

const KEY = '/userId';
const DISCOVER = 10000;

async function pageClient(page, workers) {
  return page.evaluate(async ({workers, keyPaths, discoverItems}) => {
    const {PlaygroundClient} = await import('/site/worker/client.js');
    const client = new PlaygroundClient(workers ? {workers} : {});
    await client.ready;
    const file = new File([await (await fetch(window.benchDataUrl)).arrayBuffer()], 'bench.ndjson',
                          {type: 'application/x-ndjson'});
    try {
      // Untimed: the first analysis starts the pool and loads its engines, which the page keeps.
      await client.analyze({source: {kind: 'file', file}, keyPaths, discoverItems});
      const t0 = performance.now();
      const report = await client.analyze({source: {kind: 'file', file}, keyPaths, discoverItems});
      const ms = performance.now() - t0;
      return {ms, workers: report.timing.workers ?? 1, readAhead: report.timing.read_ahead === true,
              items: report.items, bytes: report.bytes, input_bytes: report.input_bytes,
              partition_count: report.partition_count, undefined_key_items: report.undefined_key_items,
              largest_partition: report.largest_partition};
    } finally {
      client.terminate();
    }
  }, {workers, keyPaths: [KEY], discoverItems: DISCOVER});
}

/**
 * Every browser variant, interleaved over `runs` rounds, each in a fresh browser from
 * `openPage()` (which closes the previous one). `poolWorkers`: the plain-JS pool's size (the
 * page's default worker count). Resolves to {variant: [result per round]} with `seconds`.
 */
export async function browserRounds(data, dataUrl, {runs, openPage, poolWorkers}) {
  let pageWorkers = poolWorkers;
  const variants = {
    wasm_engine: async (page) => {
      const r = await page.evaluate((o) => window.bench.wasm(o), {keyPaths: [KEY], discoverItems: DISCOVER});
      return {...r, ms: r.engine_ms, with_init_ms: r.ms};
    },
    wasm_parse: (page) => page.evaluate(() => window.bench.parseLimit()),
    js1: (page) => page.evaluate(() => window.bench.js()),
    page1: (page) => pageClient(page, 1),
    pageN: async (page) => {
      const r = await pageClient(page, null);
      pageWorkers = r.workers;
      return r;
    },
    jsPoolN: (page) => page.evaluate((n) => window.bench.jsPool(n), pageWorkers),
  };
  say(`Chromium, interleaved (${Object.keys(variants).join(' ')}), ${runs} rounds, a fresh browser each:`);
  const rounds = await runInterleaved(Object.keys(variants), runs, async (variant) => {
    const page = await openPage();
    await page.evaluate((url) => { window.benchDataUrl = url; }, dataUrl);
    if (['wasm_engine', 'wasm_parse', 'js1', 'jsPoolN'].includes(variant)) {
      const loaded = await page.evaluate((url) => window.bench.load(url), dataUrl);
      if (loaded.bytes !== data.file_bytes) {
        throw new BenchFailure(`the page fetched ${loaded.bytes} bytes, the file has ${data.file_bytes}`);
      }
    }
    const r = await variants[variant](page);
    return {...r, seconds: r.ms / 1000};
  }, (variant, round, r) => say(`  round ${round + 1} ${variant.padEnd(12)} ${r.ms.toFixed(0)} ms, ` +
                                `${(data.file_bytes / 1e6 / r.seconds).toFixed(1)} MB/s` +
                                (r.workers ? `, ${r.workers} worker${r.workers === 1 ? '' : 's'}` : '') +
                                (r.readAhead ? ', read ahead' : '') +
                                (r.heap_bytes ? `, heap ${(r.heap_bytes / MIB).toFixed(1)} MiB, createEngine ${r.init_ms.toFixed(0)} ms ` +
                                                 '(not timed)' : '')));
  // The same runs with createEngine() on the clock: the wasm engine's measure until 30 November 2026.
  rounds.wasm_engine_with_init = rounds.wasm_engine.map((r) => ({...r, seconds: r.with_init_ms / 1000}));
  return rounds;
}

/** Every browser figure agrees with the generated data (and the page's with the CLI's report). */
export function browserAgreement(data, rounds, cliReport, agree) {
  for (const [variant, list] of Object.entries(rounds)) {
    list.forEach((r, i) => {
      const what = `${variant} round ${i + 1} and the generated data`;
      if (variant === 'wasm_parse') return agree(what, [['documents', r.documents, data.items]]);
      const checks = [['items', r.items, data.items], ['partition_count', r.partition_count, data.distinct_user_ids]];
      if (variant.startsWith('wasm') || variant.startsWith('page')) {
        checks.push(['bytes', r.bytes, data.item_bytes], ['input_bytes', r.input_bytes, data.file_bytes],
                    ['undefined_key_items', r.undefined_key_items, 0]);
        if (cliReport) {
          checks.push(['largest_partition', JSON.stringify(r.largest_partition), JSON.stringify(cliReport.largest_partition)]);
        }
      }
      agree(what, checks);
    });
  }
}
