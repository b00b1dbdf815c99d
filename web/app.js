// The page: wires the controls to the engine worker (through client.js) and renders reports.
// The main thread never parses the data; it only sends sources to the worker and draws what comes
// back. Text that came from the user or the data (keys, values, file names, error messages) is
// only ever inserted with textContent.
import {PlaygroundClient} from './client.js';
import {renderConcentration, renderHistogram} from './charts.js';
import {
  formatBytes, formatDecimal, formatInt, formatKey, formatKeyValue, formatMs, formatPercent,
  isUndefinedKeyValue, truncate,
} from './format.js';
import {SourceKind} from './protocol.js';

const PAGE_SIZE = 25;
const PROGRESS_DELAY_MS = 500;
const PARTITION_LIMIT_BYTES = 20 * 2 ** 30;
const CANDIDATES_SHOWN = 5;

const byId = (id) => document.getElementById(id);
const el = {
  exampleSelect: byId('example-select'),
  exampleDescription: byId('example-description'),
  dropzone: byId('dropzone'),
  fileInput: byId('file-input'),
  pasteInput: byId('paste-input'),
  analyzeButton: byId('analyze-button'),
  keyForm: byId('key-form'),
  keyInput: byId('key-input'),
  keyCandidates: byId('key-candidates'),
  sourceLine: byId('source-line'),
  candidates: byId('candidates'),
  candidatesNote: byId('candidates-note'),
  candidateRows: byId('candidate-rows'),
  candidatesMore: byId('candidates-more'),
  progress: byId('progress'),
  progressText: byId('progress-text'),
  progressTrack: byId('progress-track'),
  progressBar: byId('progress-bar'),
  cancelButton: byId('cancel-button'),
  errorPanel: byId('error-panel'),
  errorTitle: byId('error-title'),
  errorMessage: byId('error-message'),
  errorLocation: byId('error-location'),
  errorExcerpt: byId('error-excerpt'),
  errorHint: byId('error-hint'),
  results: byId('results'),
  insights: byId('insights'),
  histogram: byId('histogram'),
  concentration: byId('concentration'),
  partitionRows: byId('partition-rows'),
  pagePrev: byId('page-prev'),
  pageNext: byId('page-next'),
  pageStatus: byId('page-status'),
  engineVersion: byId('engine-version'),
};

const state = {
  /** The report on screen. */
  report: null,
  /** What the worker holds as "last source": {kind, label, text?}. */
  source: null,
  /** The source of the report on screen. */
  reportSource: null,
  /** The key paths of the latest run. */
  keyPaths: [],
  page: 0,
  runSeq: 0,
  runs: 0,
  examples: [],
  showAllCandidates: false,
  progress: null,
};

const client = new PlaygroundClient();

// ---------------------------------------------------------------------------------------------
// Small DOM helpers (text only).

function h(tag, {className, text, title, testid} = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (title !== undefined) node.title = title;
  if (testid) node.dataset.testid = testid;
  for (const child of children) node.append(child);
  return node;
}

function setBusyState(value) {
  document.body.dataset.state = value;
}

/** A key rendered with its types visible: "5" (string) vs 5 (number), undefined in italics. */
function keyNode(key) {
  const values = Array.isArray(key) ? key : [key];
  const wrap = h('span', {className: 'key'});
  if (values.length > 1) wrap.append(h('span', {className: 'k-sep', text: '['}));
  values.forEach((v, i) => {
    if (i > 0) wrap.append(h('span', {className: 'k-sep', text: ', '}));
    const {text, type} = formatKeyValue(v);
    const title = type === 'undefined' ? 'no value at the key path (the undefined partition, {})' : `${type}: ${text}`;
    wrap.append(h('span', {className: `k-${type}`, text: truncate(text, 90), title}));
  });
  if (values.length > 1) wrap.append(h('span', {className: 'k-sep', text: ']'}));
  return wrap;
}

// ---------------------------------------------------------------------------------------------
// Running analyses.

/**
 * The key paths typed in the key input. One path, or up to three for a hierarchical key, separated
 * by commas: "/tenantId, /userId" (a comma followed by "/" starts the next path).
 */
function currentKeyPaths() {
  return el.keyInput.value.trim().split(/\s*,\s*(?=\/)/);
}

/**
 * Runs one analysis. `start(onProgress)` returns the client's promise. A newer run supersedes an
 * older one (the worker cancels it); only the newest run touches the page.
 */
async function run(start) {
  const seq = ++state.runSeq;
  setBusyState('busy');
  state.progress = null;
  const timer = setTimeout(() => {
    if (seq === state.runSeq) showProgress();
  }, PROGRESS_DELAY_MS);
  try {
    const report = await start((p) => {
      if (seq !== state.runSeq) return;
      state.progress = p;
      if (!el.progress.hidden) updateProgress();
    });
    if (seq !== state.runSeq) return;
    hideError();
    state.reportSource = state.source;
    renderReport(report);
    finishRun('ready');
  } catch (e) {
    if (seq !== state.runSeq) return;
    showError(e);
    finishRun('error');
  } finally {
    clearTimeout(timer);
    if (seq === state.runSeq) el.progress.hidden = true;
  }
}

function finishRun(outcome) {
  state.runs++;
  document.body.dataset.runs = String(state.runs);
  setBusyState(outcome);
}

function analyzeSource(source, label, extra = {}) {
  const keyPaths = state.keyPaths = currentKeyPaths();
  state.source = {kind: source.kind, name: source.name ?? null, label, ...extra};
  return run((onProgress) => client.analyze({source, keyPaths, onProgress}));
}

function reanalyze() {
  if (!state.source) return;
  const keyPaths = state.keyPaths = currentKeyPaths();
  return run((onProgress) => client.reanalyze({keyPaths, onProgress}));
}

function analyzeFile(file) {
  if (!file) return;
  selectOwnData();
  analyzeSource({kind: SourceKind.FILE, file, name: file.name}, `${file.name} (${formatBytes(file.size)})`);
}

function analyzePaste() {
  const text = el.pasteInput.value;
  selectOwnData();
  analyzeSource({kind: SourceKind.TEXT, text, name: 'pasted text'}, 'pasted text', {text});
}

function analyzeExample(example) {
  el.keyInput.value = example.key;
  el.exampleDescription.textContent = example.description ?? '';
  const url = new URL(example.file, new URL('examples/', document.baseURI)).href;
  analyzeSource({kind: SourceKind.URL, url, name: example.file}, `example ${example.file}`);
}

function selectOwnData() {
  let own = el.exampleSelect.querySelector('option[data-own]');
  if (!own) {
    own = h('option', {text: 'Your own data'});
    own.value = '';
    own.dataset.own = '';
    own.disabled = true;
    el.exampleSelect.append(own);
  }
  own.selected = true;
  el.exampleDescription.textContent = '';
}

// ---------------------------------------------------------------------------------------------
// Progress.

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
  const what = state.source?.name ? `${state.source.name}: ` : '';
  if (p.bytesTotal) {
    const share = Math.min(1, p.bytesDone / p.bytesTotal);
    el.progressTrack.classList.remove('indeterminate');
    el.progressBar.style.width = `${(share * 100).toFixed(1)}%`;
    el.progressTrack.setAttribute('aria-valuenow', String(Math.round(share * 100)));
    el.progressText.textContent =
      `Analyzing ${what}${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)} (${formatPercent(share)}) · ${items}`;
  } else {
    el.progressTrack.classList.add('indeterminate');
    el.progressTrack.removeAttribute('aria-valuenow');
    el.progressText.textContent = `Analyzing ${what}${formatBytes(p.bytesDone)} · ${items}`;
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
  cancelled: 'Choose data or a key to start again.',
  worker_failed: 'The engine could not start. Reload the page; if that does not help, the browser may not support module workers.',
  engine_load: 'The engine could not start. Reload the page.',
};

function showError(e) {
  const cancelled = e.codeName === 'cancelled';
  el.errorTitle.textContent = cancelled ? 'Analysis cancelled' : 'Could not analyze the data';
  el.errorMessage.textContent = e.message || 'Unknown error.';
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
    if (state.source?.kind === SourceKind.TEXT && has(loc.line, 1)) excerpt = excerptAt(state.source.text, loc);
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

/** The offending line of pasted text with a caret under the column (columns count UTF-8 bytes). */
function excerptAt(text, {line, column}) {
  if (!text || !line) return null;
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return null;
  const source = lines[line - 1].replace(/\r$/, '').replace(/\t/g, ' ');
  // Convert the byte column to a character index.
  let bytes = 0;
  let index = 0;
  const chars = Array.from(source);
  while (index < chars.length && bytes < (column ?? 1) - 1) {
    bytes += new TextEncoder().encode(chars[index]).length;
    index++;
  }
  const start = Math.max(0, index - 60);
  const shown = chars.slice(start, start + 120).join('');
  const prefix = `${line} | `;
  const lead = start > 0 ? '…' : '';
  return `${prefix}${lead}${shown}\n${' '.repeat(prefix.length + lead.length + index - start)}^`;
}

// ---------------------------------------------------------------------------------------------
// Rendering a report.

function setFigure(testid, text, value, {level = '', title} = {}) {
  const node = document.querySelector(`[data-testid="${testid}"]`);
  node.textContent = text;
  node.dataset.value = String(value);
  node.title = title ?? '';
  const figure = node.closest('.figure');
  figure.classList.toggle('warn', level === 'warn');
  figure.classList.toggle('bad', level === 'bad');
}

function setSub(testid, content) {
  const node = document.querySelector(`[data-testid="${testid}"]`);
  node.replaceChildren(...(Array.isArray(content) ? content : [content]));
}

function partitionedBytes(report) {
  return report.bytes - (report.invalid_key?.bytes ?? 0);
}

function renderReport(report) {
  state.report = report;
  state.page = 0;
  const keyPath = report.key_paths.join(', ');
  const src = state.reportSource;
  const formatName = {ndjson: 'NDJSON', array: 'JSON array', object: 'single object'}[report.format] ?? report.format;
  const parts = [src?.label ?? 'data', formatName, `${formatBytes(report.input_bytes)} read`];
  if (report.timing) parts.push(`analyzed in ${formatMs(report.timing.ms)}`);
  el.sourceLine.textContent = `${parts.join(' · ')} · key ${keyPath}`;

  renderSummary(report);
  renderInsights(report);
  renderCandidates(report);
  el.results.hidden = false;
  renderCharts();
  renderPartitionPage();
}

function renderSummary(report) {
  setFigure('summary-items', formatInt(report.items), report.items);
  setFigure('summary-partitions', formatInt(report.partition_count), report.partition_count,
            {level: report.partition_count === 1 && report.items > 1 ? 'warn' : ''});
  setFigure('summary-bytes', formatBytes(report.bytes), report.bytes, {title: `${formatInt(report.bytes)} bytes`});
  const largest = report.largest_partition;
  if (largest) {
    setFigure('summary-largest', formatBytes(largest.bytes), largest.bytes, {
      title: `${formatInt(largest.bytes)} bytes, ${formatPercent(largest.bytes / PARTITION_LIMIT_BYTES)} of the 20 GB limit`,
      level: largest.bytes > PARTITION_LIMIT_BYTES ? 'bad' : largest.bytes > PARTITION_LIMIT_BYTES / 2 ? 'warn' : '',
    });
    setSub('summary-largest-key', [h('span', {text: 'key '}), keyNode(largest.key),
      h('span', {text: ` · ${formatInt(largest.items)} items`})]);
  } else {
    setFigure('summary-largest', '–', 0);
    setSub('summary-largest-key', h('span', {text: 'no partitions'}));
  }
  setFigure('summary-mean', formatBytes(report.mean_partition_bytes), report.mean_partition_bytes,
            {title: `${formatDecimal(report.mean_partition_bytes)} bytes`});
  const top = report.top1_percent ?? {partitions: 0, bytes: 0, share: 0};
  setFigure('summary-top1', formatPercent(top.share), top.share,
            {level: top.share > 0.5 && report.partition_count >= 100 ? 'warn' : ''});
  setSub('summary-top1-sub', h('span', {
    text: `${formatInt(top.partitions)} partition${top.partitions === 1 ? '' : 's'}, ${formatBytes(top.bytes)}`,
  }));
  const gini = report.gini ?? 0;
  setFigure('summary-gini', formatDecimal(gini), gini, {level: gini >= 0.6 ? 'warn' : ''});
  setSub('summary-gini-sub', h('span', {
    text: report.partition_count <= 1 ? 'one partition' : gini < 0.3 ? 'fairly even' : gini < 0.6 ? 'moderately skewed' : 'strongly skewed',
  }));
  setFigure('summary-undefined', formatInt(report.undefined_key_items), report.undefined_key_items,
            {level: report.undefined_key_items > 0 ? 'warn' : ''});
  const invalid = report.invalid_key?.items ?? 0;
  setFigure('summary-invalid', formatInt(invalid), invalid, {level: invalid > 0 ? 'bad' : ''});
  const oversized = report.oversized_items?.count ?? 0;
  setFigure('summary-oversized', formatInt(oversized), oversized, {level: oversized > 0 ? 'bad' : ''});
}

function describeLocation(x) {
  const bits = [];
  if (x.line != null) bits.push(`line ${formatInt(x.line)}`);
  if (x.column != null) bits.push(`column ${formatInt(x.column)}`);
  if (x.item_index != null) bits.push(`item #${formatInt(x.item_index)}`);
  return bits.join(', ');
}

function renderInsights(report) {
  const list = [];
  const add = (level, ...content) => list.push(h('li', {className: level}, content));
  const keyPath = report.key_paths.join(', ');
  const partitioned = partitionedBytes(report);
  const largest = report.largest_partition;

  if (report.items === 0) {
    add('warn', 'The input holds no items.');
  }
  if (report.items > 0 && report.undefined_key_items === report.items) {
    add('bad', `No item has a value at ${keyPath}: everything lands in the undefined partition. ` +
      'Pick a key from the candidate paths above.');
  } else if (report.undefined_key_items > 0) {
    add('warn', `${formatInt(report.undefined_key_items)} item${report.undefined_key_items === 1 ? '' : 's'} ` +
      `(${formatPercent(report.undefined_key_items / report.items)}) have no value at ${keyPath}. ` +
      'Cosmos DB accepts them, but they all share one partition: ', keyNode([{}]), '.');
  }
  if (report.partition_count === 1 && report.items > 1 && report.undefined_key_items !== report.items) {
    add('bad', `All ${formatInt(report.items - (report.invalid_key?.items ?? 0))} items share one logical partition: this key does not spread the data at all.`);
  }
  if (largest && report.partition_count > 1 && partitioned > 0) {
    const share = largest.bytes / partitioned;
    add(share > 0.2 && report.partition_count > 5 ? 'warn' : '',
      'The largest partition, ', keyNode(largest.key),
      `, holds ${formatPercent(share)} of the data (${formatInt(largest.items)} items, ${formatBytes(largest.bytes)}).`);
  }
  if (largest && largest.bytes > 0) {
    const room = PARTITION_LIMIT_BYTES / largest.bytes;
    if (room < 1) {
      add('bad', `The largest partition is over the 20 GB limit of a logical partition (${formatBytes(largest.bytes)}).`);
    } else {
      add(room < 4 ? 'warn' : '', `The largest partition uses ${formatPercent(1 / room)} of the 20 GB limit: ` +
        `it could grow about ${room >= 100 ? formatInt(Math.round(room)) : formatDecimal(room)}× before reaching it.`);
    }
  }
  const candidate = report.candidate_paths?.paths?.find((c) => c.path === report.key_paths[0]);
  if (candidate && report.key_paths.length === 1) {
    const types = candidate.types ?? {};
    const kinds = ['string', 'number', 'boolean', 'null'].filter((t) => types[t] > 0);
    if (kinds.length > 1) {
      add('warn', `${keyPath} holds values of several types (${kinds.join(', ')}). Types matter: `,
        keyNode(['5']), ' and ', keyNode([5]), ' are different partitions.');
    }
  }
  if (report.partition_count > 1 && report.partition_count < 10 && report.items >= 100) {
    add('warn', `Only ${formatInt(report.partition_count)} distinct key values: the data can never spread over more than ` +
      `${formatInt(report.partition_count)} logical partitions, however much it grows.`);
  }
  const invalid = report.invalid_key;
  if (invalid?.items > 0) {
    const first = invalid.examples?.[0];
    add('bad', `${formatInt(invalid.items)} item${invalid.items === 1 ? ' has' : 's have'} an object or array at ${keyPath}; ` +
      `Cosmos DB would reject ${invalid.items === 1 ? 'it' : 'them'}.` + (first ? ` First: ${describeLocation(first)}.` : ''));
  }
  const oversized = report.oversized_items;
  if (oversized?.count > 0) {
    const first = oversized.examples?.[0];
    add('bad', `${formatInt(oversized.count)} item${oversized.count === 1 ? ' is' : 's are'} larger than 2 MB, the Cosmos DB item limit.` +
      (first ? ` First: ${describeLocation(first)} (${formatBytes(first.bytes)}).` : ''));
  }
  if (report.partition_count >= 100 && report.gini < 0.5 && !(report.undefined_key_items > report.items * 0.05)) {
    add('good', `Sizes are fairly even across ${formatInt(report.partition_count)} partitions (Gini ${formatDecimal(report.gini)}): a good spread.`);
  }
  el.insights.replaceChildren(...list);
}

function renderCandidates(report) {
  const cp = report.candidate_paths ?? {sampled_items: 0, paths: []};
  const paths = cp.paths ?? [];
  const current = report.key_paths.length === 1 ? report.key_paths[0] : null;
  el.keyCandidates.replaceChildren(...paths.map((c) => {
    const option = document.createElement('option');
    option.value = c.path;
    option.label = `${formatInt(c.distinct)}${c.distinct_capped ? '+' : ''} distinct values`;
    return option;
  }));
  el.candidatesNote.textContent = paths.length
    ? `(${formatInt(paths.length)} scalar paths seen in the first ${formatInt(cp.sampled_items)} items)`
    : '(none found)';
  // The first few, plus the key in use wherever it ranks.
  const shown = state.showAllCandidates
    ? paths
    : paths.filter((c, i) => i < CANDIDATES_SHOWN || c.path === current);
  el.candidateRows.replaceChildren(...shown.map((c) => {
    const button = h('button', {className: `path-button${c.path === current ? ' current' : ''}`, text: c.path,
                                title: `Re-analyze with ${c.path}`});
    button.type = 'button';
    button.addEventListener('click', () => {
      el.keyInput.value = c.path;
      reanalyze();
    });
    const share = cp.sampled_items ? ` (${formatPercent(c.items / cp.sampled_items)})` : '';
    const types = h('td', {}, ['string', 'number', 'boolean', 'null']
      .filter((t) => c.types?.[t] > 0)
      .map((t) => h('span', {className: 'type-chip', text: `${t} ${formatInt(c.types[t])}`})));
    return h('tr', {}, [
      h('td', {}, [button]),
      h('td', {className: 'num', text: `${formatInt(c.items)}${share}`}),
      h('td', {className: 'num', text: `${c.distinct_capped ? '≥ ' : ''}${formatInt(c.distinct)}`}),
      types,
    ]);
  }));
  const hiddenCount = paths.length - shown.length;
  el.candidatesMore.hidden = !state.showAllCandidates && hiddenCount <= 0;
  el.candidatesMore.textContent = state.showAllCandidates ? 'Show fewer' : `Show ${formatInt(hiddenCount)} more`;
}

function renderCharts() {
  const report = state.report;
  if (!report || el.results.hidden) return;
  try {
    renderHistogram(el.histogram, report);
    renderConcentration(el.concentration, report);
  } catch (e) {
    el.histogram.replaceChildren(h('p', {className: 'hint', text: `The chart could not be drawn: ${e.message}`}));
  }
}

function renderPartitionPage() {
  const report = state.report;
  const partitions = report.partitions ?? [];
  const pages = Math.max(1, Math.ceil(partitions.length / PAGE_SIZE));
  state.page = Math.min(Math.max(0, state.page), pages - 1);
  const from = state.page * PAGE_SIZE;
  const rows = partitions.slice(from, from + PAGE_SIZE);
  const partitioned = partitionedBytes(report);
  el.partitionRows.replaceChildren(...rows.map((p, i) => {
    const share = partitioned > 0 ? p.bytes / partitioned : 0;
    const fill = h('div', {className: 'share-fill'});
    // Scale bars to the largest partition so small shares stay visible.
    const top = partitions[0]?.bytes || 1;
    fill.style.width = `${Math.max(0.5, (p.bytes / top) * 100).toFixed(2)}%`;
    const tr = h('tr', {}, [
      h('td', {className: 'num', text: formatInt(from + i + 1)}),
      h('td', {}, [keyNode(p.key)]),
      h('td', {className: 'num', text: formatInt(p.items)}),
      h('td', {className: 'num', text: formatBytes(p.bytes), title: `${formatInt(p.bytes)} bytes`}),
      h('td', {className: 'col-share'}, [h('div', {className: 'share'}, [h('div', {className: 'share-track'}, [fill]),
                                                   h('span', {className: 'share-text', text: formatPercent(share)})])]),
      h('td', {className: 'num col-largest', text: formatBytes(p.largest_item_bytes),
               title: `item #${formatInt(p.largest_item_index)}, ${formatInt(p.largest_item_bytes)} bytes`}),
    ]);
    tr.dataset.key = formatKey(p.key);
    return tr;
  }));
  if (rows.length === 0) {
    el.partitionRows.append(h('tr', {}, [Object.assign(h('td', {text: 'No partitions.'}), {colSpan: 6})]));
  }
  const total = report.partition_count;
  let status = rows.length
    ? `Showing ${formatInt(from + 1)}–${formatInt(from + rows.length)} of ${formatInt(total)} partitions`
    : `Showing 0 of ${formatInt(total)} partitions`;
  if (report.partitions_omitted > 0) {
    status += ` (the largest ${formatInt(partitions.length)} are listed)`;
  }
  el.pageStatus.textContent = status;
  el.pageStatus.dataset.shown = String(rows.length);
  el.pageStatus.dataset.total = String(total);
  el.pagePrev.disabled = state.page === 0;
  el.pageNext.disabled = state.page >= pages - 1;
}

// ---------------------------------------------------------------------------------------------
// Examples.

async function loadExamples() {
  const indexUrl = new URL('examples/index.json', document.baseURI);
  const response = await fetch(indexUrl);
  if (!response.ok) throw new Error(`examples/index.json: HTTP ${response.status}`);
  const list = await response.json();
  state.examples = (Array.isArray(list) ? list : []).filter((e) =>
    e && typeof e.id === 'string' && typeof e.file === 'string' && typeof e.key === 'string');
  el.exampleSelect.replaceChildren(...state.examples.map((e) => {
    const option = h('option', {text: typeof e.title === 'string' ? e.title : e.id});
    option.value = e.id;
    return option;
  }));
}

// ---------------------------------------------------------------------------------------------
// Events.

el.exampleSelect.addEventListener('change', () => {
  const example = state.examples.find((e) => e.id === el.exampleSelect.value);
  if (example) analyzeExample(example);
});

el.fileInput.addEventListener('change', () => {
  const file = el.fileInput.files?.[0];
  el.fileInput.value = '';
  analyzeFile(file);
});

let dragDepth = 0;
el.dropzone.addEventListener('dragenter', (event) => {
  event.preventDefault();
  dragDepth++;
  el.dropzone.classList.add('dragging');
});
el.dropzone.addEventListener('dragover', (event) => {
  event.preventDefault();
  if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
});
el.dropzone.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    el.dropzone.classList.remove('dragging');
  }
});
el.dropzone.addEventListener('drop', (event) => {
  event.preventDefault();
  dragDepth = 0;
  el.dropzone.classList.remove('dragging');
  analyzeFile(event.dataTransfer?.files?.[0]);
});
// A file dropped next to the drop zone must not replace the page.
for (const type of ['dragover', 'drop']) {
  window.addEventListener(type, (event) => {
    if (!el.dropzone.contains(event.target)) event.preventDefault();
  });
}

el.analyzeButton.addEventListener('click', analyzePaste);
el.pasteInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    analyzePaste();
  }
});

el.keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  reanalyze();
});

// Picking a suggestion from the datalist applies it at once (typing waits for Enter).
el.keyInput.addEventListener('input', (event) => {
  const picked = !(event instanceof InputEvent) || event.inputType === 'insertReplacementText';
  const known = state.report?.candidate_paths?.paths?.some((c) => c.path === el.keyInput.value);
  if (picked && known) reanalyze();
});

el.candidatesMore.addEventListener('click', () => {
  state.showAllCandidates = !state.showAllCandidates;
  if (state.report) renderCandidates(state.report);
});

el.cancelButton.addEventListener('click', () => {
  client.cancel().catch(() => {});
});

el.pagePrev.addEventListener('click', () => {
  state.page--;
  renderPartitionPage();
});
el.pageNext.addEventListener('click', () => {
  state.page++;
  renderPartitionPage();
});

let resizeFrame = 0;
let lastWidth = 0;
new ResizeObserver((entries) => {
  const width = Math.round(entries[0].contentRect.width);
  if (width === lastWidth) return;
  lastWidth = width;
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(renderCharts);
}).observe(el.histogram);

// ---------------------------------------------------------------------------------------------
// Start: load the engine and the examples, then analyze the first example.

client.ready.then(
  ({version}) => { el.engineVersion.textContent = `Engine ${version}.`; },
  () => {}, // the first analysis reports the failure
);

(async () => {
  try {
    await loadExamples();
  } catch (e) {
    el.exampleSelect.replaceChildren(h('option', {text: 'Examples unavailable'}));
    state.runSeq++;
    showError({codeName: 'io', message: `The bundled examples could not be loaded: ${e.message}`});
    finishRun('error');
    return;
  }
  if (state.examples.length > 0) analyzeExample(state.examples[0]);
  else finishRun('ready');
})();
