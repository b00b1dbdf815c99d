// The Sizing view's "from a CQL table's rows" part (docs/sizing.md "From a table's rows"): the
// tables of the Cassandra mode's session (client.cqlTables), the engine's measurement of one
// (client.sizeCqlRows, sizing/rows_sizing.h) rendered, and its sizing request handed to the schema
// form. Every figure is the engine's; this presents it. sizing-panel.js wires it:
//
//   const rows = wireRowsSizing(root, client, {el, onRequest: (request, report) => ...});
//   rows.refresh();   // the mode shows: list the session's tables again
//
// Progress for tests and scripts: root carries data-rows-state (idle | busy | ready | error) and
// data-rows-runs (finished measurements). Event: 'sizing:rows-report' {detail: the report}.
import {fillTable, h, keyNode} from '../common/dom.js';
import {formatInt, plural} from '../common/format.js';
import {drawSizingCharts, formatBytesExact, formatNumber, renderDataSizing, renderSizingError} from './sizing-view.js';

const ROLE_WORDS = {partition_key: 'partition key', clustering: 'clustering', static: 'static', regular: 'regular'};

function parseKey(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The columns as the rows hold them: values, nulls, bytes, the average per row or per partition. */
function columnsTable(report) {
  const table = h('table', {className: 'compare-table', testid: 'rows-columns'});
  fillTable(table, [{label: 'column'}, {label: 'type'}, {label: 'role'}, {label: 'values', num: true},
                    {label: 'nulls', num: true}, {label: 'bytes', num: true}, {label: 'average bytes', num: true},
                    {label: 'in the form'}],
  report.columns.map((c) => [h('code', {text: c.name}), c.type, ROLE_WORDS[c.role] ?? c.role, formatInt(c.values),
    formatInt(c.nulls), formatNumber(c.bytes), `${formatNumber(c.avg_bytes)} per ${c.per}`,
    c.fixed_bytes === null ? 'its average' : `fixed, ${formatNumber(c.fixed_bytes)}`]),
  {caption: 'Each column as the rows hold it'});
  table.querySelectorAll('tbody tr').forEach((tr, i) => {
    const c = report.columns[i];
    tr.dataset.column = c.name;
    tr.dataset.avgBytes = String(c.avg_bytes);
    tr.dataset.nulls = String(c.nulls);
  });
  return table;
}

/** The largest partitions by bytes, with their rows and values. */
function largestTable(report) {
  const table = h('table', {className: 'compare-table', testid: 'rows-largest'});
  fillTable(table, [{label: 'partition key'}, {label: 'token', num: true}, {label: 'rows (Nr)', num: true},
                    {label: 'values (Nv)', num: true}, {label: 'bytes (St)', num: true}],
  report.largest.map((p) => [keyNode(parseKey(p.key), {max: 60}), p.token, formatNumber(p.rows), formatNumber(p.nv),
    formatBytesExact(p.st_bytes)]),
  {caption: 'The largest partitions by bytes'});
  table.querySelectorAll('tbody tr').forEach((tr, i) => {
    const p = report.largest[i];
    tr.dataset.key = p.key;
    tr.dataset.rows = String(p.rows);
    tr.dataset.nv = String(p.nv);
    tr.dataset.stBytes = String(p.st_bytes);
  });
  return table;
}

/** The engine's measurement of a table's rows (docs/sizing.md "From a table's rows") as nodes. */
export function renderRowsSizing(report) {
  const name = `${report.keyspace}.${report.table}`;
  const root = h('div', {className: 'sizing-rows-report', testid: 'rows-sizing-report'});
  root.dataset.table = name;
  root.dataset.partitions = String(report.partitions);
  root.dataset.rows = String(report.rows);
  const perRow = report.nc - report.npk - report.ns;
  root.append(h('p', {className: 'explain-line', testid: 'rows-sizing-line',
    text: `${report.view ? 'The materialized view' : 'The table'} ${name}: ${plural(report.rows, 'row')} in ` +
      `${plural(report.partitions, 'partition')}. Nc = ${report.nc}, Npk = ${report.npk}, Ns = ${report.ns}: ` +
      `Nv = Nr × ${perRow}${report.ns ? ` + ${report.ns}` : ''}; St = the bytes of its values + Nv × ${report.t_avg}.`}));
  root.append(h('h3', {text: 'The largest partitions'}), h('div', {className: 'table-scroll'}, [largestTable(report)]));
  const measured = renderDataSizing(report.measured, {line: 'Per partition, as the rows are stored:'});
  root.append(h('h3', {text: 'Rows, values and bytes per partition'}), measured);
  root.append(h('h3', {text: 'Columns'}), h('div', {className: 'table-scroll'}, [columnsTable(report)]));
  if (report.notes.length) {
    root.append(h('ul', {className: 'hint sizing-notes', testid: 'rows-sizing-notes'},
      report.notes.map((n) => h('li', {text: n}))));
  }
  return root;
}

/**
 * Wires the table picker and its button (in the form) and the result section. `onRequest(request,
 * report)`: the engine's sizing request measured from the rows, for the schema form.
 */
export function wireRowsSizing(root, client, {el, onRequest}) {
  let seq = 0;
  let listSeq = 0;
  let runs = 0;
  const setState = (value) => { root.dataset.rowsState = value; };

  async function refresh() {
    const mine = ++listSeq;
    let listing = {tables: [], table: null};
    try {
      listing = await client.cqlTables();
    } catch {
      // The Cassandra engine is not there (or failed): nothing to offer.
    }
    if (mine !== listSeq) return;
    const previous = el.rowsTable.value;
    el.rowsTable.replaceChildren(...listing.tables.map((t) => {
      const o = h('option', {text: t});
      o.value = t;
      return o;
    }));
    const none = listing.tables.length === 0;
    if (none) {
      const o = h('option', {text: 'No table in the Cassandra mode yet'});
      o.value = '';
      el.rowsTable.append(o);
    } else {
      el.rowsTable.value = listing.tables.includes(previous) ? previous : listing.table ?? listing.tables[0];
    }
    el.rowsTable.disabled = none;
    el.rowsRun.disabled = none;
    if (none) el.rowsStatus.textContent = 'Create a table and insert or load rows in the Cassandra mode to size it from them.';
    else if (el.rowsStatus.dataset.kind !== 'result') el.rowsStatus.textContent = '';
  }

  async function run() {
    const table = el.rowsTable.value;
    if (!table) return;
    const mine = ++seq;
    setState('busy');
    el.rowsStatus.dataset.kind = '';
    el.rowsStatus.textContent = `Measuring the rows of ${table}…`;
    try {
      const report = await client.sizeCqlRows({table});
      if (mine !== seq) return;
      el.rowsResult.replaceChildren(renderRowsSizing(report));
      drawSizingCharts(el.rowsResult);
      root.dispatchEvent(new CustomEvent('sizing:rows-report', {detail: report, bubbles: true}));
      await onRequest(report.request, report);
      if (mine !== seq) return;
      el.rowsStatus.dataset.kind = 'result';
      el.rowsStatus.textContent = `Measured ${plural(report.rows, 'row')} in ${plural(report.partitions, 'partition')}: ` +
        'the form holds the table\'s schema and the measured figures; 6 shows the measurement.';
      setState('ready');
    } catch (e) {
      if (mine !== seq) return;
      el.rowsResult.replaceChildren(renderSizingError(e));
      el.rowsStatus.textContent = `Not measured: ${e.message}`;
      setState('error');
    } finally {
      if (mine === seq) {
        runs++;
        root.dataset.rowsRuns = String(runs);
      }
    }
  }

  el.rowsRun.addEventListener('click', run);
  setState('idle');
  return {refresh, run};
}
