// Handlers of the requests about the worker itself (protocol.js init, heap, cancel).
import {heapSizes} from '../engines.js';
import {cancelJob} from '../jobs.js';

export async function init(payload, ctx) {
  const {engine} = await ctx.engine();
  const info = {version: engine.version(), errorCodes: engine.errorCodes(), limits: engine.limits(), simd: engine.simd};
  // The engine's defaults and enums, where this build has them (wasm/bindings.cpp vocabulary).
  const vocabulary = engine.vocabulary();
  if (vocabulary) info.vocabulary = vocabulary;
  return info;
}

export const heap = () => heapSizes();

export function cancel({target}) {
  return {cancelled: cancelJob(target ?? undefined)};
}
