// How the module fails, which the worker's healing relies on (web/worker.js, protocol.js "Engine
// failures"): Engine.crashForTesting (TEST ONLY) traps, aborts or overflows the stack, and each
// surfaces as a WebAssembly.RuntimeError the worker recognises; the linker put the stack below
// the static data (-Wl,--stack-first), so an overflow runs off address 0 and traps instead of
// overwriting data; the glue has no eval (-sDYNAMIC_EXECUTION=0), so no 'unsafe-eval' is needed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {ROOT} from './helpers.mjs';

const ENGINE_DIR = path.join(ROOT, 'build/site/engine');
const wasmBinary = fs.readFileSync(path.join(ENGINE_DIR, 'partplay.wasm'));
const api = await import(pathToFileURL(path.join(ENGINE_DIR, 'partplay-api.mjs')).href);

function leb(bytes, at, signed = false) {
  let result = 0n;
  let shift = 0n;
  let byte;
  do {
    byte = bytes[at++];
    result |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
  } while (byte & 0x80);
  if (signed && (byte & 0x40)) result -= 1n << shift;
  return {value: Number(result), at};
}

/** The initial value of the first global (__stack_pointer) and the offsets of the active data segments. */
function memoryLayout(bytes) {
  let at = 8;
  let stackPointer = null;
  const dataOffsets = [];
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb(bytes, at);
    const start = size.at;
    if (id === 6) {  // globals: the first is the stack pointer, i32 mutable = i32.const N
      let p = leb(bytes, start).at;  // count
      assert.equal(bytes[p], 0x7f, 'the first global is an i32');
      assert.equal(bytes[p + 1], 1, 'the first global is mutable');
      assert.equal(bytes[p + 2], 0x41, 'initialised by i32.const');
      stackPointer = leb(bytes, p + 3, true).value;
    }
    if (id === 11) {  // data: active segments of memory 0 start with flags 0 and an i32.const offset
      let {value: count, at: p} = leb(bytes, start);
      for (let i = 0; i < count; i++) {
        const flags = leb(bytes, p);
        p = flags.at;
        if (flags.value === 1) {  // passive: no offset
          const n = leb(bytes, p);
          p = n.at + n.value;
          continue;
        }
        assert.equal(flags.value, 0, 'data segments of memory 0');
        assert.equal(bytes[p], 0x41, 'offset is an i32.const');
        const offset = leb(bytes, p + 1, true);
        dataOffsets.push(offset.value);
        assert.equal(bytes[offset.at], 0x0b, 'end of the offset expression');
        const n = leb(bytes, offset.at + 1);
        p = n.at + n.value;
      }
    }
    at = start + size.value;
  }
  return {stackPointer, dataOffsets};
}

describe('engine failures', () => {
  for (const [kind, pattern] of [
    ['trap', /unreachable/],
    ['abort', /^Aborted\(/],
    ['stack', /memory access out of bounds/],
  ]) {
    test(`crashForTesting('${kind}') throws a WebAssembly.RuntimeError`, async () => {
      const engine = await api.createEngine({wasmBinary, printErr: () => {}});
      assert.throws(() => engine.crashForTesting(kind), (e) => {
        assert.ok(e instanceof WebAssembly.RuntimeError, `${e?.name}: ${e?.message}`);
        assert.match(e.message, pattern);
        return true;
      });
    });
  }

  test('the stack sits below the static data (--stack-first)', () => {
    const {stackPointer, dataOffsets} = memoryLayout(wasmBinary);
    assert.ok(dataOffsets.length > 0, 'the module has static data');
    // The stack (TOTAL_STACK, 5 MB) grows down towards address 0, not into the data above it.
    assert.ok(stackPointer >= 5 * 1024 * 1024 && stackPointer < 5 * 1024 * 1024 + 4096, `stack pointer ${stackPointer}`);
    for (const offset of dataOffsets) assert.ok(offset >= stackPointer, `data at ${offset} is above the stack`);
  });

  test('the glue has no eval and no new Function (-sDYNAMIC_EXECUTION=0)', () => {
    const glue = fs.readFileSync(path.join(ENGINE_DIR, 'partplay.mjs'), 'utf8');
    assert.doesNotMatch(glue, /new Function\s*\(|\beval\s*\(/);
  });
});
