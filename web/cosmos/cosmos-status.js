// The Cosmos DB view's progress bar and error panel: what a run in flight reads, and why a run
// failed (the engine's error code, where in the data or the key path, and a hint).
//
//   const status = createStatus({el, state});   status.showProgress();   status.showError(e);
import {h} from '../common/dom.js';
import {formatInt, formatPercent, progressBytes, progressShare} from '../common/format.js';
import {caretExcerpt} from '../common/text-position.js';
import {SourceKind} from '../worker/protocol.js';

/** `ctx`: {el (cosmos-elements.js), state (the view's)}. */
export function createStatus(ctx) {
  const {el, state} = ctx;


  function showProgress() {
    el.progress.hidden = false;
    el.results.classList.add('stale');
    updateProgress();
  }

  function updateProgress() {
    const p = state.progress;
    if (!p) {
      el.progressTrack.classList.add('indeterminate');
      el.progressText.textContent = 'Starting the engine…';
      return;
    }
    const items = `${formatInt(p.items)} items`;
    const name = [state.source?.name, state.progressLabel ? `(${state.progressLabel})` : ''].filter(Boolean).join(' ');
    const what = name ? `${name}: ` : '';
    // A gzip source's bar follows the compressed bytes (the only total known).
    const share = progressShare(p);
    if (share !== null) {
      el.progressTrack.classList.remove('indeterminate');
      el.progressBar.style.width = `${(share * 100).toFixed(1)}%`;
      el.progressTrack.setAttribute('aria-valuenow', String(Math.round(share * 100)));
      el.progressText.textContent = `Analyzing ${what}${progressBytes(p)} (${formatPercent(share)}) · ${items}`;
    } else {
      el.progressTrack.classList.add('indeterminate');
      el.progressTrack.removeAttribute('aria-valuenow');
      el.progressText.textContent = `Analyzing ${what}${progressBytes(p)} · ${items}`;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Errors.

  const ERROR_HINTS = {
    bad_key_path: 'A key path is a JSON pointer: it starts with "/", like /customerId or /address/city. ' +
      'Inside a field name write ~1 for "/" and ~0 for "~".',
    malformed_json: 'The data is not valid JSON at that spot. NDJSON needs one complete object after another; ' +
      'a JSON array needs commas between its objects.',
    truncated_input: 'The input ended in the middle of a value: is a closing bracket or brace missing?',
    not_an_object: 'Every item must be a JSON object ({…}): one object, an array of objects, or NDJSON.',
    empty_input: 'There is nothing to analyze: paste some JSON or choose a file.',
    invalid_utf8: 'The file is not UTF-8 text. Save it as UTF-8 and try again.',
    too_deep: 'An item nests objects or arrays deeper than the parser allows.',
    item_too_large: 'One item is larger than the engine can hold at once.',
    io: 'The data could not be read.',
    bad_option: 'A container, workload or synthetic-key setting is out of range, or a routed key has the wrong number ' +
      'of values (one per key path; fewer for a prefix of a hierarchical key).',
    no_analysis: 'Analyze some data first.',
    bad_request: '',
    cancelled: 'Choose data or a key to start again.',
    engine_load: 'The engine could not start. Reload the page; if that does not help, the browser may not support module workers.',
  };

  function showError(e) {
    const cancelled = e.codeName === 'cancelled';
    el.errorTitle.textContent = cancelled ? 'Analysis cancelled' : 'Could not analyze the data';
    el.errorMessage.textContent = (e.message || 'Unknown error.') +
      (e.codeName === 'engine_failed' && state.sourceRequest ? ' The next step reads the data again.' : '');
    el.errorPanel.dataset.code = e.codeName ?? '';

    el.errorLocation.replaceChildren();
    // Fields that do not apply are -1 (offsets, indexes) or 0 (line, column).
    const loc = e.location;
    const has = (v, min) => typeof v === 'number' && v >= min;
    const keyPathError = e.codeName === 'bad_key_path';
    const entries = [];
    let excerpt = null;
    if (loc && keyPathError) {
      // The location is inside the key path text, not the data.
      const path = state.keyPaths.find((p) => e.message.includes(JSON.stringify(p))) ?? state.keyPaths[0] ?? '';
      if (has(loc.column, 1)) {
        entries.push(['position in the key path', formatInt(loc.column), 'column']);
        excerpt = `key path: ${path}\n${' '.repeat('key path: '.length + Array.from(path.slice(0, loc.column - 1)).length)}^`;
      }
    } else if (loc) {
      if (has(loc.line, 1)) entries.push(['line', formatInt(loc.line), 'line']);
      if (has(loc.column, 1)) entries.push(['column', formatInt(loc.column), 'column']);
      if (has(loc.byte_offset, 0)) entries.push(['byte offset', formatInt(loc.byte_offset), 'byte-offset']);
      if (has(loc.item_index, 0)) entries.push(['item', `#${formatInt(loc.item_index)}`, 'item-index']);
      if (state.source?.kind === SourceKind.TEXT && has(loc.line, 1)) excerpt = caretExcerpt(state.source.text, loc.line, loc.column);
    }
    if (e.codeName && !cancelled) {
      entries.push(['code', e.code != null ? `${e.codeName} (${e.code})` : e.codeName, 'code']);
    }
    for (const [label, value, testid] of entries) {
      el.errorLocation.append(h('div', {testid: `error-${testid}`}, [h('dt', {text: label}), h('dd', {text: value})]));
    }

    el.errorExcerpt.hidden = !excerpt;
    el.errorExcerpt.textContent = excerpt ?? '';
    el.errorHint.textContent = ERROR_HINTS[e.codeName] ?? '';
    el.errorPanel.hidden = false;
    el.errorPanel.scrollIntoView({block: 'nearest'});
    if (state.report) {
      el.results.classList.add('stale');
      el.results.setAttribute('aria-describedby', 'error-title');
    }
  }

  function hideError() {
    el.errorPanel.hidden = true;
    el.results.classList.remove('stale');
    el.results.removeAttribute('aria-describedby');
  }

  return {showProgress, updateProgress, showError, hideError};
}
