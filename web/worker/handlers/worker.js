// Handlers of the requests about the worker itself (protocol.js init, heap, cancel, release),
// loaded with the worker; the others are imported on first use (index.js).
import {heapSizes} from '../engines.js';
import {cancelJob} from '../jobs.js';
import {releaseSlot} from '../slots.js';

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

/** Forgets a slot's analysis (any domain: a slot outlives the request that filled it). */
export function release({slot}) {
  return {released: releaseSlot(slot)};
}
