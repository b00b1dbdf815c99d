// Every request type of the worker protocol is wired end to end (web/worker/protocol.js
// REQUESTS): the worker has its handler (handlers/index.js), the client its method, which sends
// that type with the payload the table describes, and each engine call the entry names exists in
// the engine's JS API (wasm/partplay-api.mjs, as the site serves it). The check itself is shown to
// fail when a handler, a client method or an API call is missing. tests/e2e/workers.test.mjs runs
// one request of each type through a real worker.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {ROOT} from './helpers.mjs';

const web = (file) => import(pathToFileURL(path.join(ROOT, 'web', file)).href);
const protocol = await web('worker/protocol.js');
// The handlers as their modules export them (index.js imports most of them on first use).
const handlers = await (await web('worker/handlers/index.js')).loadedHandlers();
const {PlaygroundClient} = await web('worker/client.js');
const {PartplayError} = await web('common/errors.js');
// The engine's API as the site serves it, beside the site's copy of web/common/errors.js.
const api = await import(pathToFileURL(path.join(ROOT, 'build/site/engine/partplay-api.mjs')).href);
const siteErrors = await import(pathToFileURL(path.join(ROOT, 'build/site/common/errors.js')).href);

/** The wiring problems of `table` against the handlers, the client's prototype and the engine's API. */
function unwired(table, handlerMap, clientPrototype, engineApi) {
  const problems = [];
  const types = new Set(table.map((e) => e.type));
  for (const entry of table) {
    if (typeof handlerMap[entry.type] !== 'function') problems.push(`${entry.type}: no handler`);
    if (typeof clientPrototype[entry.client] !== 'function') problems.push(`${entry.type}: no client method ${entry.client}`);
    for (const call of entry.api ?? []) {
      const [owner, method] = call.split('.');
      if (typeof engineApi[owner]?.prototype?.[method] !== 'function') problems.push(`${entry.type}: no ${call} in the API`);
    }
  }
  for (const type of Object.keys(handlerMap)) if (!types.has(type)) problems.push(`${type}: a handler outside the table`);
  return problems;
}

/** A minimal well-formed payload of `entry` (its required fields, from their shapes). */
function sample(entry) {
  const file = new Blob(['{"id":"a"}\n{"id":"b"}\n']);
  const values = {string: 'x', boolean: true, number: 1, integer: 1, offset: 0, positive: 1, object: {}, array: [],
                  strings: ['x'], paths: ['/id'], buffers: [new ArrayBuffer(4)], slot: 'main',
                  source: {kind: 'text', text: '{}'}};
  const payload = {};
  for (const [field, spec] of Object.entries(entry.payload)) {
    if (typeof spec === 'string') {
      if (!spec.startsWith('?')) payload[field] = values[spec];
    } else if (Array.isArray(spec)) {
      payload[field] = [{key_paths: ['/id']}];  // compare's keys
    } else if (Object.getPrototypeOf(spec) === Object.prototype) {
      payload[field] = {};  // ring: every field optional
    }
  }
  if (entry.type === 'split' || entry.type === 'analyze-part') payload.source = {kind: 'file', file};
  if (entry.type === 'analyze-part') Object.assign(payload, {begin: 0, end: 11});
  if (entry.type === 'cancel') payload.target = 7;
  return payload;
}

/** A stand-in for the browser's Worker: records what is posted, answers each request's payload. */
class FakeWorker extends EventTarget {
  static posted = [];
  postMessage(message) {
    FakeWorker.posted.push(message);
    const payload = message.type === 'init' ? {version: 'test', errorCodes: [], limits: [], simd: true} : {echo: message.payload};
    queueMicrotask(() => this.dispatchEvent(Object.assign(new Event('message'), {data: {id: message.id, type: 'result', payload}})));
  }
  terminate() {}
}

describe('the protocol table', () => {
  test('every request type has a handler, a client method and the API calls it names', () => {
    assert.deepEqual(unwired(protocol.REQUESTS, handlers, PlaygroundClient.prototype, api), []);
    assert.ok(protocol.REQUESTS.length >= 20, `${protocol.REQUESTS.length} request types`);
    assert.deepEqual(Object.values(protocol.Request).sort(), protocol.REQUESTS.map((e) => e.type).sort());
    for (const entry of protocol.REQUESTS) {
      assert.match(entry.doc ?? '', /\w/, `${entry.type} has its doc`);
      assert.match(entry.result ?? '', /\w/, `${entry.type} documents its result`);
      assert.ok(entry.domain === null || ['first', 'cosmos', 'cql', 'sizing'].includes(entry.domain), entry.type);
    }
  });

  test('the reference docs are written from the table', async () => {
    const {protocolMarkdown} = await web('worker/protocol-docs.js');
    const text = protocolMarkdown();
    for (const entry of protocol.REQUESTS) {
      assert.ok(text.includes(`| \`${entry.type}\` | \`${entry.client}\` |`), entry.type);
      assert.ok(text.includes(`- \`${entry.type}\`: ${entry.doc}`), entry.type);
    }
  });

  test('the check fails when a handler, a client method or an API call is missing', () => {
    const [first, second] = protocol.REQUESTS;
    const {[second.type]: dropped, ...fewerHandlers} = handlers;
    assert.equal(typeof dropped, 'function');
    assert.deepEqual(unwired(protocol.REQUESTS, fewerHandlers, PlaygroundClient.prototype, api), [`${second.type}: no handler`]);
    const clientWithout = Object.create(null);
    for (const entry of protocol.REQUESTS) clientWithout[entry.client] = PlaygroundClient.prototype[entry.client];
    delete clientWithout.cqlView;
    assert.deepEqual(unwired(protocol.REQUESTS, handlers, clientWithout, api), ['cql-view: no client method cqlView']);
    const renamed = protocol.REQUESTS.map((e) => (e === first ? {...e, api: ['Engine.noSuchCall']} : e));
    assert.deepEqual(unwired(renamed, handlers, PlaygroundClient.prototype, api), [`${first.type}: no Engine.noSuchCall in the API`]);
    assert.deepEqual(unwired(protocol.REQUESTS, {...handlers, extra: () => null}, PlaygroundClient.prototype, api),
                     ['extra: a handler outside the table']);
  });

  test('each client method sends its own type with the payload the table describes', async () => {
    const saved = {Worker: globalThis.Worker, location: globalThis.location, document: globalThis.document};
    Object.assign(globalThis, {Worker: FakeWorker, location: new URL('http://127.0.0.1/'),
                               document: {baseURI: 'http://127.0.0.1/'}});
    try {
      const client = new PlaygroundClient({workerUrl: 'http://127.0.0.1/worker/worker.js', workers: 1});
      await client.ready;
      for (const entry of protocol.REQUESTS) {
        if (entry.type === 'init') continue;  // sent by the constructor: `ready`
        FakeWorker.posted.length = 0;
        const payload = sample(entry);
        assert.doesNotThrow(() => protocol.validateRequest({id: 1, type: entry.type, payload}), entry.type);
        const arg = entry.args === 'positional' ? Object.values(payload)[0] : payload;
        await client[entry.client](arg);
        const sent = FakeWorker.posted.find((m) => m.type === entry.type);
        assert.ok(sent, `${entry.client}() sent no ${entry.type} (sent ${FakeWorker.posted.map((m) => m.type)})`);
        assert.deepEqual(sent.payload, payload, entry.type);
      }
      // A payload of the wrong shape is refused here, naming the field, before anything is sent.
      FakeWorker.posted.length = 0;
      await assert.rejects(client.cqlView({table: 5}), (e) => e instanceof PartplayError && e.codeName === 'bad_request' &&
                           /table/.test(e.message));
      await assert.rejects(client.sizingTables(5), (e) => e.codeName === 'bad_request' && /cql/.test(e.message));
      assert.deepEqual(FakeWorker.posted, []);
      client.terminate();
    } finally {
      Object.assign(globalThis, saved);
    }
  });
});

describe('one error class over the engine\'s code table', () => {
  test('the page\'s, the worker\'s and the engine API\'s errors are one class, their codes the engine\'s', async () => {
    const {engine} = await import('./helpers.mjs').then((h) => h.loadEngine());
    assert.equal(api.PartplayError, siteErrors.PartplayError, 'the API throws the page\'s one class');
    const table = engine.errorCodes();
    const {ErrorCodeNames, setErrorCodes} = await web('common/errors.js');
    // Every name the page and the worker raise is in the engine's table.
    for (const name of Object.values(ErrorCodeNames)) assert.ok(table.some((c) => c.name === name), `${name} is the engine's`);
    setErrorCodes(table);
    for (const name of Object.values(ErrorCodeNames)) {
      const e = new PartplayError({codeName: name, message: 'm'});
      assert.equal(e.code, table.find((c) => c.name === name).code, name);
      assert.deepEqual(protocol.toErrorPayload(e), {name: name === 'cancelled' ? 'AbortError' : 'PartplayError',
                                                   code: e.code, codeName: name, message: 'm', location: null, field: null});
    }
    let thrown;
    try {
      engine.newAnalysis({key_paths: ['a']});
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof siteErrors.PartplayError);
    assert.equal(thrown.codeName, 'bad_key_path');
    assert.equal(thrown.code, table.find((c) => c.name === 'bad_key_path').code);
  });

  test('no page module defines another error class or a code of its own', () => {
    const files = [...fs.readdirSync(path.join(ROOT, 'web/worker')).map((f) => `web/worker/${f}`),
                   ...fs.readdirSync(path.join(ROOT, 'web/worker/handlers')).map((f) => `web/worker/handlers/${f}`),
                   'wasm/partplay-api.mjs'].filter((f) => f.endsWith('.js') || f.endsWith('.mjs'));
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      assert.doesNotMatch(text, /class \w+ extends Error/, file);
      assert.doesNotMatch(text, /\bcode:\s*\d|_CODE\s*=\s*\d/, file);
      assert.doesNotMatch(text, /codeName:\s*'[a-z_]+'/, `${file} spells a code name (use ErrorCodeNames)`);
    }
  });
});

describe('values are the engine\'s to judge', () => {
  test('the page checks shapes, nested ones too, naming the field', () => {
    const bad = [
      [protocol.request(1, 'model', {container: {ru_per_second: '400'}}), /container\.ru_per_second must be a number/],
      [protocol.request(1, 'model', {container: {workload: {zipf_exponent: 'x'}}}), /container\.workload\.zipf_exponent/],
      [protocol.request(1, 'ring', {ring: {datacenters: [{nodes: 1}]}}), /ring\.datacenters\[0\]\.name is required/],
      [protocol.request(1, 'compare', {keys: [{key_paths: []}]}), /keys\[0\]\.key_paths/],
      [protocol.request(1, 'cql-load', {table: 't', source: {kind: 'text', text: ''}, csv: {columns: 'a'}}), /csv\.columns/],
    ];
    for (const [m, message] of bad) assert.throws(() => protocol.validateRequest(m), message, JSON.stringify(m.payload));
  });

  test('the value rules the page no longer copies are refused by the engine, naming the field', async () => {
    const {engine} = await import('./helpers.mjs').then((h) => h.loadEngine());
    const refused = (run, said) => assert.throws(run, (e) => e instanceof siteErrors.PartplayError &&
                                                 e.codeName === 'bad_option' && said.test(e.message), String(said));
    const analysis = engine.newAnalysis({key_paths: ['/a']});
    try {
      analysis.feed(new TextEncoder().encode('{"a": 1}\n'));
      analysis.finish();
      refused(() => analysis.model({container: {hash_version: '3'}}), /hash_version/);
      refused(() => analysis.model({container: {workload: {spread: 'pareto'}}}), /workload\.spread/);
    } finally {
      analysis.dispose();
    }
    refused(() => engine.newAnalysis({key_paths: ['/a'], synthetic: {kind: 'reverse'}}), /synthetic\.kind/);
    refused(() => engine.newAnalysis({key_paths: ['/a'], synthetic: {kind: 'random_suffix', buckets: -1}}), /synthetic\.buckets/);
    refused(() => engine.newAnalysis({key_paths: ['/a'], synthetic: {kind: 'hash_suffix', buckets: 4}}), /suffix needs a source path/);
    const session = engine.createCqlSession();
    try {
      session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};" +
                      'CREATE TABLE ks.t (k int PRIMARY KEY);');
      refused(() => session.tableLayout('ks.t', {ru_per_second: -1}), /ru_per_second/);
    } finally {
      session.dispose();
    }
  });
});

describe('the parts policy is the engine\'s', () => {
  test('planParts and retryParts answer ingest/parts_plan.h', async () => {
    // The page's module: the element's (partplay-cosmos) never reads a file in parts.
    const {engine} = await import('./helpers.mjs').then((h) => h.loadEngine('cosmos-fast'));
    const mib = 2 ** 20;
    const plan = (inputBytes, workers, cores, options = {key_paths: ['/id']}) =>
      engine.planParts({inputBytes, seekable: true, workers, cores, options});
    assert.equal(plan(100 * mib, 0, 8).parts, 4);
    assert.equal(plan(100 * mib, 0, 8).min_part_bytes, mib);
    assert.equal(plan(100 * mib, 3, 1).parts, 3);
    assert.equal(plan(mib, 0, 8).parts, 1);
    assert.equal(plan(100 * mib, 0, 8, {key_paths: ['/id'], synthetic: {kind: 'random_suffix', buckets: 4}}).parts, 1);
    assert.throws(() => plan(100 * mib, 0, 8, {key_paths: ['/id'], nope: 1}), (e) => e.codeName === 'bad_option');
    const code = (name) => engine.errorCode(name);
    assert.equal(engine.retryParts(code('bad_partial'), false), 'id_records');
    assert.equal(engine.retryParts(code('bad_partial'), true), 'one_pass');
    assert.equal(engine.retryParts(code('malformed_json'), false), 'one_pass');
    assert.equal(engine.retryParts(code('cancelled'), false), 'stop');
    // client.js keeps no number of the policy.
    const client = fs.readFileSync(path.join(ROOT, 'web/worker/client.js'), 'utf8');
    assert.doesNotMatch(client, /<<\s*20|MAX_WORKERS|PARTS_MIN_FILE_BYTES|random_suffix|hardwareConcurrency \?\? 1\) >/);
  });
});
