// The parts of the front end that need no browser: the static server (MIME types, no directory
// traversal), the worker protocol's validators, formatting, and the histogram binning.
//
//   node --test tests/e2e/
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {request} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {startServer} from '../../scripts/serve.mjs';
import * as protocol from '../../web/worker/protocol.js';
import {formatBytes, formatKey, formatKeyValue} from '../../web/common/format.js';
import {logBins} from '../../web/common/charts.js';

describe('scripts/serve.mjs', () => {
  let dir;
  let server;
  let base;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'partplay-serve-'));
    const root = join(dir, 'site');
    mkdirSync(join(root, 'engine'), {recursive: true});
    mkdirSync(join(root, 'examples'), {recursive: true});
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(root, 'app.js'), 'export {};');
    writeFileSync(join(root, 'engine', 'partplay.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
    writeFileSync(join(root, 'engine', 'partplay-api.mjs'), 'export {};');
    writeFileSync(join(root, 'examples', 'a.ndjson'), '{"a":1}\n');
    writeFileSync(join(root, 'examples', 'index.json'), '[]');
    writeFileSync(join(root, 'styles.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'link.txt'));
    ({server, url: base} = await startServer({root, port: 0}));
  });

  after(async () => {
    await new Promise((done) => server.close(done));
    rmSync(dir, {recursive: true, force: true});
  });

  /** A raw GET (no URL normalisation, so ../ reaches the server as typed). */
  function get(path, method = 'GET') {
    const {hostname, port} = new URL(base);
    return new Promise((resolve, reject) => {
      const req = request({hostname, port, path, method}, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({status: res.statusCode, type: res.headers['content-type'], body}));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('binds 127.0.0.1 and serves index.html at /', async () => {
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const r = await get('/');
    assert.equal(r.status, 200);
    assert.match(r.type, /^text\/html/);
  });

  test('sends the right MIME types', async () => {
    const cases = {
      '/engine/partplay.wasm': /^application\/wasm$/,
      '/engine/partplay-api.mjs': /^text\/javascript/,
      '/app.js': /^text\/javascript/,
      '/examples/a.ndjson': /^application\/x-ndjson/,
      '/examples/index.json': /^application\/json/,
      '/styles.css': /^text\/css/,
    };
    for (const [path, type] of Object.entries(cases)) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      assert.match(r.type, type, path);
    }
  });

  test('never serves anything outside the root', async () => {
    for (const path of ['/../secret.txt', '/examples/../../secret.txt', '/%2e%2e/secret.txt',
                        '/examples/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/link.txt', '/%00']) {
      const r = await get(path);
      assert.ok(r.status === 403 || r.status === 404 || r.status === 400, `${path} -> ${r.status}`);
      assert.ok(!r.body.includes('secret'), `${path} leaked the file`);
    }
    assert.equal((await get('/nope.js')).status, 404);
    assert.equal((await get('/', 'POST')).status, 405);
  });
});

describe('web/protocol.js', () => {
  test('accepts well-formed requests', () => {
    const ok = [
      protocol.request(1, protocol.Request.INIT),
      protocol.request(2, protocol.Request.ANALYZE, {source: {kind: 'text', text: '{}'}, keyPaths: ['/id']}),
      protocol.request(3, protocol.Request.ANALYZE, {source: {kind: 'bytes', buffer: new ArrayBuffer(2)}, keyPaths: ['/a', '/b']}),
      protocol.request(4, protocol.Request.ANALYZE, {source: {kind: 'file', file: new Blob(['{}'])}, keyPaths: ['/id'], maxPartitions: 2000}),
      protocol.request(5, protocol.Request.ANALYZE, {source: {kind: 'url', url: 'http://127.0.0.1/x.json'}, keyPaths: ['/id'], discoverItems: -1}),
      protocol.request(6, protocol.Request.REANALYZE, {keyPaths: ['/x']}),
      protocol.request(7, protocol.Request.CANCEL, {target: 5}),
    ];
    for (const m of ok) assert.equal(protocol.validateRequest(m), m);
  });

  test('rejects malformed requests with a TypeError', () => {
    const bad = [
      null,
      {type: 'init'},
      {id: 1, type: 'explode'},
      {id: 1, type: 'analyze', payload: {source: {kind: 'text'}, keyPaths: ['/a']}},
      {id: 1, type: 'analyze', payload: {source: {kind: 'text', text: ''}, keyPaths: []}},
      {id: 1, type: 'analyze', payload: {source: {kind: 'text', text: ''}, keyPaths: [5]}},
      {id: 1, type: 'analyze', payload: {source: {kind: 'url', url: 'relative.json'}, keyPaths: ['/a']}},
      {id: 1, type: 'analyze', payload: {source: {kind: 'bytes', buffer: [1, 2]}, keyPaths: ['/a']}},
      {id: 1, type: 'analyze', payload: {source: {kind: 'text', text: ''}, keyPaths: ['/a'], maxPartitions: 1.5}},
      {id: 1, type: 'cancel', payload: {target: 'x'}},
    ];
    for (const m of bad) assert.throws(() => protocol.validateRequest(m), TypeError, JSON.stringify(m));
  });

  test('error payloads are plain data with code, codeName, message, location and field', () => {
    const engineLike = {toJSON: () => ({name: 'PartplayError', code: 11, codeName: 'malformed_json', message: 'bad',
                                        location: {byte_offset: 3, line: 1, column: 4, item_index: 0}}),
                        codeName: 'malformed_json'};
    assert.deepEqual(protocol.toErrorPayload(engineLike), {
      name: 'PartplayError', code: 11, codeName: 'malformed_json', message: 'bad',
      location: {byte_offset: 3, line: 1, column: 4, item_index: 0}, field: null,
    });
    const withField = {toJSON: () => ({name: 'PartplayError', code: 21, codeName: 'bad_option', message: 'no average',
                                       location: null, field: '/avg_sizes/body'}),
                       codeName: 'bad_option'};
    assert.equal(protocol.toErrorPayload(withField).field, '/avg_sizes/body');
    const aborted = protocol.toErrorPayload(Object.assign(new Error('stop'), {name: 'AbortError'}));
    assert.equal(aborted.codeName, protocol.ErrorCodeNames.CANCELLED);
    const other = protocol.toErrorPayload(new TypeError('nope'));
    assert.equal(other.codeName, protocol.ErrorCodeNames.BAD_REQUEST);
    assert.equal(other.location, null);
    assert.doesNotThrow(() => structuredClone(other));
  });

  test('validates replies', () => {
    assert.ok(protocol.validateReply(protocol.progress(1, {bytesDone: 5, bytesTotal: 10, items: 1})));
    assert.ok(protocol.validateReply(protocol.result(1, {})));
    assert.ok(protocol.validateReply(protocol.error(1, {codeName: 'io', message: 'x'})));
    assert.throws(() => protocol.validateReply({id: 1, type: 'error', payload: {}}), TypeError);
  });
});

describe('web/format.js', () => {
  test('keys show their type: "5" is not 5, {} is undefined', () => {
    assert.deepEqual(formatKeyValue('5'), {text: '"5"', type: 'string'});
    assert.deepEqual(formatKeyValue(5), {text: '5', type: 'number'});
    assert.deepEqual(formatKeyValue(null), {text: 'null', type: 'null'});
    assert.deepEqual(formatKeyValue(true), {text: 'true', type: 'boolean'});
    assert.deepEqual(formatKeyValue({}), {text: 'undefined', type: 'undefined'});
    assert.equal(formatKey(['a', 5]), '["a", 5]');
    assert.equal(formatKey(['a"b']), '"a\\"b"');
  });

  test('bytes in binary units', () => {
    // Separators follow the locale, so build the expected text with Intl too.
    const n = (x) => new Intl.NumberFormat(undefined, {maximumFractionDigits: 1}).format(x);
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1023), `${n(1023)} B`);
    assert.equal(formatBytes(1536), `${n(1.5)} KB`);
    assert.equal(formatBytes(2 * 1024 * 1024), '2 MB');
    assert.equal(formatBytes(20 * 2 ** 30), '20 GB');
  });
});

describe('web/charts.js logBins', () => {
  test('log-spaced bins cover every partition', () => {
    const sizes = Float64Array.from([1, 2, 3, 100, 1000, 1000, 5e6, 2 ** 35]);
    const bins = logBins(sizes);
    assert.equal(bins.reduce((n, b) => n + b.count, 0), sizes.length);
    assert.equal(bins.reduce((n, b) => n + b.bytes, 0), sizes.reduce((a, b) => a + b, 0));
    for (let i = 0; i < bins.length; i++) {
      assert.ok(Math.abs(bins[i].x1 / bins[i].x0 - Math.SQRT2) < 1e-9, 'each bin is sqrt(2) wide');
      if (i > 0) assert.equal(bins[i].x0, bins[i - 1].x1);
    }
    assert.ok(bins[0].x0 <= 1 && bins.at(-1).x1 > 2 ** 35);
    assert.deepEqual(logBins(new Float64Array(0)), []);
    assert.equal(logBins([500]).reduce((n, b) => n + b.count, 0), 1);
  });
});
