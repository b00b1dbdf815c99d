// Handlers of an analysis in parts (protocol.js split, analyze-part, merge; docs/sharding.md): a
// file cut among several workers by the client (client.js, pool.js). The engine plans the parts
// and finds the cuts (split), each worker analyses one part (the first is held here, the others
// answer their partial states), and this worker merges them into the analysis its slot keeps,
// exactly as one analyze would have left it. A failed part or merge says, from the engine's
// rule (ingest/parts_plan.h RetryParts), what the client does next: its error's `retry`.
import {ErrorCodeNames, PartplayError} from '../../common/errors.js';
import {engineDead, heapSizes, noteFailure} from '../engines.js';
import {feedSource, keepSource} from '../io.js';
import {throwIfCancelled} from '../jobs.js';
import {DEFAULT_SLOT, SourceKind} from '../protocol.js';
import {dropHeldPart, keepInSlot, kept} from '../slots.js';
import {engineOptions, postable, reportOptions} from './analysis.js';

/** Adds the engine's retry advice to an engine error `e` of parts that kept id records or not. */
function advised(e, engine, idRecords) {
  if (e instanceof PartplayError && e.code !== null && !engineDead()) e.retry = engine.retryParts(e.code, idRecords);
  return e;
}

export async function split(payload, ctx) {
  const {engine} = await ctx.engine();
  const {file} = payload.source;
  const plan = engine.planParts({inputBytes: file.size, seekable: true, workers: payload.workers ?? 0,
                                 cores: payload.cores ?? 1, options: engineOptions(payload)});
  if (plan.parts <= 1) return {cuts: [], plan};
  const read = async (offset, length) => new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
  return {cuts: await engine.splitPoints({size: file.size, parts: plan.parts, minPartBytes: plan.min_part_bytes, read}),
          plan};
}

export async function analyzePart(payload, ctx) {
  const {source, begin, end, first} = payload;
  const idRecords = payload.idRecords === true;
  if (first) {
    dropHeldPart();
    kept.source = keepSource(source);  // reanalyze and compare read the whole file
  }
  const {engine} = await ctx.engine();
  try {
    throwIfCancelled(ctx.job);
    const started = performance.now();
    // idRecords false: its ids' hashes only (a merge that meets an id repeated across parts
    // fails with bad_partial, and the engine advises reading the parts again with records).
    const part = engine.newAnalysisPart(engineOptions(payload), {first, idRecords});
    let held = false;
    try {
      const slice = {kind: SourceKind.FILE, name: source.name ?? null, file: source.file.slice(begin, end)};
      const {bytesRead, readAhead} = await feedSource(ctx, slice, part, {readAhead: payload.readAhead === true});
      if (first) {
        part.finish();
        kept.part = {part, started};
        held = true;
        return {bytes: bytesRead, items: part.itemsSeen, readAhead, heapBytes: (await heapSizes()).bytes};
      }
      const items = part.itemsSeen;
      const partial = part.finishPartial();
      // After the partial is written: this worker's peak (the client retires a large one).
      return {bytes: bytesRead, items, readAhead, partial: partial.buffer, heapBytes: (await heapSizes()).bytes};
    } catch (e) {
      noteFailure(e, ctx.doing);
      throw e;
    } finally {
      if (!held && !engineDead()) part.dispose();
    }
  } catch (e) {
    throw advised(e, engine, idRecords);
  }
}

export async function merge({partials, idRecords = false, slot = DEFAULT_SLOT, maxPartitions, container}, ctx) {
  const {engine} = await ctx.engine();
  const held = kept.part;
  kept.part = null;
  if (!held || !kept.source) {
    throw new PartplayError({codeName: ErrorCodeNames.NO_ANALYSIS, message: 'No first part is held: analyse the parts again.'});
  }
  let analysis = null;
  let keptIt = false;
  try {
    analysis = engine.mergePartials([held.part, ...partials]);
    const report = analysis.finish(reportOptions({maxPartitions, container}));
    const heapBytes = (await heapSizes()).bytes;  // after the merge and report: this worker's peak
    const ms = performance.now() - held.started;
    const bytes = kept.source.file.size;
    const source = {kind: kept.source.kind, name: kept.source.name ?? null, bytes};
    report.source = source;
    report.timing = {ms, bytesPerSecond: ms > 0 ? bytes / (ms / 1000) : null, heap_bytes: heapBytes};
    report.slot = slot;
    keepInSlot(slot, {analysis, source, keyPaths: report.key_paths});
    keptIt = true;
    return postable(report);
  } catch (e) {
    noteFailure(e, ctx.doing);
    throw advised(e, engine, idRecords);
  } finally {
    if (!engineDead()) {
      held.part.dispose();
      if (!keptIt) analysis?.dispose();
    }
  }
}
