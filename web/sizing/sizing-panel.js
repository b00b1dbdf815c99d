// The Sizing view (docs/sizing.md): its markup (sizing-markup.js) rendered into the root it is
// given, the form, the worker requests and what goes where. Rendering is sizing-view.js (pure
// functions of the reports); every computation and every judgement is the engine's, in the worker
// (client.sizeTable, client.dataSizing): the reports carry the checks and their verdicts.
//
//   const sizing = mountSizingView(root, client, {analysisRuns});   // root: an empty element
//   sizing.activate();     // when the mode shows: charts need a width, the data form refreshes
//   sizing.deactivate();   // when it hides
//   sizing.destroy();      // stops its observers, empties root
//   sizing.shareState({fits});   // {e | s, t, f} (sizing-link.js); restoreState(state)
// Every element it reads is inside root. The data form measures the Cosmos DB mode's analysis again
// when it changes: on each `analysisEvent` ({target, type}: an event the Cosmos DB view sends when
// an analysis finishes), or, without one, when the data-runs of `analysisRuns` (the page's body)
// changes. A table of the Cassandra mode's session can be sized from its rows (sizing-rows.js):
// the engine measures them and its sizing request fills the form.
//
// The form follows the schema: the table picker, each variable-width column's average, the split
// options' columns are rebuilt from the engine's listing of the script (client.sizingTables) as
// it is typed. The other settings (rows, partitions, growth, splits asked for) are the table's:
// kept per table, so a schema pasted over an example starts blank for its own table, and a split
// whose column the table no longer has (or no longer of a type it needs) is removed, saying so.
// Once the script is not an example's, the example picker says "Your own schema".
//
// Events (CustomEvent on root, bubbling): 'sizing:report' {detail: the table report} after each
// computed report; 'sizing:data-report' {detail: the data report}.
// Progress for tests and scripts: root carries data-sizing-state (idle | busy | ready | error) and
// data-sizing-runs (finished schema runs), data-data-state and data-data-runs (the data form).
import {h, scopedById} from '../common/dom.js';
import {formatInt} from '../common/format.js';
import {limitValue} from '../common/limits.js';
import {wireGlossary} from '../common/glossary.js';
import {SPLIT_FORM_START, sizingMarkup} from './sizing-markup.js';
import {wireRowsSizing} from './sizing-rows.js';
import {createSizingLink} from './sizing-link.js';
import {
  avgSizeFields, drawSizingCharts, renderDataSizing, renderGrowth, renderLimitsTable,
  renderOptions, renderSizingError, renderTableReport,
} from './sizing-view.js';

const SETTLE_MS = 400; // lint-ok: typing pause before computing

/** The form's settings kept per table (besides the averages): the elements of `el` they are in. */
const SETTING_FIELDS = ['rows', 'worstRows', 'partitions', 'rf', 'tAvg', 'growthRows', 'retention', 'horizon'];

const SPLIT_TITLES = {
  move_clustering_column: (s) => `move ${s.column} into the partition key (${formatInt(s.distinct_values)} distinct values)`,
  time_bucket: (s) => `${s.unit} bucket from ${s.column} over ${formatInt(s.span_days)} days`,
  hash_bucket: (s) => `hash bucket of ${formatInt(s.buckets)}`,
};

function todayIso() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A number input's value, or undefined when empty or not a number. */
function numberOf(input) {
  const text = input.value.trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** Rows per partition as typed: a plain number crosses as a number, anything else as the formula text. */
function rowsOf(text) {
  const t = text.trim();
  if (t === '') return undefined;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}

/**
 * Mounts the Sizing view into `root` once the engine is loaded (its markup shows the engine's
 * defaults); the handle works at once. Options: {analysisEvent, analysisRuns, examplesBase}.
 */
export function mountSizingView(root, client, options = {}) {
  let inner = null;
  let active = false;
  let destroyed = false;
  const mounted = client.ready.then(() => {
    if (destroyed) return;
    root.innerHTML = sizingMarkup();
    wireGlossary(root);  // the "?" next to t_avg, Nv and St
    inner = wireSizingView(root, client, options);
    if (active) inner.activate();
  }, (e) => {
    if (!destroyed) root.replaceChildren(h('p', {className: 'callout bad', text: `The sizing view needs the engine: ${e?.message ?? e}`}));
  });
  return {
    /** The mode is showing: draw the charts (they need a width) and measure the loaded data. */
    activate() {
      active = true;
      inner?.activate();
    },
    deactivate() {
      active = false;
      inner?.deactivate();
    },
    /** Draws the charts again (after a resize). */
    redraw() {
      inner?.redraw();
    },
    /** Tears the view down: no observer or listener left, `root` emptied. */
    destroy() {
      destroyed = true;
      inner?.destroy();
      root.replaceChildren();
    },
    /** What a share link needs of this mode (sizing-link.js): the schema or example, table, settings, averages. */
    shareState(options) {
      return inner?.shareState(options) ?? {};
    },
    /** Brings the view to a shared state (once its markup is there). */
    async restoreState(shared) {
      await mounted;
      await inner?.restoreState(shared);
    },
    /** Resolves once the markup is rendered and wired. */
    ready: mounted,
  };
}

/** The name app.js used before the views had one handle shape. */
export const mountSizingPanel = mountSizingView;

function wireSizingView(root, client, {analysisEvent = null, analysisRuns = null,
                                      examplesBase = new URL('examples/cql/', document.baseURI)} = {}) {
  const byId = scopedById(root);
  const view = root;
  const el = {
    form: byId('sizing-form'),
    example: byId('sizing-example'),
    exampleDescription: byId('sizing-example-description'),
    cql: byId('sizing-cql'),
    table: byId('sizing-table'),
    rows: byId('sizing-rows'),
    rowsNote: byId('sizing-rows-note'),
    worstRows: byId('sizing-worst-rows'),
    partitions: byId('sizing-partitions'),
    rf: byId('sizing-rf'),
    tAvg: byId('sizing-tavg'),
    avgFields: byId('sizing-avg-fields'),
    avgEmpty: byId('sizing-avg-empty'),
    growthRows: byId('sizing-growth-rows'),
    retention: byId('sizing-retention'),
    horizon: byId('sizing-horizon'),
    startDate: byId('sizing-start-date'),
    status: byId('sizing-status'),
    error: byId('sizing-error'),
    result: byId('sizing-result'),
    splitForm: byId('split-form'),
    splitKind: byId('split-kind'),
    splitColumn: byId('split-column'),
    splitDistinct: byId('split-distinct'),
    splitUnit: byId('split-unit'),
    splitSpan: byId('split-span'),
    splitBuckets: byId('split-buckets'),
    splitList: byId('split-list'),
    splitNote: byId('split-note'),
    splitDropped: byId('split-dropped'),
    options: byId('sizing-options'),
    growth: byId('sizing-growth'),
    dataForm: byId('data-sizing-form'),
    valuesPerRow: byId('data-values-per-row'),
    dataStatus: byId('data-sizing-status'),
    dataResult: byId('data-sizing-result'),
    limits: byId('sizing-limits-view'),
    rowsTable: byId('rows-sizing-table'),
    rowsRun: byId('rows-sizing-run'),
    rowsStatus: byId('rows-sizing-status'),
    rowsResult: byId('rows-sizing-result'),
  };

  const state = {
    examples: [],
    /** The example whose script the form holds ({id, text}), or null: the user's own schema. */
    example: null,
    /** Averages typed, per table: {table: {column: text}}. */
    avgByTable: new Map(),
    /** The variable-width columns known for each table: {table: [{name, type, role}]}. */
    columnsByTable: new Map(),
    /** Every column of each table as the engine lists it: [{name, type, role, fixed_bytes, time_bucket}]. */
    tableColumns: new Map(),
    /** The other settings per table ({rows, ..., horizon: text, splits}), saved when the form leaves it. */
    settingsByTable: new Map(),
    /** The table whose settings and averages the form shows (kept while the script lists none). */
    formTable: null,
    /** The last successful report, or null. */
    report: null,
    /** The splits asked for the form's table. */
    splits: [],
    seq: 0,
    listSeq: 0,
    /** Why the script lists no table (its located CQL error), or null. */
    listError: null,
    runs: 0,
    dataSeq: 0,
    dataRuns: 0,
    timer: 0,
    active: false,
  };

  el.startDate.value ||= todayIso();

  const setState = (value) => { view.dataset.sizingState = value; };
  const setDataState = (value) => { view.dataset.dataState = value; };

  // -------------------------------------------------------------------------------------------
  // The form.

  function currentTable() {
    return el.table.value;
  }

  function blankSettings() {
    return {rows: '', worstRows: '', partitions: '1', rf: '', tAvg: String(limitValue('sizing_default_t_avg_bytes')),
            growthRows: '', retention: '0', horizon: '', splits: []};
  }

  function readSettings() {
    const settings = {splits: state.splits.map((x) => ({...x}))};
    for (const f of SETTING_FIELDS) settings[f] = el[f].value;
    return settings;
  }

  function writeSettings(settings) {
    for (const f of SETTING_FIELDS) el[f].value = settings[f];
    state.splits = settings.splits.map((x) => ({...x}));
  }

  /**
   * The form shows `table`: its settings as they were left, or blank ones for a table met for the
   * first time, its averages and the split options its columns allow. While the script lists no
   * table (it does not parse) the form keeps the last one's.
   */
  function showTable(table) {
    if (table && table !== state.formTable) {
      if (state.formTable) {
        state.settingsByTable.set(state.formTable, readSettings());
        // What was computed is another table's: it goes with it.
        state.report = null;
        el.result.replaceChildren(h('p', {className: 'hint', text: `Nothing computed for ${table} yet.`}));
        el.options.replaceChildren();
        el.growth.replaceChildren();
        for (const node of [el.result, el.options, el.growth]) node.classList.remove('stale');
      }
      writeSettings(state.settingsByTable.get(table) ?? blankSettings());
      state.formTable = table;
      el.splitDropped.hidden = true;
      el.splitDropped.textContent = '';
    }
    pruneSplits();
    renderSplits();
    renderAvgFields();
    fillSplitColumns();
  }

  /** Gives `table` these settings (and averages), shown at once when the form shows it. */
  function setTableSettings(table, settings, averages) {
    state.settingsByTable.set(table, settings);
    if (averages) state.avgByTable.set(table, averages);
    if (state.formTable === table) state.formTable = null;
    showTable(currentTable());
  }

  /** The script is no example's any more: the picker says so; `description` says where it came from. */
  function leaveExample(description = '') {
    state.example = null;
    el.example.value = '';
    el.exampleDescription.textContent = description;
  }

  function averagesFor(table) {
    if (!state.avgByTable.has(table)) state.avgByTable.set(table, {});
    return state.avgByTable.get(table);
  }

  /**
   * Offers the tables the script creates, as the engine reads it (client.sizingTables), and learns
   * each table's variable-width columns (those needing an average). Resolves to false when a newer
   * call overtook it. A script that does not parse lists no table; sizing then shows its error.
   */
  async function fillTables({keep} = {}) {
    const seq = ++state.listSeq;
    let tables = [];
    let error = null;
    try {
      tables = await client.sizingTables(el.cql.value);
    } catch (e) {
      error = e;  // the script creates no table that parses: this is why (shown when sizing runs)
    }
    if (seq !== state.listSeq) return false;
    state.listError = error;
    for (const t of tables) {
      state.tableColumns.set(t.name, t.columns);
      setColumns(t.name, t.columns.filter((c) => c.fixed_bytes === null));
    }
    const names = tables.map((t) => t.name);
    const previous = keep ?? el.table.value;
    el.table.replaceChildren(...names.map((n) => {
      const o = h('option', {text: n});
      o.value = n;
      return o;
    }));
    if (names.length === 0) {
      const o = h('option', {text: 'No CREATE TABLE in the script'});
      o.value = '';
      el.table.append(o);
    }
    const match = names.find((n) => n === previous) ?? names.find((n) => n.split('.').pop() === previous) ?? names[0];
    if (match) el.table.value = match;
    showTable(currentTable());
    return true;
  }

  function renderAvgFields() {
    const table = state.formTable ?? '';
    const columns = state.columnsByTable.get(table) ?? [];
    const values = averagesFor(table);
    const focused = root.getRootNode().activeElement?.dataset?.column;
    el.avgFields.replaceChildren(...avgSizeFields(columns, values));
    el.avgEmpty.hidden = columns.length > 0;
    for (const input of el.avgFields.querySelectorAll('input')) {
      input.setAttribute('aria-invalid', String(input.value.trim() === ''));
      if (input.dataset.column === focused) input.focus();
    }
  }

  function sameColumns(a, b) {
    return a.length === b.length && a.every((c, i) => c.name === b[i].name && c.type === b[i].type);
  }

  function setColumns(table, columns) {
    const list = columns.map(({name, type, role}) => ({name, type, role}));
    if (sameColumns(list, state.columnsByTable.get(table) ?? [])) return;
    state.columnsByTable.set(table, list);
    if (table === state.formTable) renderAvgFields();
  }

  function avgSizesFor(table) {
    const out = {};
    const known = new Set((state.columnsByTable.get(table) ?? []).map((c) => c.name));
    for (const [column, text] of Object.entries(averagesFor(table))) {
      if (known.size && !known.has(column)) continue;
      if (String(text).trim() === '') continue;
      const n = Number(text);
      out[column] = Number.isFinite(n) ? n : NaN;
    }
    return out;
  }

  function buildRequest() {
    const table = currentTable();
    const request = {cql: el.cql.value, table, rows_per_partition: rowsOf(el.rows.value) ?? '',
                     avg_sizes: avgSizesFor(state.formTable ?? table), splits: state.splits.map((s) => ({...s})), suggest_splits: true};
    const worst = rowsOf(el.worstRows.value);
    if (worst !== undefined) request.worst_rows_per_partition = worst;
    const partitions = numberOf(el.partitions);
    if (partitions !== undefined) request.partitions = partitions;
    const rf = numberOf(el.rf);
    request.replication_factor = rf === undefined ? null : rf;
    const tAvg = numberOf(el.tAvg);
    if (tAvg !== undefined) request.t_avg = tAvg;
    const perDay = numberOf(el.growthRows);
    if (perDay !== undefined && perDay > 0) {
      request.growth = {rows_per_day: perDay, retention_days: numberOf(el.retention) ?? 0};
      const horizon = numberOf(el.horizon);
      if (horizon !== undefined && horizon > 0) request.growth.horizon_days = horizon;
    }
    return request;
  }

  // -------------------------------------------------------------------------------------------
  // Running: the schema form.

  /** Which text an error's line and column point into: the CQL, or the rows formula its field names. */
  function errorSource(error) {
    if (/^cql_/.test(error.codeName ?? '')) return {text: el.cql.value, label: 'CQL'};
    if (!error.location) return {text: '', label: ''};
    if (error.field === '/worst_rows_per_partition') return {text: el.worstRows.value.trim(), label: 'worst-case rows'};
    if (error.field === '/rows_per_partition') return {text: el.rows.value.trim(), label: 'rows per partition'};
    return {text: '', label: ''};
  }

  /** The column an error's field names when it is an average size ("/avg_sizes/body"), or null. */
  function averageColumnOf(error) {
    const m = /^\/avg_sizes\/(.*)$/.exec(error?.field ?? '');
    return m ? m[1].replace(/~1/g, '/').replace(/~0/g, '~') : null;
  }

  function showError(error) {
    const source = errorSource(error);
    const panel = renderSizingError(error, source);
    if (source.label) panel.dataset.source = source.label;
    el.error.replaceChildren(panel);
    el.error.hidden = false;
    el.status.textContent = 'Not computed: see the error.';
    if (state.report) for (const node of [el.result, el.options, el.growth]) node.classList.add('stale');
  }

  function showReport(report) {
    state.report = report;
    el.error.hidden = true;
    el.error.replaceChildren();
    const startDate = el.startDate.value;
    el.result.replaceChildren(renderTableReport(report, {startDate}));
    el.options.replaceChildren(renderOptions(report));
    el.growth.replaceChildren(renderGrowth(report, {startDate}));
    for (const node of [el.result, el.options, el.growth]) node.classList.remove('stale');
    const r = report.rows_per_partition;
    el.rowsNote.textContent = `Nr = ${r.expression}${r.expression.includes('=') ? '' : ` = ${formatInt(r.value)}`} rows ` +
      'per partition. A number, or a product such as 100*730 (rooms × nights) or 1440*365 (a reading a minute for a year).';
    el.status.textContent = `${report.keyspace ? `${report.keyspace}.` : ''}${report.table}: computed.`;
    fillSplitColumns();
    // The limits checked, as the engine's report lists them.
    el.limits.replaceChildren(renderLimitsTable(report.checks));
    if (state.active) drawSizingCharts(view);
    root.dispatchEvent(new CustomEvent('sizing:report', {detail: report, bubbles: true}));
  }

  /** Nothing to compute until the rows per partition are given: the results wait, marked stale. */
  function showPending() {
    el.error.hidden = true;
    el.error.replaceChildren();
    el.status.textContent = 'Give the rows per partition (Nr) to compute.';
    el.rowsNote.textContent = 'A number, or a product such as 100*730 (rooms × nights) or 1440*365 (a reading a minute ' +
      'for a year).';
    if (state.report) for (const node of [el.result, el.options, el.growth]) node.classList.add('stale');
  }

  async function compute() {
    clearTimeout(state.timer);
    const seq = ++state.seq;
    const request = buildRequest();
    setState('busy');
    el.status.textContent = 'Computing…';
    el.rows.setAttribute('aria-invalid', String(request.table !== '' && request.rows_per_partition === ''));
    try {
      if (!request.table) {
        throw state.listError ?? Object.assign(new Error('The script creates no table: write a CREATE TABLE statement.'),
                                               {codeName: 'cql_unknown', location: null});
      }
      if (request.rows_per_partition === '') {
        showPending();
        setState('idle');
        return;
      }
      const report = await client.sizeTable(request);
      if (seq !== state.seq) return;
      setColumns(request.table, report.columns.filter((c) => c.estimated));
      showReport(report);
      setState('ready');
    } catch (e) {
      if (seq !== state.seq) return;
      const column = averageColumnOf(e);
      if (column !== null) {
        el.avgFields.querySelector(`input[data-column="${CSS.escape(column)}"]`)?.setAttribute('aria-invalid', 'true');
      }
      showError(e);
      setState('error');
    } finally {
      if (seq === state.seq) {
        state.runs++;
        view.dataset.sizingRuns = String(state.runs);
      }
    }
  }

  function schedule() {
    clearTimeout(state.timer);
    state.timer = setTimeout(compute, SETTLE_MS);
  }

  // -------------------------------------------------------------------------------------------
  // Splits (the advisor's options asked for).

  /** Why `split` does not fit the table of `columns` (the engine's listing), or null. */
  function splitProblem(split, columns) {
    if (split.kind === 'hash_bucket') return null;
    const column = columns.find((c) => c.name === split.column);
    if (!column) return `it has no column ${split.column}`;
    if (split.kind === 'time_bucket' && !column.time_bucket) {
      return `${split.column} is not a date, timestamp or timeuuid clustering column`;
    }
    if (split.kind === 'move_clustering_column' && column.role !== 'clustering') return `${split.column} is not a clustering column`;
    return null;
  }

  /** Removes the splits the form's table cannot take, and says which went. */
  function pruneSplits() {
    const columns = state.tableColumns.get(state.formTable);
    if (!columns) return;
    const dropped = [];
    state.splits = state.splits.filter((split) => {
      const problem = splitProblem(split, columns);
      if (problem) dropped.push(`${SPLIT_TITLES[split.kind](split)}: ${problem}`);
      return !problem;
    });
    if (dropped.length) {
      el.splitDropped.textContent = `Removed from the options asked for ${state.formTable}: ${dropped.join('; ')}.`;
      el.splitDropped.hidden = false;
    }
  }

  function fillSplitColumns() {
    const kind = el.splitKind.value;
    const known = state.tableColumns.get(state.formTable) ?? [];
    const columns = kind === 'time_bucket' ? known.filter((c) => c.time_bucket)
      : known.filter((c) => c.role === 'clustering');
    const previous = el.splitColumn.value;
    el.splitColumn.replaceChildren(...columns.map((c) => {
      const o = h('option', {text: `${c.name} (${c.type})`});
      o.value = c.name;
      return o;
    }));
    if (columns.some((c) => c.name === previous)) el.splitColumn.value = previous;
    el.splitColumn.disabled = columns.length === 0;
    for (const label of el.splitForm.querySelectorAll('[data-for]')) {
      label.hidden = !label.dataset.for.split(' ').includes(kind);
    }
    const add = el.splitForm.querySelector('[data-testid="split-add"]');
    add.disabled = kind !== 'hash_bucket' && columns.length === 0;
    el.splitNote.textContent = kind !== 'hash_bucket' && columns.length === 0
      ? (kind === 'time_bucket' ? 'The table has no date, timestamp or timeuuid clustering column to bucket.'
        : 'The table has no clustering column to move.') : '';
  }

  function renderSplits() {
    el.splitList.replaceChildren(...state.splits.map((s, i) => {
      const title = SPLIT_TITLES[s.kind](s);
      const remove = h('button', {className: 'small', text: 'Remove', testid: 'split-remove'});
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove the option: ${title}`);
      remove.addEventListener('click', () => {
        state.splits.splice(i, 1);
        renderSplits();
        compute();
      });
      const li = h('li', {className: 'split-chip', testid: 'split-item'}, [h('span', {text: title}), remove]);
      li.dataset.kind = s.kind;
      return li;
    }));
    if (state.splits.length === 0) el.splitList.append(h('li', {className: 'hint', text: 'No split asked for yet.'}));
  }

  function addSplit() {
    const kind = el.splitKind.value;
    let split;
    if (kind === 'hash_bucket') {
      split = {kind, buckets: Math.max(1, Math.round(numberOf(el.splitBuckets) ?? SPLIT_FORM_START.buckets))};
    } else if (kind === 'time_bucket') {
      split = {kind, column: el.splitColumn.value, unit: el.splitUnit.value,
               span_days: Math.max(1, numberOf(el.splitSpan) ?? SPLIT_FORM_START.spanDays)};
    } else {
      split = {kind, column: el.splitColumn.value, distinct_values: Math.max(1, numberOf(el.splitDistinct) ?? 1)};
    }
    state.splits.push(split);
    renderSplits();
    compute();
  }

  // -------------------------------------------------------------------------------------------
  // From data: the analysis of the Cosmos DB mode (slot 'main').

  async function computeData() {
    const seq = ++state.dataSeq;
    setDataState('busy');
    el.dataStatus.textContent = 'Measuring…';
    try {
      const valuesPerRow = numberOf(el.valuesPerRow);
      const report = await client.dataSizing({slot: 'main', valuesPerRow: valuesPerRow > 0 ? valuesPerRow : undefined});
      if (seq !== state.dataSeq) return;
      el.dataResult.replaceChildren(renderDataSizing(report, {source: report.source, key_paths: report.key_paths}));
      el.valuesPerRow.placeholder = String(report.values_per_row);
      el.dataStatus.textContent = numberOf(el.valuesPerRow) > 0 ? ''
        : `Estimated: ${report.values_per_row} scalar fields per item besides the key and id.`;
      if (state.active) drawSizingCharts(el.dataResult);
      setDataState('ready');
      root.dispatchEvent(new CustomEvent('sizing:data-report', {detail: report, bubbles: true}));
    } catch (e) {
      if (seq !== state.dataSeq) return;
      if (e.codeName === 'no_analysis') {
        el.dataResult.replaceChildren(h('p', {className: 'hint', testid: 'data-sizing-empty',
          text: 'Nothing is analyzed yet: load or paste JSON items in the Cosmos DB mode, pick a key, then come back.'}));
        el.dataStatus.textContent = '';
      } else {
        el.dataResult.replaceChildren(renderSizingError(e));
        el.dataStatus.textContent = 'Not measured: see the error.';
      }
      setDataState('error');
    } finally {
      if (seq === state.dataSeq) {
        state.dataRuns++;
        view.dataset.dataRuns = String(state.dataRuns);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Examples.

  async function loadExample(id) {
    const ex = state.examples.find((e) => e.id === id);
    if (!ex) return;
    let text;
    try {
      const response = await fetch(new URL(ex.file, examplesBase));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    } catch (e) {
      el.status.textContent = `The example ${ex.file} could not be loaded: ${e.message}`;
      return;
    }
    el.cql.value = text;
    state.example = {id, text};
    el.example.value = id;
    el.exampleDescription.textContent = ex.description ?? '';
    if (!await fillTables({keep: ex.table})) return;
    setTableSettings(currentTable(), {
      rows: String(ex.rows_per_partition ?? ''),
      worstRows: ex.worst_rows_per_partition ? String(ex.worst_rows_per_partition) : '',
      partitions: String(ex.partitions ?? 1),
      rf: String(ex.replication_factor ?? ''),
      tAvg: String(ex.t_avg ?? limitValue('sizing_default_t_avg_bytes')),
      growthRows: ex.growth ? String(ex.growth.rows_per_day) : '',
      retention: ex.growth ? String(ex.growth.retention_days ?? 0) : '0',
      horizon: ex.growth?.horizon_days ? String(ex.growth.horizon_days) : '',
      splits: ex.splits ?? [],
    }, Object.fromEntries(Object.entries(ex.avg_sizes ?? {}).map(([k, v]) => [k, String(v)])));
    await compute();
  }

  /** The engine's sizing request measured from a table's rows (sizing-rows.js) becomes the form's. */
  async function useMeasured(request, report) {
    el.cql.value = request.cql;
    leaveExample(`The schema of ${request.table} and the figures measured from its ${formatInt(report.rows)} ` +
      `row${report.rows === 1 ? '' : 's'} in the Cassandra mode (6).`);
    if (state.formTable) state.settingsByTable.set(state.formTable, readSettings());
    state.settingsByTable.set(request.table, {
      ...blankSettings(),
      rows: String(request.rows_per_partition),
      worstRows: request.worst_rows_per_partition === null ? '' : String(request.worst_rows_per_partition),
      partitions: String(request.partitions),
    });
    state.avgByTable.set(request.table, Object.fromEntries(Object.entries(request.avg_sizes).map(([k, v]) => [k, String(v)])));
    if (state.formTable === request.table) state.formTable = null;
    if (await fillTables({keep: request.table})) await compute();
  }

  async function loadExamples() {
    try {
      const response = await fetch(new URL('sizing.json', examplesBase));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      state.examples = await response.json();
    } catch (e) {
      state.examples = [];
      el.status.textContent = `The sizing examples could not be loaded: ${e.message}`;
    }
    const own = h('option', {text: 'Your own schema'});
    own.value = '';
    el.example.replaceChildren(...state.examples.map((ex) => {
      const o = h('option', {text: ex.title});
      o.value = ex.id;
      return o;
    }), own);
    if (state.examples.length) await loadExample(state.examples[0].id);
  }

  // -------------------------------------------------------------------------------------------
  // Events.

  el.form.addEventListener('submit', (event) => {
    event.preventDefault();
    compute();
  });
  el.example.addEventListener('change', () => {
    if (el.example.value) loadExample(el.example.value);
    else leaveExample();
  });
  el.cql.addEventListener('input', async () => {
    if (state.example && el.cql.value !== state.example.text) leaveExample();
    if (await fillTables()) schedule();
  });
  el.cql.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      compute();
    }
  });
  el.table.addEventListener('change', () => {
    showTable(currentTable());
    compute();
  });
  el.avgFields.addEventListener('input', (event) => {
    const input = event.target.closest('input[data-column]');
    if (!input || !state.formTable) return;
    averagesFor(state.formTable)[input.dataset.column] = input.value;
    input.setAttribute('aria-invalid', String(input.value.trim() === ''));
    schedule();
  });
  for (const input of [el.rows, el.worstRows, el.partitions, el.rf, el.tAvg, el.growthRows, el.retention, el.horizon]) {
    input.addEventListener('input', schedule);
  }
  el.startDate.addEventListener('change', () => {
    if (state.report) showReport(state.report);
  });
  el.splitKind.addEventListener('change', fillSplitColumns);
  el.splitForm.addEventListener('submit', (event) => {
    event.preventDefault();
    addSplit();
  });
  el.dataForm.addEventListener('submit', (event) => {
    event.preventDefault();
    computeData();
  });

  // The Cosmos DB mode's analysis changed (the page counts finished runs in analysisRuns'
  // data-runs): measure it again when this mode shows it, else on the next activate().
  const runsObserver = new MutationObserver(() => {
    if (state.active) computeData();
  });
  const onAnalysis = () => {
    if (state.active) computeData();
  };
  if (analysisEvent) analysisEvent.target.addEventListener(analysisEvent.type, onAnalysis);
  else if (analysisRuns) runsObserver.observe(analysisRuns, {attributes: true, attributeFilter: ['data-runs']});

  let resizeFrame = 0;
  const onResize = () => {
    cancelAnimationFrame(resizeFrame);
    resizeFrame = requestAnimationFrame(() => {
      if (state.active) drawSizingCharts(view);
    });
  };
  window.addEventListener('resize', onResize);

  const rows = wireRowsSizing(root, client, {el, onRequest: useMeasured});
  const link = createSizingLink({el, state, readSettings, averagesFor, currentTable, leaveExample, loadExample,
                                 fillTables, setTableSettings, compute});

  renderSplits();
  fillSplitColumns();
  const ready = client.ready.then(loadExamples, () => {});

  return {
    shareState: link.shareState,
    /** Brings the form to a link's state once the examples are in (the first example is shown first). */
    restoreState: async (shared) => {
      await ready;
      await link.restoreState(shared);
    },
    activate() {
      state.active = true;
      ready.then(() => drawSizingCharts(view));
      computeData();
      rows.refresh();
    },
    deactivate() {
      state.active = false;
    },
    redraw() {
      if (state.active) drawSizingCharts(view);
    },
    destroy() {
      state.active = false;
      runsObserver.disconnect();
      analysisEvent?.target.removeEventListener(analysisEvent.type, onAnalysis);
      window.removeEventListener('resize', onResize);
      cancelAnimationFrame(resizeFrame);
      root.replaceChildren();
    },
  };
}
