// Handlers of the Cosmos DB mode's analysis requests (protocol.js analyze, reanalyze, model,
// release, data-sizing): a source streamed into the engine (io.js), the finished analysis kept in
// its slot (slots.js) and reported, again and again, under other container options.
import {engineDead, engineLimit, noteFailure} from '../engines.js';
import {feedSource, keepSource, readSource} from '../io.js';
import {throwIfCancelled} from '../jobs.js';
import {DEFAULT_SLOT} from '../protocol.js';
import {dropHeldPart, keepInSlot, kept, lastSource, slotEntry} from '../slots.js';

/** The options handed to engine.newAnalysis (the engine's names; it checks every value). */
export function engineOptions({keyPaths, discoverItems, weightPath, synthetic}) {
  const options = {key_paths: keyPaths};
  if (discoverItems !== undefined && discoverItems !== null) options.discover_items = discoverItems;
  if (typeof weightPath === 'string' && weightPath !== '') options.weight_path = weightPath;
  if (synthetic) options.synthetic = synthetic;
  return options;
}

/** The options of analysis.finish / model: container only when given. */
export function reportOptions({maxPartitions, container}) {
  const options = {maxPartitions: maxPartitions ?? engineLimit('page_listed_partitions')};
  if (container) options.container = container;
  return options;
}

/** A report ready to post: partition_bytes its own buffer (a view into wasm memory is copied). */
export function postable(report) {
  const sizes = report.partition_bytes;
  if (sizes && (sizes.byteOffset !== 0 || sizes.buffer.byteLength !== sizes.byteLength)) {
    report.partition_bytes = sizes.slice();
  }
  return report;
}

/** Analyses `source` (keepSource's form) for request ctx; keeps the analysis in its slot. */
async function analyzeSource(source, payload, ctx) {
  const slot = payload.slot ?? DEFAULT_SLOT;
  const {engine} = await ctx.engine();
  throwIfCancelled(ctx.job);
  const started = performance.now();
  const analysis = engine.newAnalysis(engineOptions(payload));
  let finished = false;
  try {
    const {bytesRead, bytesTotal, compressed, readAhead} = await feedSource(ctx, source, analysis);
    const report = analysis.finish(reportOptions(payload));
    const ms = performance.now() - started;
    ctx.progress({bytesDone: bytesRead, bytesTotal: bytesTotal ?? bytesRead, items: report.items,
                  compressed: compressed ? {bytesDone: compressed.bytesRead, bytesTotal: compressed.bytesTotal} : null});
    const read = readSource(source, bytesRead, compressed);
    report.source = read;
    report.timing = {ms, bytesPerSecond: ms > 0 ? bytesRead / (ms / 1000) : null, read_ahead: readAhead};
    report.slot = slot;
    keepInSlot(slot, {analysis, source: read, keyPaths: report.key_paths ?? payload.keyPaths});
    finished = true;
    return postable(report);
  } catch (e) {
    noteFailure(e, ctx.doing);
    throw e;
  } finally {
    // A broken module is not called again, not even to free memory.
    if (!finished && !engineDead()) analysis.dispose();
  }
}

export function analyze(payload, ctx) {
  dropHeldPart();
  kept.source = keepSource(payload.source);
  return analyzeSource(kept.source, payload, ctx);
}

export function reanalyze(payload, ctx) {
  return analyzeSource(lastSource(), payload, ctx);
}

export async function model({slot = DEFAULT_SLOT, container = null, maxPartitions}) {
  const entry = slotEntry(slot);
  const started = performance.now();
  const report = entry.analysis.model(reportOptions({maxPartitions, container}));
  report.source = entry.source;
  report.timing = {ms: performance.now() - started, bytesPerSecond: null};
  report.slot = slot;
  return postable(report);
}

export async function dataSizing({slot = DEFAULT_SLOT, valuesPerRow, maxExamples}, ctx) {
  await ctx.engine();
  const entry = slotEntry(slot);
  const report = entry.analysis.dataSizing({valuesPerRow: valuesPerRow ?? undefined, maxExamples: maxExamples ?? undefined});
  report.slot = slot;
  report.source = entry.source;
  report.key_paths = entry.keyPaths ?? [];
  return report;
}
