// The engine's modules are compiled with -msimd128; where wasm SIMD does not run (Safari before
// 16.4) createEngine loads partplay-nosimd instead: every domain, built without SIMD, answering
// exactly as the SIMD build — reports, CQL, sizing, and every error with its location.
import {before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {ROOT, cqlExampleOutcomes, examples, loadEngine} from './helpers.mjs';

const ENGINE_DIR = path.join(ROOT, 'build/site/engine');
const apiUrl = pathToFileURL(path.join(ENGINE_DIR, 'partplay-api.mjs')).href;
const simdWasm = fs.readFileSync(path.join(ENGINE_DIR, 'partplay.wasm'));
const nosimdWasm = fs.readFileSync(path.join(ENGINE_DIR, 'partplay-nosimd.wasm'));

/** Runs `fn` as in a browser without wasm SIMD: its validator refuses the v128 probe. */
async function withoutSimd(fn) {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0xfd) && validate(bytes);
  try {
    return await fn();
  } finally {
    WebAssembly.validate = validate;
  }
}

/** binaryen's validator (Emscripten's wasm-opt) over `file` with only the MVP features on. */
function validatesAsMvp(file) {
  const r = spawnSync('wasm-opt', [file, '--mvp-features', '-o', '/dev/null'], {encoding: 'utf8'});
  assert.notEqual(r.error?.code, 'ENOENT', 'wasm-opt (binaryen, installed with emscripten) is needed');
  return {ok: r.status === 0, simdErrors: (r.stderr.match(/SIMD operation/g) ?? []).length};
}

describe('wasm SIMD and the build without it', () => {
  let api;
  let simd;
  let nosimd;
  before(async () => {
    api = await import(apiUrl);
    simd = (await loadEngine('all')).engine;
    nosimd = await api.createEngine({wasmBinary: nosimdWasm}, {simd: false});
  });

  test('where SIMD runs, the probe validates and createEngine loads the SIMD build', async () => {
    assert.equal(api.supportsWasmSimd(), true, 'Node 20 runs wasm SIMD');
    const engine = await api.createEngine({wasmBinary: simdWasm});
    assert.equal(engine.simd, true);
    assert.equal(nosimd.simd, false);
  });

  test('partplay-nosimd holds no SIMD instruction; the SIMD build does (the check can fail)', () => {
    assert.deepEqual(validatesAsMvp(path.join(ENGINE_DIR, 'partplay-nosimd.wasm')), {ok: true, simdErrors: 0});
    const withSimd = validatesAsMvp(path.join(ENGINE_DIR, 'partplay.wasm'));
    assert.equal(withSimd.ok, false);
    assert.ok(withSimd.simdErrors > 0, 'the SIMD build is refused for its SIMD operations');
  });

  test('without SIMD, createEngine loads partplay-nosimd (every domain) for any domain asked', async () => {
    await withoutSimd(async () => {
      assert.equal(api.supportsWasmSimd(), false);
      for (const domain of ['cosmos-fast', 'cosmos', 'cql', 'sizing', 'all']) {
        const engine = await api.createEngine({wasmBinary: nosimdWasm}, {domain});
        assert.equal(engine.simd, false, domain);
        // A per-domain module binds only its own domain; this one binds all three.
        const session = engine.createCqlSession();
        session.dispose();
        assert.equal(typeof engine.sizingTables('CREATE TABLE t (k int PRIMARY KEY);'), 'object', domain);
        const analysis = engine.newAnalysis({key_paths: ['/k']});
        analysis.feed(new TextEncoder().encode('{"id":"1","k":2}\n'));
        assert.equal(analysis.finish().partition_count, 1, domain);
        analysis.dispose();
      }
      // SIMD asked for explicitly where it does not run: said plainly.
      await assert.rejects(api.createEngine({wasmBinary: simdWasm}, {simd: true}),
                           /does not run WebAssembly SIMD \(Chrome 91, Firefox 89, Safari 16\.4/);
    });
    await assert.rejects(api.createEngine({}, {domain: 'nosimd'}), TypeError);
  });

  /** The report of `bytes`, or the error thrown, as plain data. */
  function outcome(engine, bytes, options, container) {
    const analysis = engine.newAnalysis(options);
    try {
      analysis.feed(bytes);
      const r = analysis.finish({maxPartitions: 200, container});
      return {...r, partition_bytes: Array.from(r.partition_bytes ?? [])};
    } catch (e) {
      return {error: {name: e.name, code: e.code, message: e.message, location: e.location}};
    } finally {
      analysis.dispose();
    }
  }

  test('every Cosmos DB example gives the same report without SIMD', () => {
    for (const e of examples()) {
      const bytes = fs.readFileSync(path.join(ROOT, 'examples', e.file));
      const options = {key_paths: [e.key]};
      const container = {ru_per_second: 40000, ...(e.container ?? {})};
      const expected = outcome(simd, bytes, options, container);
      assert.equal(expected.error, undefined, e.id);
      assert.deepEqual(outcome(nosimd, bytes, options, container), expected, e.id);
    }
  });

  test('the ingest fuzz corpus (bad input of every kind): the same report or error and location', () => {
    const dir = path.join(ROOT, 'tests/fuzz/corpus/ingest_fuzz');
    let errors = 0;
    for (const name of fs.readdirSync(dir).sort()) {
      const input = fs.readFileSync(path.join(dir, name));
      const bytes = input.subarray(0, Math.max(0, input.length - 6));  // the target's 6-byte trailer
      for (const options of [{key_paths: ['/id']}, {key_paths: ['/a', '/b'], discover_items: 0}]) {
        const expected = outcome(simd, bytes, options);
        if (expected.error) errors++;
        assert.deepEqual(outcome(nosimd, bytes, options), expected, `${name} ${JSON.stringify(options)}`);
      }
    }
    assert.ok(errors >= 50, `the corpus holds bad inputs (${errors} errors)`);
  });

  test('CQL examples and sizing examples answer the same without SIMD', () => {
    const dir = path.join(ROOT, 'examples', 'cql');
    const expected = cqlExampleOutcomes(simd);
    assert.ok(expected.length >= 3 && expected.every((o) => o.results.length > 0), 'the examples ran');
    assert.deepEqual(cqlExampleOutcomes(nosimd), expected);
    for (const e of JSON.parse(fs.readFileSync(path.join(dir, 'sizing.json'), 'utf8'))) {
      const {id, title: _t, file, description: _d, ...rest} = e;
      const request = {cql: fs.readFileSync(path.join(dir, file), 'utf8'), ...rest};
      assert.deepEqual(nosimd.sizeTable(request), simd.sizeTable(request), id);
    }
  });
});
