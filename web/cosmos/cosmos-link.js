// What a Cosmos DB view's link carries and how the view is brought back to it (embed-share.js
// packs the state into the URL; this module reads it from the view's controls and drives them).
//
//   const link = createLink({el, state, client, compareView, ...});
//   link.shareState({fits});   // {e | d, k, h, r, c, q, y, vw, p}
//   await link.restoreState(shared);
//
// The state names: e example id, d pasted items, k key, h hash version, r RU/s, c every container,
// workload and growth setting (cosmos-settings.js settingsForLink), q the routed key value, y the
// synthetic key and vw the key on show, p the comparison's pins and queries, x the data that did
// not travel (embed-share.js sharedState). Restoring drives the view's own controls, as a reader would.
import {submitForm} from '../common/dom.js';
import {formatBytes, formatInt} from '../common/format.js';
import {hasVocabulary} from '../common/limits.js';
import {SYNTHETIC_SLOT} from './cosmos-settings.js';

export function createLink({el, state, client, compareView, settingsForLink, applySettingsToControls, parseRoute,
                            syncControls, selectOwnData, switchView, idle, runAfter}) {
  /** The note on a link's data: what stayed with the sharer, or how much of it travelled. */
  function showSharedDataNote(x, missing) {
    const size = x.bytes ? ` (${formatBytes(x.bytes)})` : '';
    el.sharedDataNote.textContent = missing
      ? `This link was shared from ${x.name}${size}, which stays on the sharer's machine: the link carries its ` +
        'key and settings only, so no figures are shown. Load the file to see them.'
      : `This link carries the first ${formatInt(x.carried)} items of ${x.name}${size}: every figure below is ` +
        `of those ${formatInt(x.carried)} items, not of the whole data.`;
    el.sharedDataNote.dataset.missing = String(!!missing);
    el.sharedDataNote.hidden = false;
  }

  /** Puts a synthetic key (protocol.js SyntheticKey) into the synthetic-key form. */
  function fillSyntheticForm(y) {
    el.syntheticKind.value = y.kind;
    el.syntheticPaths.value = (y.paths ?? []).join(', ');
    el.syntheticSeparator.value = y.separator ?? '-';
    if (y.buckets !== undefined) el.syntheticBuckets.value = String(y.buckets);
    if (y.seed !== undefined) el.syntheticSeed.value = String(y.seed);
    el.syntheticSuffixPath.value = y.suffix_path ?? '';
    syncControls();
  }

  /**
   * What a link needs to restore the view (embed-share.js): {e: example id} or, for the user's
   * own pasted data when it is small enough, {d: the text}; the key, hash version and RU/s; every
   * container, workload and growth setting (c); the routed key value (q); the synthetic key (y)
   * and which key is on show (vw); the comparison's pins, queries and whether it ran (p).
   * `fits(text)` says whether pasted text may travel in the link.
   */
  function shareState({fits = () => false} = {}) {
    const own = el.exampleSelect.selectedOptions?.[0]?.hasAttribute('data-own');
    const ru = Number(el.ruInput.value);
    const shared = {k: el.keyInput.value, h: el.hashVersion.value, r: Number.isFinite(ru) && ru > 0 ? ru : undefined};
    if (!own) shared.e = el.exampleSelect.value;
    else if (el.pasteInput.value && fits(el.pasteInput.value)) shared.d = el.pasteInput.value;
    if (hasVocabulary()) shared.c = settingsForLink();
    if (el.routeInput.value.trim()) shared.q = el.routeInput.value.trim();
    if (state.synthetic && state.synReport) {
      shared.y = structuredClone(state.synthetic);
      shared.vw = state.view === 'synthetic' ? 'synthetic' : 'plain';
    }
    const pins = compareView.shareState();
    if (pins) shared.p = pins;
    return shared;
  }
  /**
   * Drives the view's own controls to a shared state, as a reader would, after the first run.
   * A link whose data stayed with the sharer (x without d) shows no figures: the note says what
   * is missing and the bundled example's results go, so nothing stands in for the data.
   */
  async function restoreState(shared) {
    await idle();
    const missing = shared.x && typeof shared.d !== 'string';
    if (typeof shared.d === 'string') {
      el.pasteInput.value = shared.d;
      await runAfter(() => el.analyzeButton.click());
    } else if (!missing && shared.e && el.exampleSelect.value !== shared.e &&
               [...el.exampleSelect.options].some((o) => o.value === shared.e)) {
      el.exampleSelect.value = shared.e;
      await runAfter(() => el.exampleSelect.dispatchEvent(new Event('change', {bubbles: true})));
    }
    // The settings after the data: an example brings its own, which the link's replace.
    if (shared.c) applySettingsToControls(shared.c);
    if (shared.h !== undefined && shared.h !== null) el.hashVersion.value = String(shared.h);
    if (shared.r !== undefined && shared.r !== null) {
      el.ruInput.value = String(shared.r);
      el.quickRuInput.value = el.ruInput.value;
    }
    if (shared.k !== undefined && shared.k !== null) el.keyInput.value = String(shared.k);
    if (typeof shared.q === 'string') el.routeInput.value = shared.q;
    if (shared.x) showSharedDataNote(shared.x, missing);
    if (missing) {
      // Nothing is analyzed: the page's example must not pass for the sharer's data.
      if (state.synthetic || state.synReport) client.release(SYNTHETIC_SLOT).catch(() => {});
      Object.assign(state, {source: null, sourceRequest: null, report: null, synReport: null, synthetic: null, view: 'plain'});
      compareView.sourceChanged();
      selectOwnData();
      el.results.hidden = true;
      syncControls();
      if (shared.p) await compareView.restoreState({...shared.p, run: false});
      return;
    }
    state.route = typeof shared.q === 'string' ? parseRoute(shared.q) : null;
    await runAfter(() => submitForm(el.keyForm));
    if (shared.y) {
      fillSyntheticForm(shared.y);
      await runAfter(() => submitForm(el.syntheticForm));
      if (shared.vw === 'plain') switchView('plain');
      await idle();
    }
    // The route is of the key on show, last: a new key, or another key on show, clears it.
    if (typeof shared.q === 'string' && state.route === null) {
      el.routeInput.value = shared.q;
      await runAfter(() => submitForm(el.routeForm));
    }
    if (shared.p) await compareView.restoreState(shared.p);
  }

  return {shareState, restoreState};
}
