// The engine's vocabulary and candidate-key parser as the page receives them (wasm/bindings.cpp
// vocabulary, wasm/compare_bindings.cpp parseCandidateSpec; report/vocabulary.h,
// report/candidate_spec.h): the enums and defaults the page's controls start from, the limits
// table's defaults and thresholds, and the verdicts the report carries beside its figures.
//
//   node --test tests/wasm/vocabulary.test.mjs   (build/wasm-cmake's partplay-cosmos-fast)
import {before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {loadEngine} from './helpers.mjs';

describe('vocabulary, defaults and verdicts', () => {
  let engine;
  before(async () => {
    ({engine} = await loadEngine('cosmos-fast'));
  });

  test('the vocabulary lists the enums the options accept and the default options', () => {
    const {defaults, enums} = engine.vocabulary();
    assert.deepEqual(enums.hash_versions, ['1', '2', 'multihash']);
    assert.deepEqual(enums.spread_kinds, ['uniform', 'field', 'zipf']);
    assert.deepEqual(enums.synthetic_kinds, ['none', 'concat', 'random_suffix', 'hash_suffix']);
    const limits = new Map(engine.limits().map((l) => [l.id, l]));
    assert.equal(defaults.container.ru_per_second, limits.get('cosmos_default_ru_per_second').value);
    assert.equal(defaults.container.top_per_range, limits.get('cosmos_default_top_per_range').value);
    assert.equal(defaults.container.workload.query_ru, limits.get('cosmos_default_query_ru').value);
    assert.equal(defaults.synthetic.buckets, limits.get('cosmos_default_synthetic_buckets').value);
    assert.equal(limits.get('storage_balance_warn').kind, 'threshold');
    // The stated defaults are what the engine assumes: a report without options says the same.
    const report = engine.analyzeBytes(new TextEncoder().encode('{"id":"1","k":"a"}\n'), {key_paths: ['/k']},
                                       {container: {}});
    assert.equal(report.container.ru_per_second, defaults.container.ru_per_second);
    assert.equal(report.container.workload.query_ru, defaults.container.workload.query_ru);
  });

  test('parseCandidateSpec reads the --candidate grammar and refuses the rest', () => {
    assert.deepEqual(engine.parseCandidateSpec('/tenantId, /userId'), {key_paths: ['/tenantId', '/userId']});
    assert.deepEqual(engine.parseCandidateSpec('hash:/date:/vin:400'),
                     {key_paths: ['/date'], synthetic: {kind: 'hash_suffix', separator: '-', buckets: 400, suffix_path: '/vin'}});
    assert.deepEqual(engine.parseCandidateSpec('random:/a:10'),
                     {key_paths: ['/a'], synthetic: {kind: 'random_suffix', separator: '-', buckets: 10, seed: 0}});
    assert.deepEqual(engine.parseCandidateSpec('concat:/a,/b'),
                     {key_paths: ['/a'], synthetic: {kind: 'concat', paths: ['/a', '/b'], separator: '-'}});
    for (const bad of ['tenantId', 'random:/a:0', 'hash:/a:9', '/a,/b,/c,/d']) {
      assert.throws(() => engine.parseCandidateSpec(bad), (e) => e.codeName === 'bad_option', bad);
    }
  });

  test('the report carries the spread verdict, the levels and the storage balance', () => {
    const lines = [];
    for (let k = 0; k < 120; k++) lines.push(JSON.stringify({id: String(k), k: `v${k}`}));
    const report = engine.analyzeBytes(new TextEncoder().encode(lines.join('\n')), {key_paths: ['/k']},
                                       {container: {ru_per_second: 30000}});
    assert.equal(report.spread.gini, report.gini);
    assert.deepEqual([report.spread.verdict, report.spread.level], ['fairly even', 'good']);
    assert.equal(report.levels.partition_count, '');
    const layout = report.container.before;
    assert.equal(layout.ranges.length, 5, 'created with 30,000 RU/s manual: ceil(30,000 / 6,000)');
    const bytes = layout.ranges.map((r) => r.bytes);
    const mean = bytes.reduce((a, b) => a + b, 0) / bytes.length;
    assert.ok(Math.abs(layout.storage_balance.max_over_mean - Math.max(...bytes) / mean) < 1e-12);
    assert.equal(layout.storage_balance.verdict, layout.storage_balance.max_over_mean > 1.5 ? 'uneven' : 'even');
    assert.equal(layout.throttled_level, '');
  });
});
