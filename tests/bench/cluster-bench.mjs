#!/usr/bin/env node
// `make bench`'s last section: the analysis past one machine (docs/cluster.md) step by step on
// the benchmark's generated file cut into 4 shards, keyed by /userId (few partitions) and by /id
// (one per item), each part cut into K = 1, 4 and 16 buckets. Every step is a process of its own
// under /usr/bin/time (its wall time and peak RSS): the parts (`analyze --partial-out DIR
// --buckets K`), every bucket's merge (`merge --bucket B`), the summary step (`merge
// --summaries`); beside them one pass (`analyze --jobs 1`) and the merge of whole partial states
// (`merge`, what holds every partition in one process). The report of every K is checked equal
// to one pass's, byte for byte. Then the cost model: per-core throughput of each step and what
// a TB would take (docs/cluster.md "Cost model"). Timings are medians over --runs rounds, the K
// variants interleaved; peak RSS is the largest of the rounds.
//
//   node tests/bench/cluster-bench.mjs [--items N] [--runs 3] [--keep]
import {spawnSync} from 'node:child_process';
import {createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync,
        statSync} from 'node:fs';
import {join, resolve, dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {createHash} from 'node:crypto';
import {ensureNdjson, DEFAULT_DIR} from './gen-ndjson.mjs';
import {median} from './bench-stats.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const partplay = join(repo, 'build', 'native', 'partplay');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? Number(args[k + 1]) : fallback;
};
const ITEMS = option('--items', 1_000_000);
const RUNS = option('--runs', 3);
const SHARDS = 4;
const BUCKETS = [1, 4, 16];
const KEYS = ['/userId', '/id'];

// One process under /usr/bin/time: its wall seconds and peak RSS (MiB).
function timed(argv, {stdout = 'ignore'} = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', ...argv],
                      {encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', stdout, 'pipe']});
  const last = r.stderr.trim().split('\n').pop();
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const [seconds, kb] = last.split(' ').map(Number);
  return {seconds, rss_mib: kb / 1024};
}

function digest(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

// The generated file cut into SHARDS files at line ends (reused while the file is the same).
async function shards(file) {
  const dir = join(DEFAULT_DIR, `cluster-shards-${ITEMS}`);
  const size = statSync(file).size;
  const marker = join(dir, `size-${size}`);
  if (existsSync(marker)) return [...Array(SHARDS).keys()].map((k) => join(dir, `shard-${k}.ndjson`));
  rmSync(dir, {recursive: true, force: true});
  mkdirSync(dir, {recursive: true});
  const bytes = readFileSync(file);
  const cuts = [0];
  for (let k = 1; k < SHARDS; ++k) cuts.push(bytes.indexOf(10, Math.floor((size * k) / SHARDS)) + 1);
  cuts.push(size);
  const files = [];
  for (let k = 0; k < SHARDS; ++k) {
    const path = join(dir, `shard-${k}.ndjson`);
    await new Promise((done, fail) => {
      const out = createWriteStream(path);
      out.on('finish', done).on('error', fail);
      out.end(bytes.subarray(cuts[k], cuts[k + 1]));
    });
    files.push(path);
  }
  await new Promise((done) => createWriteStream(marker).end('', done));
  return files;
}

function dirBytes(dir) {
  return spawnSync('du', ['-sb', dir], {encoding: 'utf8'}).stdout.split('\t')[0] * 1;
}

async function main() {
  const {file} = await ensureNdjson({items: ITEMS});
  const parts = await shards(file);
  const inputBytes = statSync(file).size;
  const work = join(DEFAULT_DIR, 'cluster-work');
  const results = {};
  for (const key of KEYS) {
    const one = join(work, `one${key.replace('/', '-')}.json`);
    mkdirSync(work, {recursive: true});
    const runs = {one: [], whole: []};
    for (const k of BUCKETS) runs[k] = [];
    for (let round = 0; round < RUNS; ++round) {
      // One pass, its report kept to check every K against.
      runs.one.push(timed([partplay, 'analyze', '--key', key, '--jobs', '1', '--format', 'json',
                           '--quiet', '-o', one, file]));
      // Whole partial states merged in one process: every partition there at once.
      const wholeDir = join(work, 'whole');
      mkdirSync(wholeDir, {recursive: true});
      const wholeParts = parts.map((p, i) => join(wholeDir, `${i}.part`));
      for (let i = 0; i < SHARDS; ++i) {
        timed([partplay, 'analyze', '--key', key, '--quiet', '--partial-out', wholeParts[i],
               '-o', '/dev/null', parts[i]]);
      }
      runs.whole.push(timed([partplay, 'merge', '--format', 'json', '--quiet', '-o', '/dev/null',
                             ...wholeParts]));
      for (const k of BUCKETS) {
        const dir = join(work, `k${k}`);
        rmSync(dir, {recursive: true, force: true});
        const dirs = parts.map((p, i) => join(dir, 'parts', `${i}`));
        const sums = join(dir, 'sums');
        mkdirSync(sums, {recursive: true});
        const analyze = dirs.map((d, i) => timed([partplay, 'analyze', '--key', key, '--quiet',
                                                  '--partial-out', d, '--buckets', `${k}`,
                                                  parts[i]]));
        const merges = [];
        for (let b = 0; b < k; ++b) {
          merges.push(timed([partplay, 'merge', '--quiet', '--bucket', `${b}`, '--summary-out',
                             join(sums, `${b}.sum`), ...dirs]));
        }
        const report = join(dir, 'report.json');
        const summary = timed([partplay, 'merge', '--quiet', '--summaries', sums, '--format',
                               'json', '-o', report, ...dirs]);
        const same = digest(report) === digest(one);
        if (!same) throw new Error(`${key} K=${k}: the report differs from one pass's`);
        runs[k].push({analyze, merges, summary, partial_bytes: dirBytes(join(dir, 'parts')),
                      summary_bytes: dirBytes(sums)});
      }
    }
    const sec = (list) => median(list.map((r) => r.seconds));
    const peak = (list) => Math.max(...list.map((r) => r.rss_mib));
    const partitions = JSON.parse(readFileSync(one, 'utf8').slice(0, 4096).split(',"partitions"')[0] + '}')
      .partition_count;
    const row = {partitions, one_seconds: sec(runs.one), one_rss_mib: peak(runs.one),
                 whole_merge_seconds: sec(runs.whole), whole_merge_rss_mib: peak(runs.whole),
                 buckets: {}};
    for (const k of BUCKETS) {
      const r = runs[k];
      const analyzeSeconds = median(r.map((x) => x.analyze.reduce((s, a) => s + a.seconds, 0)));
      const mergeSeconds = median(r.map((x) => x.merges.reduce((s, a) => s + a.seconds, 0)));
      row.buckets[k] = {
        analyze_seconds_all_parts: analyzeSeconds,
        analyze_rss_mib_max: Math.max(...r.flatMap((x) => x.analyze.map((a) => a.rss_mib))),
        bucket_merge_seconds_all: mergeSeconds,
        bucket_merge_rss_mib_max: Math.max(...r.flatMap((x) => x.merges.map((a) => a.rss_mib))),
        summary_seconds: median(r.map((x) => x.summary.seconds)),
        summary_rss_mib: Math.max(...r.map((x) => x.summary.rss_mib)),
        partial_mb: r[0].partial_bytes / 1e6,
        summaries_mb: r[0].summary_bytes / 1e6,
      };
    }
    results[key] = row;
  }
  if (!args.includes('--keep')) rmSync(work, {recursive: true, force: true});

  // Print: the steps per K, the 1/K check, the cost model.
  const mb = inputBytes / 1e6;
  console.log(`cluster recipe, step by step: ${ITEMS.toLocaleString('en')} items, ${mb.toFixed(1)} MB, ` +
              `${SHARDS} shards, each step one process on one core, median of ${RUNS}`);
  const lines = ['| key | partitions | K | parts: s (all 4) | part RSS MiB | bucket merges: s (all K) | ' +
                 'bucket merge peak RSS MiB | x of K=1 | summary s | summary RSS MiB | partials MB |',
                 '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
  for (const key of KEYS) {
    const row = results[key];
    for (const k of BUCKETS) {
      const b = row.buckets[k];
      lines.push(`| ${key} | ${row.partitions.toLocaleString('en')} | ${k} | ${b.analyze_seconds_all_parts.toFixed(2)} | ` +
                 `${b.analyze_rss_mib_max.toFixed(0)} | ${b.bucket_merge_seconds_all.toFixed(2)} | ` +
                 `${b.bucket_merge_rss_mib_max.toFixed(1)} | ` +
                 `${(b.bucket_merge_rss_mib_max / row.buckets[1].bucket_merge_rss_mib_max).toFixed(2)} | ` +
                 `${b.summary_seconds.toFixed(2)} | ${b.summary_rss_mib.toFixed(0)} | ${b.partial_mb.toFixed(1)} |`);
    }
    lines.push(`| ${key} | | one pass | ${row.one_seconds.toFixed(2)} | ${row.one_rss_mib.toFixed(0)} | ` +
               `whole-state merge ${row.whole_merge_seconds.toFixed(2)} | ${row.whole_merge_rss_mib.toFixed(1)} | | | | |`);
  }
  console.log(lines.join('\n'));
  // The cost model: per core, from K = 16's steps. A part's work goes with its bytes; a bucket
  // merge's with the items (each keeps an id pair per item, or a partition per item keyed by
  // /id); the summary step's with the partitions. /userId-like: the partitions stay this file's
  // share of items (50 items a partition); /id-like: one per item.
  const model = {};
  for (const key of KEYS) {
    const row = results[key];
    const b = row.buckets[16];
    const perTb = 1e6 / mb;  // this file's multiple in a TB
    const analyzeMbS = mb / b.analyze_seconds_all_parts;
    const mergeItemsS = ITEMS / b.bucket_merge_seconds_all;
    const summaryPartitionsS = row.partitions / b.summary_seconds;
    model[key] = {
      analyze_mb_s_per_core: analyzeMbS,
      bucket_merge_items_s_per_core: mergeItemsS,
      summary_partitions_s: summaryPartitionsS,
      partial_bytes_per_item: (b.partial_mb * 1e6) / ITEMS,
      parts_core_hours_per_tb: 1e6 / analyzeMbS / 3600,
      bucket_merges_core_hours_per_tb: (ITEMS * perTb) / mergeItemsS / 3600,
      summary_hours_per_tb: (row.partitions * perTb) / summaryPartitionsS / 3600,
      partials_gb_per_tb: (b.partial_mb * perTb) / 1e3,
      summaries_gb_per_tb: (b.summaries_mb * perTb) / 1e3,
      // What a bucket merge holds beyond a process's own, per million items of its bucket.
      bucket_merge_mib_per_million_items:
        ((row.buckets[1].bucket_merge_rss_mib_max - row.buckets[16].bucket_merge_rss_mib_max) /
         (ITEMS * (1 - 1 / 16))) * 1e6,
    };
    const m = model[key];
    const bucketsFor8Gb = Math.ceil((ITEMS * perTb / 1e6) * m.bucket_merge_mib_per_million_items / 8192);
    m.buckets_per_tb_for_8_gib_merges = bucketsFor8Gb;
    console.log(`cost model ${key}: parts ${analyzeMbS.toFixed(0)} MB/s per core, bucket merges ` +
                `${(mergeItemsS / 1e6).toFixed(2)} M items/s per core, summary ` +
                `${(summaryPartitionsS / 1e6).toFixed(2)} M partitions/s (one core); a TB: parts ` +
                `${m.parts_core_hours_per_tb.toFixed(2)} core-hours, bucket merges ` +
                `${m.bucket_merges_core_hours_per_tb.toFixed(2)} core-hours, summary ` +
                `${m.summary_hours_per_tb.toFixed(2)} h, ${m.partials_gb_per_tb.toFixed(0)} GB of partials, ` +
                `${m.summaries_gb_per_tb.toFixed(1)} GB of summaries; a bucket merge holds ` +
                `${m.bucket_merge_mib_per_million_items.toFixed(0)} MiB per million items: ` +
                `K >= ${bucketsFor8Gb} keeps it under 8 GiB`);
  }
  console.log('FINAL ' + JSON.stringify({items: ITEMS, input_mb: mb, shards: SHARDS, results, model}));
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
