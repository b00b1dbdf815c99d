// What the engine worker keeps between requests for the Cosmos DB mode: finished analyses by slot
// (protocol.js analyze `slot`; the page keeps 'main' and 'synthetic'), so `model` re-reports one
// without reading the data again; the source of the last analyze (reanalyze and compare read it
// again); the first part of an analysis in parts, held for merge; and the last comparison.
import {ErrorCodeNames, PartplayError} from '../common/errors.js';
import {engineDead} from './engines.js';

/** Finished analyses by slot: {analysis, source: {kind, name, bytes}, keyPaths}. */
const slots = new Map();

/** What else is kept: the last analyze's source, the held first part, the last comparison. */
export const kept = {
  /** The source of the last analyze, for reanalyze and compare: keepSource's form (io.js). */
  source: null,
  /** The first part of an analysis in parts: {part, started}, or null. */
  part: null,
  /** The finished comparison kept for recompare: {comparison, source}, or null. */
  comparison: null,
};

/** Keeps `entry` in `slot`, freeing the analysis it held. */
export function keepInSlot(slot, entry) {
  slots.get(slot)?.analysis.dispose();
  slots.set(slot, entry);
}

/** Frees the analysis in `slot`; whether there was one. */
export function releaseSlot(slot) {
  const entry = slots.get(slot);
  if (!entry) return false;
  entry.analysis.dispose();
  slots.delete(slot);
  return true;
}

/** The entry of `slot`, or a no_analysis error. */
export function slotEntry(slot) {
  const entry = slots.get(slot);
  if (!entry) {
    throw new PartplayError({codeName: ErrorCodeNames.NO_ANALYSIS,
                             message: `Nothing is analyzed in slot "${slot}" yet: analyze some data first.`});
  }
  return entry;
}

/** The kept source, or a no_source error. */
export function lastSource() {
  if (!kept.source) {
    throw new PartplayError({codeName: ErrorCodeNames.NO_SOURCE, message: 'Nothing was analyzed yet: choose some data first.'});
  }
  return kept.source;
}

/** Drops the held first part (a new analysis starts). */
export function dropHeldPart() {
  if (kept.part && !engineDead()) kept.part.part.dispose();
  kept.part = null;
}
