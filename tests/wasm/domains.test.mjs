// The per-domain modules the page and the element load (CMakeLists.txt: partplay-cosmos,
// partplay-cql, partplay-sizing; the engine compiled for size) answer exactly as the module with
// every domain (partplay.wasm, -O3): the same report JSON on every example and key, the same
// CQL results, ring and layout, the same sizing report; and each holds only its own bindings.
import {describe, test, before} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {ROOT, examples, loadEngine} from './helpers.mjs';

let all;
let cosmos;
let cql;
let sizing;
before(async () => {
  [all, cosmos, cql, sizing] = (await Promise.all(['all', 'cosmos', 'cql', 'sizing'].map((d) => loadEngine(d))))
    .map((m) => m.engine);
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
        assert.deepEqual(report(cosmos, bytes, options, container), report(all, bytes, options, container),
                         `${e.id} ${JSON.stringify(options)}`);
      }
    }
  });

  test('cql: every CQL example\'s results, ring and table layout, as the full module', () => {
    const dir = path.join(ROOT, 'examples', 'cql');
    for (const e of JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8'))) {
      const script = fs.readFileSync(path.join(dir, e.file), 'utf8');
      const run = (engine) => {
        const session = engine.createCqlSession();
        session.configureRing({nodes: 5, num_tokens: 8, random_tokens: false, seed: 1});
        const {results} = session.execute(script);
        const keyspaces = session.keyspaces();
        const table = results.map((r) => r.table).filter(Boolean).at(-1);
        const out = {results, keyspaces, ring: session.ring(keyspaces[0]?.name ?? ''),
                     layout: table ? session.tableLayout(table, {scan_partitions: 50000, max_partitions: 4000, ru_per_second: 40000}) : null};
        session.dispose();
        return out;
      };
      assert.deepEqual(run(cql), run(all), e.id);
    }
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
    for (const engine of [cosmos, cql, sizing]) {
      assert.deepEqual(engine.limits(), all.limits());
      assert.deepEqual(engine.errorCodes(), all.errorCodes());
      assert.equal(engine.version(), all.version());
    }
  });
});
