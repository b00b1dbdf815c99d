// Handlers of the requests about the worker itself (protocol.js init, heap, cancel).
import {heapSizes} from '../engines.js';
import {cancelJob} from '../jobs.js';

export async function init(payload, ctx) {
  const {engine} = await ctx.engine();
  // vocabulary: the Cosmos DB controls' enums and defaults (null from the cql and sizing modules).
  return {version: engine.version(), errorCodes: engine.errorCodes(), limits: engine.limits(),
          vocabulary: engine.vocabulary(), simd: engine.simd};
}

export const heap = () => heapSizes();

export function cancel({target}) {
  return {cancelled: cancelJob(target ?? undefined)};
}
