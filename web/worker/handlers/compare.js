// Handlers of key comparison (protocol.js compare, recompare): every pinned key judged on the last
// analyze's source, read once (the engine's KeyComparison); the finished comparison is kept and
// judged again under other container options or queries without reading.
import {ErrorCodeNames, PartplayError} from '../../common/errors.js';
import {engineDead, noteFailure} from '../engines.js';
import {feedSource, readSource} from '../io.js';
import {throwIfCancelled} from '../jobs.js';
import {kept, lastSource} from '../slots.js';

/** The engine's comparison table plus the worker's source and timing. */
function comparisonResult(comparison, {container, queries}, source, ms, bytesPerSecond) {
  const table = comparison.compare({container: container ?? {}, queries: queries ?? []});
  table.source = source;
  table.timing = {ms, bytesPerSecond};
  return table;
}

export async function compare(payload, ctx) {
  const source = lastSource();
  const {engine} = await ctx.engine();
  throwIfCancelled(ctx.job);
  const started = performance.now();
  const request = {keys: payload.keys};
  if (payload.weightPath) request.weight_path = payload.weightPath;
  const comparison = engine.newComparison(request);
  let finished = false;
  try {
    const {bytesRead, compressed} = await feedSource(ctx, source, comparison);
    comparison.finish();
    const ms = performance.now() - started;
    const read = readSource(source, bytesRead, compressed);
    const table = comparisonResult(comparison, payload, read, ms, ms > 0 ? bytesRead / (ms / 1000) : null);
    kept.comparison?.comparison.dispose();
    kept.comparison = {comparison, source: read};
    finished = true;
    return table;
  } catch (e) {
    noteFailure(e, ctx.doing);
    throw e;
  } finally {
    if (!finished && !engineDead()) comparison.dispose();
  }
}

export async function recompare(payload) {
  if (!kept.comparison) {
    throw new PartplayError({codeName: ErrorCodeNames.NO_ANALYSIS, message: 'No keys were compared yet: compare some keys first.'});
  }
  const started = performance.now();
  const table = comparisonResult(kept.comparison.comparison, payload, kept.comparison.source, 0, null);
  table.timing.ms = performance.now() - started;
  return table;
}

/** One key in the CLI's --candidate grammar as compare's key (the engine's parser). */
export async function candidateSpec({spec}, ctx) {
  const {engine} = await ctx.engine();
  return engine.parseCandidateSpec(spec);
}
