// Handlers of key comparison (protocol.js compare, recompare): every pinned key judged on the last
// analyze's source, read once (the engine's KeyComparison); the finished comparison is kept and
// judged again under other container options or queries without reading.
import {ErrorCodeNames, PartplayError} from '../../common/errors.js';
import {engineDead, noteFailure} from '../engines.js';
import {feedSource, readSource} from '../io.js';
import {throwIfCancelled} from '../jobs.js';
import {kept, lastSource} from '../slots.js';

/**
 * The engine's comparison table under the payload's container and queries: when the queries or
 * the write spread ask for it, the kept source is read a second time (report/comparison_run.h).
 */
async function judged(comparison, {container, queries, parameters, queryText}, ctx, source) {
  let table = comparison.compare({container: container ?? {}, queries: queries ?? [], parameters, queryText});
  if (!comparison.secondReadPending) return table;
  let bytes = 0;
  const second = {...ctx, progress: (fields) => ctx.progress({...fields, read: 2})};
  await feedSource(second, source, {
    feed: (chunk) => {
      comparison.feedSecond(chunk);
      bytes += chunk.length;
    },
    get bytesConsumed() { return bytes; },
    get itemsSeen() { return comparison.secondItemsSeen; },
  });
  table = comparison.finishSecond();
  return table;
}

/** The table plus the worker's source and timing. */
function withSource(table, source, ms, bytesPerSecond) {
  table.source = source;
  table.timing = {ms, bytesPerSecond};
  return table;
}

export async function compare(payload, ctx) {
  const source = lastSource();
  const {engine} = await ctx.engine();
  throwIfCancelled(ctx.job);
  const started = performance.now();
  // The queries go with the keys too: the first read counts the values their parameters take.
  const request = {keys: payload.keys, queries: payload.queries ?? [], parameters: payload.parameters,
                   query_text: payload.queryText};
  if (payload.weightPath) request.weight_path = payload.weightPath;
  const comparison = engine.newComparison(request);
  let finished = false;
  try {
    const {bytesRead, compressed} = await feedSource(ctx, source, comparison);
    comparison.finish();
    const firstMs = performance.now() - started;
    const table = await judged(comparison, payload, ctx, source);
    const ms = performance.now() - started;
    withSource(table, readSource(source, bytesRead, compressed), ms, firstMs > 0 ? bytesRead / (firstMs / 1000) : null);
    const read = table.source;
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

export async function recompare(payload, ctx) {
  if (!kept.comparison) {
    throw new PartplayError({codeName: ErrorCodeNames.NO_ANALYSIS, message: 'No keys were compared yet: compare some keys first.'});
  }
  const started = performance.now();
  const table = await judged(kept.comparison.comparison, payload, ctx, lastSource());
  return withSource(table, kept.comparison.source, performance.now() - started, null);
}

/** One key in the CLI's --candidate grammar as compare's key (the engine's parser). */
export async function candidateSpec({spec}, ctx) {
  const {engine} = await ctx.engine();
  return engine.parseCandidateSpec(spec);
}
