// The engine is compiled with -msimd128: createEngine says so plainly where wasm SIMD is missing,
// before the browser would fail to compile the module with an opcode error.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {ROOT} from './helpers.mjs';

const apiUrl = pathToFileURL(path.join(ROOT, 'build/site/engine/partplay-api.mjs')).href;
const wasmFile = path.join(ROOT, 'build/site/engine/partplay.wasm');

test('the SIMD probe validates where SIMD runs, and the engine starts', async () => {
  const api = await import(apiUrl);
  assert.equal(api.supportsWasmSimd(), true, 'Node 20 runs wasm SIMD');
  const engine = await api.createEngine({wasmBinary: fs.readFileSync(wasmFile)});
  assert.equal(typeof engine.newAnalysis, 'function');
});

test('without wasm SIMD, createEngine names the missing feature and the versions that have it', async () => {
  const api = await import(apiUrl);
  const validate = WebAssembly.validate;
  // A browser without SIMD: its validator refuses v128 instructions.
  WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0xfd) && validate(bytes);
  try {
    assert.equal(api.supportsWasmSimd(), false);
    // Not compiled at all: these bytes are no module, and the answer is still about SIMD.
    await assert.rejects(api.createEngine({wasmBinary: new Uint8Array([1, 2, 3])}),
                         /WebAssembly SIMD.*Chrome 91, Firefox 89, Safari 16\.4/);
  } finally {
    WebAssembly.validate = validate;
  }
});
