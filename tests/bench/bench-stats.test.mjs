// The benchmark's own logic (bench-stats.mjs, js-baseline.mjs): the interleaved order, medians
// and ranges, the like-for-like ratio formulas and their targets. Authored; no timing is measured.
import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {formatRatio, interleave, markdownTable, median, rateRatio, ratesOf, ratioDefinitions, ratioTable, runInterleaved,
        summarize} from './bench-stats.mjs';
import {cutAtLines, groupLines} from './js-baseline.mjs';

describe('interleaving', () => {
  test('every variant once per round, in the same order: A B C A B C', () => {
    assert.deepEqual(interleave(['a', 'b', 'c'], 2).map((e) => `${e.round}${e.variant}`),
                     ['0a', '0b', '0c', '1a', '1b', '1c']);
  });
  test('bad arguments are refused', () => {
    assert.throws(() => interleave([], 3), /no variants/);
    assert.throws(() => interleave(['a'], 0), /runs must be an integer >= 1/);
    assert.throws(() => interleave(['a'], 1.5), /runs must be an integer >= 1/);
  });
  test('runInterleaved measures in that order and files each result under its variant and round', async () => {
    const calls = [];
    const results = await runInterleaved(['x', 'y'], 3, async (variant, round) => {
      calls.push(`${variant}${round}`);
      return {seconds: round + (variant === 'x' ? 10 : 20)};
    });
    assert.deepEqual(calls, ['x0', 'y0', 'x1', 'y1', 'x2', 'y2']);
    assert.deepEqual(results, {x: [{seconds: 10}, {seconds: 11}, {seconds: 12}],
                               y: [{seconds: 20}, {seconds: 21}, {seconds: 22}]});
  });
});

describe('medians and ranges', () => {
  test('odd and even counts; the input is not reordered', () => {
    const values = [5, 1, 3];
    assert.equal(median(values), 3);
    assert.deepEqual(values, [5, 1, 3]);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.throws(() => median([]), /no values/);
    assert.deepEqual(summarize([2, 9, 4]), {median: 4, min: 2, max: 9, n: 3});
  });
  test('MB/s is 1e6 bytes per second', () => {
    assert.deepEqual(ratesOf(300e6, [{seconds: 1}, {seconds: 2}]), [300, 150]);
  });
});

describe('ratios', () => {
  test('a ratio is median over median, with the range of the per-round ratios', () => {
    const r = rateRatio([100, 300, 200], [100, 100, 400]);
    assert.equal(r.value, 200 / 100);
    assert.equal(r.min, 0.5);
    assert.equal(r.max, 3);
    assert.throws(() => rateRatio([1, 2], [1]), /2 against 1 runs/);
  });
  test('every like-for-like definition names sides on the same cores; the old ones are marked', () => {
    const defs = ratioDefinitions(2);
    for (const d of defs.filter((d) => d.cores === '1 / 1' || d.cores === '2 / 2')) assert.ok(!d.old, d.name);
    for (const d of defs.filter((d) => d.old)) assert.match(d.name, /\(old\)$/);
    const byName = Object.fromEntries(defs.map((d) => [d.name, d]));
    assert.deepEqual([byName.cli_1job_vs_parse_1core.num, byName.cli_1job_vs_parse_1core.den], ['cli1', 'parse1']);
    assert.deepEqual([byName.cli_2jobs_vs_parse_2cores.num, byName.cli_2jobs_vs_parse_2cores.den], ['cliN', 'parseN']);
    assert.equal(byName['native_vs_parse_limit (old)'].cores, '2 / 1');
    assert.equal(byName.page_2workers_vs_js_pool_2.target, 5);
    assert.equal(new Set(defs.map((d) => d.name)).size, defs.length, 'names are unique');
  });
  test('the table: rates against rate targets, seconds against time targets, missing figures left out', () => {
    const rows = ratioTable(ratioDefinitions(2), {
      rates: {cli1: [100, 110, 90], parse1: [200, 200, 200], cliN: [150, 150, 150], cli_json: [1, 1, 1]},
      times: {cli_json_id: [3, 3, 3], cli_json: [1, 1, 1], cliN_id: [1.5, 1.5, 1.5], cliN: [1, 1, 1]},
    });
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    assert.equal(byName.cli_1job_vs_parse_1core.value, 0.5);
    assert.equal(byName.cli_1job_vs_parse_1core.met, true);
    assert.equal(byName.cli_2jobs_vs_1job.value, 1.5);
    assert.equal(byName.cli_2jobs_vs_1job.met, false);
    assert.equal(byName.id_vs_userid_time_json.value, 3);
    assert.equal(byName.id_vs_userid_time_json.op, '<=');
    assert.equal(byName.id_vs_userid_time_json.met, false);
    assert.equal(byName.id_vs_userid_time_table.met, true);
    assert.equal(byName['native_vs_parse_limit (old)'].value, 0.75);
    assert.equal(byName['native_vs_parse_limit (old)'].old, true);
    assert.equal(byName.cli_vs_duckdb_1thread_userid, undefined, 'no DuckDB figures: no row');
    assert.equal(byName.parse_2cores_vs_1core, undefined);
    assert.match(formatRatio(byName.cli_2jobs_vs_1job), /1\.50 \(1\.36-1\.67\) +target >= 1\.8: NOT met/);
    assert.match(formatRatio(byName['native_vs_parse_limit (old)']), /\[2 \/ 1, old: not like for like\]/);
    const md = markdownTable([byName.cli_1job_vs_parse_1core, byName.cli_2jobs_vs_1job, byName['native_vs_parse_limit (old)'],
                              {name: 'cql_point', compares: 'a | b', cores: '1 / 1', text: '0.15 ms', target: '< 1 ms', met: true}]);
    const lines = md.split('\n');
    assert.equal(lines.length, 6);
    assert.match(lines[2], /^\| `cli_1job_vs_parse_1core` \| .* \| 1 \/ 1 \| 0\.50 \(0\.45–0\.55\) \| >= 0\.5: met \|$/);
    assert.match(lines[3], /\| >= 1\.8: \*\*NOT met\*\* \|$/);
    assert.match(lines[4], /\(old: not like for like\) \| 2 \/ 1 \|/);
    assert.equal(lines[5], '| `cql_point` | a \\| b | 1 / 1 | 0.15 ms | < 1 ms: met |');
  });
});

describe('the plain-JS baseline and its pool\'s cuts', () => {
  const text = '{"userId":"a","v":1}\n{"userId":"b"}\n\n{"userId":"a","é":2}\n';
  const u8 = new TextEncoder().encode(text);
  test('groups by the field with counts and UTF-16 lengths; blank lines are not items', () => {
    const {items, groups} = groupLines(u8, 'userId');
    assert.equal(items, 3);
    assert.deepEqual(Object.fromEntries(groups), {a: {count: 2, bytes: 20 + 20}, b: {count: 1, bytes: 14}});
  });
  test('cuts fall after line ends and together the pieces give the same groups', () => {
    for (const pieces of [1, 2, 3, 7]) {
      const cuts = cutAtLines(u8, pieces);
      assert.equal(cuts.length, pieces + 1);
      assert.equal(cuts[0], 0);
      assert.equal(cuts.at(-1), u8.length);
      let items = 0;
      for (let k = 0; k < pieces; k++) {
        assert.ok(cuts[k] <= cuts[k + 1]);
        if (cuts[k] > 0) assert.equal(u8[cuts[k] - 1], 10, `cut ${k} follows a newline`);
        items += groupLines(u8.subarray(cuts[k], cuts[k + 1])).items;
      }
      assert.equal(items, 3, `${pieces} pieces`);
    }
  });
});
