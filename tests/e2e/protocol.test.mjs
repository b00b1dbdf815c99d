// One request of every type of the worker protocol (web/worker/protocol.js REQUESTS) through a
// real engine worker in Chromium, by the page's own client (web/worker/client.js): each answers a
// result of the shape its table entry documents, and a type added to the table without a run
// here fails the coverage check. tests/wasm/protocol-wiring.test.mjs checks the wiring in Node.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {TIMEOUT, openPage, useBrowser} from './harness.mjs';

useBrowser();

describe('every request type through a real worker', () => {
  test('each type answers', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      const out = await page.evaluate(async () => {
        const {PlaygroundClient} = await import(new URL('worker/client.js', location.href).href);
        const {REQUESTS} = await import(new URL('worker/protocol.js', location.href).href);
        const client = new PlaygroundClient({workers: 1});
        const ran = {};
        const run = async (type, call) => {
          try {
            ran[type] = {ok: true, result: await call()};
          } catch (e) {
            ran[type] = {ok: false, error: {codeName: e.codeName, code: e.code, message: e.message, name: e.name}};
          }
        };
        const text = '{"id":"a","k":1}\n{"id":"b","k":2}\n{"id":"c","k":1}\n';
        const file = new File([text], 'items.ndjson');
        try {
          await run('init', () => client.ready);
          await run('analyze', () => client.analyze({source: {kind: 'text', text}, keyPaths: ['/k']}));
          await run('reanalyze', () => client.reanalyze({keyPaths: ['/id']}));
          await run('model', () => client.model({container: {ru_per_second: 1000}}));
          await run('compare', () => client.compare({keys: [{key_paths: ['/k']}, {key_paths: ['/id']}]}));
          await run('recompare', () => client.recompare({container: {ru_per_second: 4000}}));
          await run('candidate-spec', () => client.candidateSpec('hash:/k:/id:16'));
          await run('data-sizing', () => client.dataSizing({slot: 'main'}));
          await run('heap', () => client.heap());
          await run('cancel', () => client.cancel(12345));
          await run('release', () => client.release('main'));
          await run('cql', () => client.cql({script: "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', " +
            "'replication_factor': 1}; CREATE TABLE ks.t (k int PRIMARY KEY, v text);"}));
          await run('ring', () => client.ring({ring: {nodes: 4}}));
          await run('cql-load', () => client.cqlLoad({table: 'ks.t', source: {kind: 'text', text: '{"k": 1, "v": "x"}\n'}}));
          await run('cql-view', () => client.cqlView({table: 'ks.t'}));
          await run('cql-tables', () => client.cqlTables());
          await run('size-cql-rows', () => client.sizeCqlRows({table: 'ks.t'}));
          await run('cql-reset', () => client.cqlReset());
          await run('sizing-tables', () => client.sizingTables('CREATE TABLE ks.t (k int PRIMARY KEY, v text);'));
          await run('size-table', () => client.sizeTable({cql: 'CREATE TABLE ks.t (k int PRIMARY KEY, v text);',
                                                          table: 'ks.t', rows_per_partition: 1, avg_sizes: {v: 10}}));
          await run('split', () => client.split({source: {kind: 'file', file}, keyPaths: ['/k'], workers: 2, cores: 4}));
          await run('analyze-part', () => client.analyzePart({source: {kind: 'file', file}, begin: 0, end: file.size,
                                                               first: true, keyPaths: ['/k']}));
          await run('merge', () => client.merge({partials: []}));
          // A bad value is the engine's to refuse, naming the field.
          await run('bad value', () => client.model({container: {hash_version: '3'}}));
          // A bad shape is the page's, naming the field, before anything is sent.
          await run('bad shape', () => client.model({container: {ru_per_second: 'many'}}));
        } finally {
          client.terminate();
        }
        const summary = (r) => (r.ok ? Object.keys(r.result ?? {}).sort() : r.error);
        return {types: REQUESTS.map((e) => e.type), ran: Object.fromEntries(Object.entries(ran).map(([k, r]) =>
          [k, {ok: r.ok, summary: summary(r), result: ['split', 'cancel', 'release', 'analyze-part', 'candidate-spec', 'cql-tables', 'size-cql-rows'].includes(k)
            ? r.result : null}]))};
      });
      for (const type of out.types) {
        assert.ok(out.ran[type], `${type} has a run here`);
        assert.ok(out.ran[type].ok, `${type}: ${JSON.stringify(out.ran[type].summary)}`);
      }
      const {ran} = out;
      assert.ok(ran.init.summary.includes('errorCodes') && ran.init.summary.includes('limits'));
      for (const type of ['analyze', 'reanalyze', 'model', 'merge']) {
        assert.ok(['partitions', 'source', 'timing', 'slot'].every((k) => ran[type].summary.includes(k)), type);
      }
      assert.ok(ran.compare.summary.includes('keys') && ran.recompare.summary.includes('keys'));
      assert.deepEqual(ran['candidate-spec'].summary, ['key_paths', 'synthetic']);
      assert.ok(ran.cql.summary.includes('results') && ran.cql.summary.includes('view'));
      for (const type of ['ring', 'cql-view', 'cql-reset']) assert.ok(ran[type].summary.includes('ring'), type);
      assert.ok(ran['cql-load'].summary.includes('rows'));
      assert.deepEqual(ran['cql-tables'].result, {tables: ['ks.t'], table: 'ks.t'});
      assert.equal(ran['size-cql-rows'].result.rows, 1);
      assert.deepEqual(ran['size-cql-rows'].result.request.avg_sizes, {v: 1});
      assert.deepEqual(ran.cancel.result, {cancelled: false});
      assert.deepEqual(ran.release.result, {released: true});
      // A small file is one pass in the engine's plan: no cut.
      assert.deepEqual(ran.split.result.cuts, []);
      assert.equal(ran.split.result.plan.parts, 1);
      assert.equal(ran['analyze-part'].result.items, 3);
      assert.equal(ran['bad value'].ok, false);
      assert.equal(ran['bad value'].summary.codeName, 'bad_option');
      assert.match(ran['bad value'].summary.message, /hash_version/);
      assert.equal(typeof ran['bad value'].summary.code, 'number');
      assert.equal(ran['bad shape'].summary.codeName, 'bad_request');
      assert.match(ran['bad shape'].summary.message, /container\.ru_per_second must be a number/);
      assert.equal(typeof ran['bad shape'].summary.code, 'number', 'its code from the engine\'s table');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
