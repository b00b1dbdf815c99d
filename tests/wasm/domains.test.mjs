// The per-domain modules the page and the element load (CMakeLists.txt: partplay-cosmos,
// partplay-cql, partplay-sizing, the engine compiled for size; partplay-cosmos-fast, the page's,
// compiled for speed; partplay-cql-element, the element's Cassandra module, without bulk loads) answer exactly as the module with
// every domain (partplay.wasm, -O3): the same report JSON on every example and key, the same
// CQL results, ring and layout, the same sizing report; and each holds only its own bindings.
import {describe, test, before} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {ROOT, cqlExampleOutcomes, examples, loadEngine} from './helpers.mjs';

let all;
let cosmos;
let cql;
let sizing;
let cosmosFast;
let cqlElement;
before(async () => {
  [all, cosmos, cql, sizing, cosmosFast, cqlElement] = (await Promise.all(['all', 'cosmos', 'cql', 'sizing', 'cosmos-fast',
    'cql-element'].map((d) => loadEngine(d)))).map((m) => m.engine);
});

/** The report of `bytes` under `options`, with partition_bytes as a plain array. */
function report(engine, bytes, options, container) {
  const analysis = engine.newAnalysis(options);
  analysis.feed(bytes);
  const r = analysis.finish({maxPartitions: 200, container});
  analysis.dispose();
  return {...r, partition_bytes: Array.from(r.partition_bytes ?? [])};
}

describe('the per-domain engine modules', () => {
  test('cosmos: every example, its key and its synthetic key, with its container, as the full module', () => {
    for (const e of examples()) {
      const bytes = fs.readFileSync(path.join(ROOT, 'examples', e.file));
      const variants = [{key_paths: [e.key]}];
      if (e.synthetic) variants.push({key_paths: [e.key], synthetic: {separator: '.', ...e.synthetic}});
      for (const options of variants) {
        const container = {ru_per_second: 40000, ...(e.container ?? {})};
        const expected = report(all, bytes, options, container);
        assert.deepEqual(report(cosmos, bytes, options, container), expected, `${e.id} ${JSON.stringify(options)}`);
        assert.deepEqual(report(cosmosFast, bytes, options, container), expected, `fast: ${e.id} ${JSON.stringify(options)}`);
      }
    }
  });

  test('cql: every CQL example\'s results, ring and table layout, as the full module', () => {
    const expected = cqlExampleOutcomes(all);
    assert.ok(expected.length >= 3 && expected.every((o) => o.results.length > 0), 'the examples ran');
    assert.deepEqual(cqlExampleOutcomes(cql), expected);
    assert.deepEqual(cqlExampleOutcomes(cqlElement), expected, 'the element\'s module');
  });

  test('sizing: every sizing example, as the full module', () => {
    const dir = path.join(ROOT, 'examples', 'cql');
    for (const e of JSON.parse(fs.readFileSync(path.join(dir, 'sizing.json'), 'utf8'))) {
      const {id, title: _t, file, description: _d, ...rest} = e;
      const request = {cql: fs.readFileSync(path.join(dir, file), 'utf8'), ...rest};
      assert.deepEqual(sizing.sizeTable(request), all.sizeTable(request), id);
      assert.deepEqual(sizing.sizingTables(request.cql), all.sizingTables(request.cql), id);
    }
  });

  test('each module binds only its domain; all share the limits and the error codes', () => {
    assert.throws(() => cosmos.createCqlSession(), /no CQL session/);
    assert.throws(() => cosmos.sizeTable({}), TypeError);
    assert.throws(() => cql.newAnalysis({key_paths: ['/id']}), TypeError);
    assert.throws(() => cql.sizeTable({}), TypeError);
    assert.throws(() => sizing.createCqlSession(), /no CQL session/);
    assert.throws(() => sizing.newAnalysis({key_paths: ['/id']}), TypeError);
    assert.throws(() => cosmosFast.createCqlSession(), /no CQL session/);
    // The element's Cosmos DB module: no analysis in parts, no data sizing, no parse-limit probe.
    assert.throws(() => cosmos.newAnalysisPart({key_paths: ['/id']}), TypeError);
    assert.throws(() => cosmos.mergePartials([]), TypeError);
    assert.throws(() => cosmos.parseLimit(new Uint8Array(1)), TypeError);
    assert.throws(() => cosmos.planParts({inputBytes: 1}), TypeError);
    const a = cosmos.newAnalysis({key_paths: ['/id']});
    assert.throws(() => a.dataSizing(), TypeError);
    a.dispose();
    assert.equal(typeof cosmosFast.planParts({inputBytes: 1 << 20}), 'object');
    // The element's Cassandra module loads no files: startLoad says so.
    const session = cqlElement.createCqlSession();
    try {
      session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};" +
                      'CREATE TABLE ks.t (k int PRIMARY KEY);');
      assert.throws(() => session.startLoad('ks.t'), (e) => e.codeName === 'engine_load' && /loads no files/.test(e.message));
    } finally {
      session.dispose();
    }
    assert.throws(() => cqlElement.newAnalysis({key_paths: ['/id']}), TypeError);
    for (const engine of [cosmos, cosmosFast, cql, sizing, cqlElement]) {
      assert.deepEqual(engine.limits(), all.limits());
      assert.deepEqual(engine.errorCodes(), all.errorCodes());
      assert.equal(engine.version(), all.version());
    }
  });
});
