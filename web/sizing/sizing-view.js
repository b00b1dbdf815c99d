// The sizing panel's rendering: pure functions from the engine's sizing reports (docs/sizing.md)
// to DOM nodes. No engine work, no state and no event listeners: sizing-panel.js asks the worker,
// keeps the form and puts these nodes on the page. Text from the user or the engine goes in as
// text only (dom.js).
//
//   root.replaceChildren(renderTableReport(report, {startDate}));
//   drawSizingCharts(root);                       // the D3 charts, once the nodes are attached
//   dataRoot.replaceChildren(renderDataSizing(dataReport));
import {fillTable, h, keyNode} from '../common/dom.js';
import {formatInt, plural} from '../common/format.js';
import {
  sizingLimits, dayToDate, extendBins, formatMeasure, formatSizeBytes, histogramThresholds, limitInfo,
  renderGrowthChart, renderSizeHistogram,
} from './sizing-charts.js';


/** Numbers that may be fractional (data Nv with a mean values-per-row): at most two decimals. */
const twoDecimals = new Intl.NumberFormat(undefined, {maximumFractionDigits: 2});
export const formatNumber = (n) => (n === null || n === undefined || Number.isNaN(n) ? '–' : twoDecimals.format(n));

/** Bytes as an exact count with its decimal size: "1,095,005 (1.1 MB)", or "729 bytes" under 1,000. */
export const formatBytesExact = (v) => (v >= 1000 ? `${formatNumber(v)} (${formatSizeBytes(v)})` : formatSizeBytes(v));

const SEVERITY = {
  error: {icon: '✖', label: 'Error'},
  warning: {icon: '⚠', label: 'Warning'},
  info: {icon: 'ℹ', label: 'Note'},
};

const CASE_TITLES = {average: 'Average', worst_case: 'Worst case', growth: 'After growth'};

const ROLE_LABELS = {
  partition_key: 'partition key',
  clustering: 'clustering',
  static: 'static',
  regular: 'regular',
};

// ---------------------------------------------------------------------------------------------
// Small pure helpers the panel uses too.

/** The variable-width columns of a report: those sized by an average (`estimated`). */
export function variableColumns(report) {
  return (report?.columns ?? []).filter((c) => c.estimated);
}

/** The clustering columns a time bucket can come from, as the engine marks them. */
export function timeColumns(report) {
  return (report?.columns ?? []).filter((c) => c.time_bucket);
}

/** "PRIMARY KEY ((hotel_id), date, room_number)" from a report's key columns. */
export function primaryKeyOf(report) {
  const pk = `(${(report?.partition_key ?? []).join(', ')})`;
  return `PRIMARY KEY (${[pk, ...(report?.clustering ?? [])].join(', ')})`;
}

/** One label + number input for each column's average size (the form's variable-width fields). */
export function avgSizeFields(columns, values = {}) {
  return columns.map((c) => {
    const input = h('input', {testid: `avg-size-${c.name}`});
    input.type = 'number';
    input.min = '0';
    input.step = 'any';  // a measured average may be fractional
    input.name = `avg-${c.name}`;
    input.dataset.column = c.name;
    input.placeholder = 'bytes';
    input.required = true;
    const v = values[c.name];
    if (v !== undefined && v !== null && v !== '') input.value = String(v);
    const about = [c.type, ROLE_LABELS[c.role] ?? c.role].filter(Boolean).join(', ');
    const label = h('label', {className: 'avg-field'}, [
      h('span', {}, [h('code', {text: c.name}), `${about ? ` ${about}` : ''} — average bytes`]),
      input,
    ]);
    return label;
  });
}

// ---------------------------------------------------------------------------------------------
// Findings.

function severityBadge(severity) {
  const s = SEVERITY[severity] ?? SEVERITY.info;
  return h('span', {className: `severity ${severity}`, text: `${s.icon} ${s.label}`});
}

/**
 * A list of findings ({code, severity, message, value, limit}) with their severity, or a "within"
 * line; `checks` (the case's or report's) name each finding's limit and its source.
 */
export function renderFindingList(findings, {checks = [], empty = 'Within every limit.'} = {}) {
  if (!findings?.length) return h('p', {className: 'sizing-ok', text: `✔ ${empty}`, testid: 'sizing-within'});
  const order = {error: 0, warning: 1, info: 2};
  const list = h('ul', {className: 'findings sizing-findings'});
  for (const f of [...findings].sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3))) {
    const li = h('li', {className: `finding ${f.severity}`, testid: 'sizing-finding'});
    li.dataset.code = f.code;
    li.dataset.severity = f.severity;
    const info = limitInfo(checks, f.code);
    li.append(
      h('div', {className: 'finding-head'}, [severityBadge(f.severity), h('code', {className: 'finding-code', text: f.code})]),
      h('p', {className: 'finding-message', text: f.message}),
    );
    if (info) li.append(h('p', {className: 'hint', text: `Limit: ${info.label}, ${info.source}.`}));
    list.append(li);
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// The formulas, one case.

/** The columns of one role as "hotel_id 5" parts joined with " + ", or "none". */
function columnSum(columns, role) {
  const cs = columns.filter((c) => c.role === role);
  if (cs.length === 0) return 'no column';
  return cs.map((c) => `${c.name} ${formatNumber(c.bytes)}${c.estimated ? ' (avg)' : ''}`).join(' + ');
}

function termRow(symbol, meaning, detail, value, term, {unit = ''} = {}) {
  const tr = h('tr', {}, [
    h('th', {className: 'term-symbol', text: symbol}),
    h('td', {className: 'term-meaning', text: meaning}),
    h('td', {className: 'term-detail', text: detail}),
    h('td', {className: 'num term-value', text: `${formatNumber(value)}${unit}`}),
  ]);
  tr.firstChild.scope = 'row';
  tr.dataset.term = term;
  tr.dataset.value = String(value);
  return tr;
}

/**
 * One case (average, worst case, after growth) of a table report: Nr with how it came about, the
 * formulas with the numbers in every term (the engine's `arithmetic` lines), a table of the terms
 * with the columns behind each sum, the table total and the findings.
 */
export function renderCase(c, columns, {title} = {}) {
  const t = c.terms;
  const card = h('section', {className: `sizing-case case-${c.name}`, testid: 'sizing-case'});
  card.dataset.case = c.name;
  card.dataset.nv = String(t.nv);
  card.dataset.st = String(t.st_bytes);
  // The engine's judgement of each check (docs/sizing.md: a case's checks).
  card.dataset.failedChecks = c.checks.filter((x) => !x.pass).map((x) => x.code).join(',');
  card.append(h('h4', {text: title ?? CASE_TITLES[c.name] ?? c.name}));
  const nr = h('p', {className: 'case-rows'}, [
    h('span', {className: 'case-label', text: 'Rows per partition Nr = '}),
    h('span', {className: 'mono', text: c.rows_expression && c.rows_expression !== formatInt(t.nr)
      ? `${c.rows_expression}${/=/.test(c.rows_expression) ? '' : ` = ${formatInt(t.nr)}`}` : formatInt(t.nr)}),
  ]);
  card.append(nr);

  const formulas = h('div', {className: 'formulas'});
  const line = (testid, symbolic, arithmetic, value) => {
    const node = h('div', {className: 'formula', testid}, [
      h('div', {className: 'formula-symbolic', text: symbolic}),
      h('div', {className: 'formula-arithmetic mono', text: arithmetic}),
    ]);
    node.dataset.value = String(value);
    return node;
  };
  formulas.append(
    line('case-nv', 'Nv = Nr × (Nc − Npk − Ns) + Ns', c.arithmetic.nv, t.nv),
    line('case-st', 'St = Σ partition key + Σ static + Nr × (Σ regular + Σ clustering) + Nv × t_avg', c.arithmetic.st, t.st_bytes),
    line('case-table', 'table = St × partitions × replication factor', c.arithmetic.table, t.table_bytes),
  );
  card.append(formulas);

  const terms = h('table', {className: 'terms-table'});
  terms.append(h('caption', {className: 'visually-hidden', text: `Every term of the ${c.name} case`}));
  const body = h('tbody');
  body.append(
    termRow('Nr', 'rows per partition', c.rows_expression || '', t.nr, 'nr'),
    termRow('Nc', 'columns', `${formatInt(t.npk)} key + ${formatInt(t.ns)} static + ${formatInt(t.nc - t.npk - t.ns)} regular`, t.nc, 'nc'),
    termRow('Npk', 'primary key columns (partition key and clustering)', '', t.npk, 'npk'),
    termRow('Ns', 'static columns', '', t.ns, 'ns'),
    termRow('Nv', 'values (cells) per partition', `${formatNumber(t.nr)} × (${t.nc} − ${t.npk} − ${t.ns}) + ${t.ns}`, t.nv, 'nv'),
    termRow('Σ pk', 'partition key column sizes', columnSum(columns, 'partition_key'), t.sum_partition_key, 'sum_partition_key', {unit: ' B'}),
    termRow('Σ s', 'static column sizes', columnSum(columns, 'static'), t.sum_static, 'sum_static', {unit: ' B'}),
    termRow('Σ r', 'regular column sizes', columnSum(columns, 'regular'), t.sum_regular, 'sum_regular', {unit: ' B'}),
    termRow('Σ c', 'clustering column sizes', columnSum(columns, 'clustering'), t.sum_clustering, 'sum_clustering', {unit: ' B'}),
    termRow('Nr × (Σr + Σc)', 'the rows', `${formatNumber(t.nr)} × (${formatNumber(t.sum_regular)} + ${formatNumber(t.sum_clustering)})`,
            t.rows_term, 'rows_term', {unit: ' B'}),
    termRow('Nv × t_avg', 'metadata per value (timestamps, TTLs)', `${formatNumber(t.nv)} × ${formatNumber(t.t_avg)}`,
            t.metadata_term, 'metadata_term', {unit: ' B'}),
    termRow('St', 'partition size, one replica', formatSizeBytes(t.st_bytes), t.st_bytes, 'st_bytes', {unit: ' B'}),
    termRow('row', 'one row, every column once (a Cosmos DB item)', formatSizeBytes(t.row_bytes), t.row_bytes, 'row_bytes', {unit: ' B'}),
    termRow('table', 'St × partitions × RF', `${formatNumber(t.st_bytes)} × ${formatNumber(t.partitions)} × ${formatNumber(t.replication_factor)}` +
            ` (${formatSizeBytes(t.table_bytes)})`, t.table_bytes, 'table_bytes', {unit: ' B'}),
  );
  terms.append(body);
  card.append(h('details', {className: 'terms'}, [h('summary', {text: 'Every term, with the columns behind each sum'}),
    h('div', {className: 'table-scroll'}, [terms])]));
  if (c.name !== 'average' && t.partitions > 0) {
    card.append(h('p', {className: 'hint', text: 'The table total assumes every partition is this large: an upper bound.'}));
  }
  card.append(renderFindingList(c.findings, {checks: c.checks}));
  return card;
}

/** The cases of a report side by side: average, worst case (when given), after growth (when given). */
export function renderCases(report, columns = report.columns) {
  const wrap = h('div', {className: 'sizing-cases', testid: 'sizing-cases'});
  for (const c of [report.average, report.worst_case, report.grown]) {
    if (c) wrap.append(renderCase(c, columns));
  }
  return wrap;
}

// ---------------------------------------------------------------------------------------------
// The whole schema report.

/** The columns with their roles and the sizes used (a fixed size, or the average given). */
export function renderColumns(report) {
  const table = h('table', {className: 'sizing-columns', testid: 'sizing-columns'});
  fillTable(table, [{label: 'column'}, {label: 'type'}, {label: 'role'}, {label: 'bytes', num: true}, {label: 'size from'}],
    report.columns.map((c) => [h('code', {text: c.name}), c.type, ROLE_LABELS[c.role] ?? c.role, formatNumber(c.bytes),
      c.estimated ? 'your average' : 'the type (fixed)']), {caption: 'Columns and the sizes used'});
  table.querySelectorAll('tbody tr').forEach((tr, i) => {
    tr.dataset.column = report.columns[i].name;
    tr.dataset.bytes = String(report.columns[i].bytes);
  });
  return table;
}

/** The headline: table, key, rows, partitions, RF and the verdict. */
function renderHeadline(report) {
  const a = report.average.terms;
  const fig = (label, value, testid, data, sub) => {
    const v = h('span', {className: 'figure-value', text: value, testid});
    v.dataset.value = String(data);
    return h('div', {className: 'figure'}, [h('span', {className: 'figure-label', text: label}), v,
      ...(sub ? [h('span', {className: 'figure-sub', text: sub})] : [])]);
  };
  const grid = h('div', {className: 'summary-grid sizing-figures'}, [
    fig('values per partition (Nv)', formatNumber(a.nv), 'sizing-nv', a.nv),
    fig('partition size (St)', formatSizeBytes(a.st_bytes), 'sizing-st', a.st_bytes, `${formatNumber(a.st_bytes)} bytes`),
    fig('table total', formatSizeBytes(a.table_bytes), 'sizing-total', a.table_bytes,
        `${formatInt(a.partitions)} partitions × RF ${formatNumber(a.replication_factor)}`),
  ]);
  if (report.worst_case) {
    const w = report.worst_case.terms;
    grid.append(fig('worst case St', formatSizeBytes(w.st_bytes), 'sizing-worst-st', w.st_bytes, `Nv ${formatNumber(w.nv)}`));
  }
  if (report.grown) {
    const g = report.grown.terms;
    grid.append(fig('after growth St', formatSizeBytes(g.st_bytes), 'sizing-grown-st', g.st_bytes, `Nv ${formatNumber(g.nv)}`));
  }
  // Each figure takes the level of the engine's failed checks on what it shows: warning or error.
  const level = (c, measure) => {
    const failed = (c?.checks ?? []).filter((x) => !x.pass && (!measure || x.measure === measure));
    return failed.some((x) => x.severity === 'error') ? 'bad' : failed.length ? 'warn' : '';
  };
  const levels = {'sizing-nv': level(report.average, 'nv'), 'sizing-st': level(report.average, 'st_bytes'),
                  'sizing-worst-st': level(report.worst_case), 'sizing-grown-st': level(report.grown)};
  for (const [testid, l] of Object.entries(levels)) {
    const figure = grid.querySelector(`[data-testid="${testid}"]`)?.closest('.figure');
    if (figure && l) figure.classList.add(l);
  }
  return grid;
}

/**
 * The report of a table (docs/sizing.md "Report (JSON) — from a schema"): the table and its
 * columns, each case with its formulas, the redesign verdict, the growth and the options.
 * `startDate` (yyyy-mm-dd) turns the growth's crossing days into dates.
 */
export function renderTableReport(report, {startDate = ''} = {}) {
  const root = h('div', {className: 'sizing-report', testid: 'sizing-report'});
  root.dataset.table = `${report.keyspace ? `${report.keyspace}.` : ''}${report.table}`;
  root.dataset.needsRedesign = String(report.needs_redesign);
  root.append(
    h('p', {className: 'sizing-table-line'}, [
      'Table ', h('code', {text: root.dataset.table}), ' ', h('code', {text: primaryKeyOf(report)}),
      ` · ${plural(report.partitions, 'partition')} · replication factor ${formatNumber(report.replication_factor)} ` +
      `(${report.replication_source}) · t_avg ${formatNumber(report.t_avg)} bytes`,
    ]),
    renderHeadline(report),
    h('details', {className: 'sizing-columns-view'}, [h('summary', {text: 'Columns and the sizes used'}),
      h('div', {className: 'table-scroll'}, [renderColumns(report)])]),
    h('h3', {text: 'The formulas with your numbers'}),
    renderCases(report),
  );
  if (report.needs_redesign) {
    root.append(h('div', {className: 'callout bad', testid: 'sizing-redesign'}, [
      h('strong', {text: 'Redesign needed: '}),
      h('ul', {className: 'reasons'}, report.redesign_reasons.map((r) => h('li', {text: r}))),
    ]));
  } else {
    root.append(h('p', {className: 'callout', testid: 'sizing-redesign', text: 'No case breaks a limit: the design holds as it is. ' +
      'The options below show what a split would cost anyway.'}));
  }
  if (report.notes?.length) {
    root.append(h('ul', {className: 'sizing-notes', testid: 'sizing-notes'}, report.notes.map((n) => h('li', {className: 'hint', text: n}))));
  }
  return root;
}

// ---------------------------------------------------------------------------------------------
// The redesign advisor: before and after, side by side.

function compareRow(label, before, after, {testid, value, better} = {}) {
  const cell = (v) => (v instanceof Node ? h('td', {}, [v]) : h('td', {className: 'num', text: v ?? '–'}));
  const th = h('th', {text: label});
  th.scope = 'row';
  const tr = h('tr', {}, [th, cell(before), cell(after)]);
  if (testid) tr.dataset.testid = testid;
  if (value !== undefined) tr.dataset.value = String(value);
  if (better !== undefined) tr.classList.add(better ? 'better' : 'worse');
  return tr;
}

function verdictBadge(clears) {
  return h('span', {className: `badge ${clears ? 'ok' : 'bad'}`, testid: 'option-verdict',
                    text: clears ? '✔ clears every limit' : '✖ still breaks a limit'});
}

/** One redesign option next to the table as it is. */
export function renderOption(report, option) {
  const card = h('article', {className: 'sizing-option', testid: 'sizing-option'});
  card.dataset.kind = option.split.kind;
  if (option.split.unit) card.dataset.unit = option.split.unit;
  if (option.split.column) card.dataset.column = option.split.column;
  if (option.split.buckets) card.dataset.buckets = String(option.split.buckets);
  card.dataset.suggested = String(option.suggested);
  card.dataset.st = String(option.average.terms.st_bytes);
  card.dataset.clears = String(option.clears_limits);
  const head = h('div', {className: 'option-head'}, [
    h('h3', {text: option.title}),
    ...(option.suggested ? [h('span', {className: 'badge info', text: 'suggested'})] : []),
    verdictBadge(option.clears_limits),
  ]);
  card.append(head);
  const a = report.average.terms;
  const b = option.average.terms;
  const st = (c) => (c ? formatSizeBytes(c.terms.st_bytes) : '–');
  const table = h('table', {className: 'compare-table option-compare'});
  table.append(h('caption', {className: 'visually-hidden', text: `${option.title}: before and after`}),
    h('thead', {}, [h('tr', {}, ['', 'now', 'with this split'].map((t) => {
      const th = t ? h('th', {text: t}) : h('th', {}, [h('span', {className: 'visually-hidden', text: 'figure'})]);
      th.scope = 'col';
      return th;
    }))]));
  const pk = (text) => h('code', {className: 'pk', text});
  const body = h('tbody', {}, [
    compareRow('primary key', pk(primaryKeyOf(report)), pk(option.primary_key), {testid: 'option-pk'}),
    compareRow('rows per partition (Nr)', formatNumber(a.nr), `${formatNumber(b.nr)}${option.average.rows_expression ? ` (${option.average.rows_expression})` : ''}`,
               {testid: 'option-nr', value: b.nr}),
    compareRow('values (Nv)', formatNumber(a.nv), formatNumber(b.nv), {testid: 'option-nv', value: b.nv, better: b.nv <= a.nv}),
    compareRow('partition size (St)', `${formatNumber(a.st_bytes)} B (${formatSizeBytes(a.st_bytes)})`,
               `${formatNumber(b.st_bytes)} B (${formatSizeBytes(b.st_bytes)})`, {testid: 'option-st', value: b.st_bytes,
                                                                                   better: b.st_bytes <= a.st_bytes}),
    compareRow('worst case St', st(report.worst_case), st(option.worst_case), {testid: 'option-worst-st',
                                                                               value: option.worst_case?.terms.st_bytes ?? ''}),
    compareRow('St after growth', st(report.grown), st(option.growth), {testid: 'option-grown-st',
                                                                        value: option.growth?.terms.st_bytes ?? ''}),
    compareRow('partitions', formatNumber(a.partitions), formatNumber(b.partitions), {testid: 'option-partitions', value: b.partitions}),
    compareRow('partitions a whole-partition query touches', formatNumber(report.average.partitions_per_query),
               formatNumber(option.average.partitions_per_query), {testid: 'option-ppq', value: option.average.partitions_per_query,
                                                                   better: option.average.partitions_per_query <= 1}),
    compareRow('table total', formatSizeBytes(a.table_bytes), formatSizeBytes(b.table_bytes), {testid: 'option-table', value: b.table_bytes}),
    compareRow('limits broken', String([report.average, report.worst_case, report.grown].filter(Boolean)
      .reduce((n, c) => n + c.findings.length, 0)),
               String([option.average, option.worst_case, option.growth].filter(Boolean).reduce((n, c) => n + c.findings.length, 0)),
               {testid: 'option-findings'}),
  ]);
  table.append(body);
  card.append(h('div', {className: 'table-scroll'}, [table]));
  card.append(
    h('div', {className: 'formulas option-formulas'}, [
      h('div', {className: 'formula-arithmetic mono', text: option.average.arithmetic.nv, testid: 'option-nv-arithmetic'}),
      h('div', {className: 'formula-arithmetic mono', text: option.average.arithmetic.st, testid: 'option-st-arithmetic'}),
    ]),
    h('p', {className: 'option-cost', testid: 'option-cost'}, [h('strong', {text: 'Query cost: '}), option.query_cost]),
    h('p', {className: 'option-tradeoff', testid: 'option-tradeoff'}, [h('strong', {text: 'Trade-off: '}), option.trade_off]),
    h('p', {className: 'option-cosmos hint', testid: 'option-cosmos', text: option.cosmos}),
  );
  const cases = h('div', {className: 'sizing-cases'});
  for (const c of [option.average, option.worst_case, option.growth]) {
    if (c) cases.append(renderCase(c, option.columns));
  }
  card.append(h('details', {className: 'option-details'}, [
    h('summary', {text: 'CREATE TABLE before and after, and every case of the new table'}),
    h('div', {className: 'create-compare'}, [
      h('figure', {}, [h('figcaption', {text: 'now'}), h('pre', {className: 'cql-block', text: report.create_table})]),
      h('figure', {}, [h('figcaption', {text: 'with this split'}), h('pre', {className: 'cql-block', text: option.create_table,
                                                                           testid: 'option-create-table'})]),
    ]),
    cases,
  ]));
  return card;
}

/** Every option of a report (asked for first, then the suggestion), or a line saying there is none. */
export function renderOptions(report) {
  const wrap = h('div', {className: 'sizing-options', testid: 'sizing-options'});
  if (!report.options?.length) {
    wrap.append(h('p', {className: 'hint', text: report.needs_redesign
      ? 'No split asked for, and no hash bucket count clears every limit (a single row is already too big).'
      : 'No split asked for. Add one below to see what it would change.'}));
    return wrap;
  }
  for (const option of report.options) wrap.append(renderOption(report, option));
  return wrap;
}

// ---------------------------------------------------------------------------------------------
// Growth.

/** The growth series as a table (the growth chart's table view), crossings first. */
export function fillGrowthTables(crossingsTable, pointsTable, growth, {startDate = '', checks = []} = {}) {
  fillTable(crossingsTable, [{label: 'limit'}, {label: 'on'}, {label: 'first day over', num: true}, {label: 'date'},
                             {label: 'within the horizon'}],
    growth.crossings.map((c) => {
      const l = limitInfo(checks, c.code);
      return [l ? `${l.label} (${l.source})` : c.code, c.measure === 'nv' ? 'values (Nv)' : 'size (St)',
              c.day === null ? 'never' : formatInt(c.day), c.day === null ? '' : dayToDate(startDate, c.day),
              c.day === null ? 'the retention keeps it below' : c.within_horizon ? 'yes' : 'no, later'];
    }), {caption: 'The day the largest partition crosses each limit'});
  crossingsTable.querySelectorAll('tbody tr').forEach((tr, i) => {
    const c = growth.crossings[i];
    tr.dataset.code = c.code;
    tr.dataset.day = c.day === null ? 'never' : String(c.day);
    tr.dataset.testid = 'crossing-row';
  });
  fillTable(pointsTable, [{label: 'day', num: true}, {label: 'date'}, {label: 'rows', num: true}, {label: 'values (Nv)', num: true},
                          {label: 'bytes (St)', num: true}],
    growth.points.map((p) => [formatInt(p.day), dayToDate(startDate, p.day), formatNumber(p.rows), formatNumber(p.nv),
                              formatBytesExact(p.st_bytes)]),
    {caption: 'The largest partition, day by day'});
}

/**
 * The growth section: a line with the ingest rate and retention, the crossings, two charts
 * (values and bytes; drawn by drawSizingCharts once attached) with their table view.
 */
export function renderGrowth(report, {startDate = ''} = {}) {
  const growth = report.growth;
  const wrap = h('div', {className: 'sizing-growth', testid: 'sizing-growth'});
  if (!growth) {
    wrap.append(h('p', {className: 'hint', text: 'Give rows per day (and a retention) to see how the largest partition grows.'}));
    return wrap;
  }
  const kept = growth.retention_days > 0 ? `kept ${plural(growth.retention_days, 'day')} (TTL)` : 'kept forever';
  wrap.append(h('p', {className: 'explain-line', testid: 'growth-line-text',
    text: `${formatNumber(growth.rows_per_day)} rows a day per partition, ${kept}; after ${plural(growth.horizon_days, 'day')} ` +
      `the largest partition holds ${formatNumber(growth.largest.rows)} rows: ${formatMeasure('nv', growth.largest.nv)}, ` +
      `${formatSizeBytes(growth.largest.st_bytes)}.`}));
  const list = h('ul', {className: 'crossings', testid: 'growth-crossings'});
  for (const c of growth.crossings) {
    const l = limitInfo(report.checks, c.code);
    const date = c.day === null ? '' : dayToDate(startDate, c.day);
    const li = h('li', {className: `crossing-item ${c.within_horizon ? l?.severity ?? '' : 'later'}`});
    li.dataset.code = c.code;
    li.dataset.day = c.day === null ? 'never' : String(c.day);
    li.append(h('strong', {text: `${l?.label ?? c.code}: `}), c.day === null
      ? 'never — the retention caps the partition below it'
      : `day ${formatInt(c.day)}${date ? ` (${date})` : ''}${c.within_horizon ? '' : ', beyond the horizon'}`);
    list.append(li);
  }
  wrap.append(list);
  const charts = h('div', {className: 'charts'});
  for (const [measure, caption] of [['nv', 'Values (Nv) in the largest partition, day by day, against the value limits.'],
                                    ['st_bytes', 'Its size (St) against the size limits.']]) {
    const chart = h('div', {className: 'chart', testid: `growth-chart-${measure}`});
    chart.dataset.chart = 'growth';
    chart.dataset.measure = measure;
    chart.dataset.startDate = startDate;
    charts.append(h('figure', {}, [chart, h('figcaption', {text: caption})]));
  }
  wrap.append(charts);
  const crossings = h('table', {testid: 'growth-crossings-table'});
  const points = h('table', {testid: 'growth-table'});
  fillGrowthTables(crossings, points, growth, {startDate, checks: report.checks});
  wrap.append(h('details', {className: 'table-view', testid: 'growth-table-view'}, [
    h('summary', {text: 'Table view of the growth'}),
    h('div', {className: 'table-scroll'}, [crossings]),
    h('div', {className: 'table-scroll'}, [points]),
  ]));
  // The chart reads the series from the node it is drawn into (see drawSizingCharts).
  charts.querySelectorAll('[data-chart="growth"]').forEach((node) => {
    node.sizingGrowth = growth;
    node.sizingChecks = report.checks;
  });
  return wrap;
}

// ---------------------------------------------------------------------------------------------
// From data.

function distributionRow(label, d, measure, testid) {
  // Bytes: exact for the partitions picked out, the decimal size alone for the mean and the total.
  const fmt = (k, v) => (measure !== 'st_bytes' ? formatNumber(v) : k === 'mean' || k === 'total' ? formatSizeBytes(v)
    : formatBytesExact(v));
  const th = h('th', {text: label});
  th.scope = 'row';
  const tr = h('tr', {}, [th, ...['min', 'p50', 'p99', 'max', 'mean', 'total'].map((k) => {
    const td = h('td', {className: 'num', text: fmt(k, d[k])});
    td.dataset.stat = k;
    td.dataset.value = String(d[k]);
    return td;
  })]);
  tr.dataset.testid = testid;
  tr.dataset.measure = measure;
  return tr;
}

/** A histogram's bins (extended to the thresholds drawn) as a table: the chart's table view. */
export function fillHistogramTable(table, report, measure) {
  const source = measure === 'nv' ? report.nv_histogram : report.st_histogram;
  const {shown} = histogramThresholds(report, measure);
  const bins = extendBins(source, Math.max(0, ...shown.map((l) => l.limit)));
  const limitsIn = (b) => shown.filter((l) => l.limit >= b.lower && l.limit < b.upper).map((l) => l.label).join(', ');
  fillTable(table, [{label: measure === 'nv' ? 'values from' : 'bytes from', num: true}, {label: 'to (exclusive)', num: true},
                    {label: 'partitions', num: true}, {label: 'limit in this bin'}],
    bins.map((b) => [formatNumber(b.lower), formatNumber(b.upper), formatInt(b.partitions), limitsIn(b)]),
    {caption: `Partitions per bin of ${measure === 'nv' ? 'values' : 'bytes'}`});
}

/**
 * The data-driven sizing (docs/sizing.md "From data"): Nr, Nv, St distributions, two histograms
 * against the thresholds (drawn by drawSizingCharts), and every threshold with the partitions
 * that break it. `meta`: {source, key_paths} the worker adds (what was measured), or `line`, the
 * sentence saying what was measured (a CQL table's rows: sizing-rows.js).
 */
export function renderDataSizing(report, meta = {}) {
  const root = h('div', {className: 'sizing-data-report', testid: 'data-sizing-report'});
  root.dataset.partitions = String(report.partitions);
  const source = meta.source?.name ? `${meta.source.name}, ` : '';
  const keys = (meta.key_paths ?? []).join(', ');
  root.append(h('p', {className: 'explain-line', testid: 'data-sizing-line',
    text: meta.line ?? `${source}${plural(report.partitions, 'logical partition')}${keys ? ` by ${keys}` : ''}: each item is a row (Nr = its items), ` +
      `Nv = Nr × ${formatNumber(report.values_per_row)} values per row, St = the JSON text bytes of its items.`}));
  const table = h('table', {className: 'compare-table distribution-table', testid: 'data-distribution'});
  table.append(h('caption', {className: 'visually-hidden', text: 'Distribution of rows, values and bytes per partition'}),
    h('thead', {}, [h('tr', {}, ['', 'min', 'p50', 'p99', 'max', 'mean', 'total'].map((t) => {
      const th = t ? h('th', {text: t, className: 'num'}) : h('th', {}, [h('span', {className: 'visually-hidden', text: 'per partition'})]);
      th.scope = 'col';
      return th;
    }))]),
    h('tbody', {}, [
      distributionRow('rows (Nr)', report.nr, 'nr', 'data-nr'),
      distributionRow('values (Nv)', report.nv, 'nv', 'data-nv'),
      distributionRow('bytes (St)', report.st_bytes, 'st_bytes', 'data-st'),
    ]));
  root.append(h('div', {className: 'table-scroll'}, [table]),
    h('p', {className: 'hint', text: 'Percentiles by nearest rank: the p-th of n sorted values is the one of rank ⌈p/100 × n⌉, ' +
      'always a value that occurs.'}));

  const charts = h('div', {className: 'charts'});
  for (const [measure, caption] of [['nv', 'Partitions by number of values (Nv), against the value limits.'],
                                    ['st_bytes', 'Partitions by size (St), against the size limits.']]) {
    const chart = h('div', {className: 'chart', testid: `data-histogram-${measure}`});
    chart.dataset.chart = 'histogram';
    chart.dataset.measure = measure;
    chart.sizingData = report;
    const tv = h('table', {testid: `data-histogram-table-${measure}`});
    fillHistogramTable(tv, report, measure);
    const {offChart} = histogramThresholds(report, measure);
    const beyond = offChart.length ? ` Far beyond the axis: ${offChart.map((l) =>
      `${l.label} (${formatInt(l.threshold?.partitions ?? 0)} over)`).join(', ')}.` : '';
    charts.append(h('figure', {}, [chart, h('figcaption', {text: caption + beyond}),
      h('details', {className: 'table-view'}, [h('summary', {text: 'Table view of the histogram'}),
        h('div', {className: 'table-scroll'}, [tv])])]));
  }
  root.append(charts);

  root.append(h('h3', {text: 'Thresholds and the partitions breaking them'}));
  const list = h('ul', {className: 'findings sizing-thresholds', testid: 'data-thresholds'});
  for (const t of report.thresholds) {
    const info = limitInfo(report.checks, t.code) ?? {label: t.code, source: ''};
    const broken = t.partitions > 0;
    const li = h('li', {className: `finding ${broken ? t.severity : 'ok'}`, testid: 'data-threshold'});
    li.dataset.code = t.code;
    li.dataset.partitions = String(t.partitions);
    const measure = t.measure === 'nv' ? 'values per partition' : t.measure === 'st_bytes' ? 'bytes per partition' : 'the largest item';
    li.append(h('div', {className: 'finding-head'}, [
      broken ? severityBadge(t.severity) : h('span', {className: 'severity ok', text: '✔ Within'}),
      h('strong', {text: `${info.label}`}),
      h('span', {className: 'hint', text: `${info.source}; on ${measure}`}),
      h('span', {className: 'finding-count', text: `${formatInt(t.partitions)} over`}),
    ]));
    if (broken) {
      li.append(h('p', {className: 'finding-message', text: t.message}));
      if (t.examples?.length) {
        const ex = h('table', {className: 'finding-items'});
        fillTable(ex, [{label: 'partition key'}, {label: t.measure === 'nv' ? 'values' : 'bytes', num: true}],
          t.examples.map((e) => [keyNode(parseKey(e.key), {max: 60}), t.measure === 'nv' ? formatNumber(e.value)
            : formatBytesExact(e.value)]));
        li.append(ex);
      }
      if (t.buckets_needed > 0) {
        li.append(h('p', {className: 'hint', text: `${plural(t.buckets_needed, 'hash bucket')} (a synthetic key's suffix, or a ` +
          'bucket column) would bring the largest within it, if its rows spread evenly.'}));
      }
    }
    list.append(li);
  }
  root.append(list);
  return root;
}

function parseKey(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------------------------------------
// Errors.

/**
 * An engine error (PlaygroundError: message, codeName, location) as a panel: the message, the
 * code, line and column, and the offending line of `text` (the CQL script, or the rows formula the
 * location points into, named by `label`) with a caret under the column.
 */
export function renderSizingError(error, {text: cql = '', label = ''} = {}) {
  const box = h('div', {className: 'sizing-error', testid: 'sizing-error'});
  box.setAttribute('role', 'alert');
  box.dataset.code = error.codeName ?? '';
  box.append(h('p', {className: 'error-message', testid: 'sizing-error-message', text: error.message}));
  const loc = error.location;
  const dl = h('dl', {className: 'error-location', testid: 'sizing-error-location'});
  const add = (label, value) => dl.append(h('div', {}, [h('dt', {text: label}), h('dd', {text: value})]));
  if (error.codeName) add('error', error.codeName);
  if (loc && loc.line > 0) {
    if (label) add('in', label);
    add('line', formatInt(loc.line));
    add('column', formatInt(loc.column));
    box.dataset.line = String(loc.line);
    box.dataset.column = String(loc.column);
  }
  box.append(dl);
  if (loc && loc.line > 0 && cql) {
    const line = cql.split('\n')[loc.line - 1];
    if (line !== undefined) {
      // The column counts bytes; for the caret, count the characters of the line's UTF-8 prefix.
      const bytes = new TextEncoder().encode(line).slice(0, Math.max(0, loc.column - 1));
      const chars = new TextDecoder().decode(bytes).length;
      box.append(h('pre', {className: 'error-excerpt', testid: 'sizing-error-excerpt',
                           text: `${String(loc.line).padStart(4)} | ${line}\n${' '.repeat(7 + chars)}^`}));
    }
  }
  return box;
}

// ---------------------------------------------------------------------------------------------
// Charts.

/** Draws (or redraws) every sizing chart under `root`; call once the nodes are attached and shown. */
export function drawSizingCharts(root) {
  for (const node of root.querySelectorAll('[data-chart="growth"]')) {
    if (node.sizingGrowth) {
      renderGrowthChart(node, node.sizingGrowth, {measure: node.dataset.measure, startDate: node.dataset.startDate ?? '',
                                                  checks: node.sizingChecks});
    }
  }
  for (const node of root.querySelectorAll('[data-chart="histogram"]')) {
    if (node.sizingData) renderSizeHistogram(node, node.sizingData, {measure: node.dataset.measure});
  }
}

/** The limits a report checks (report.checks) as a small legend table (docs/sizing.md "The limits"). */
export function renderLimitsTable(checks) {
  const table = h('table', {className: 'limits-table', testid: 'sizing-limits'});
  fillTable(table, [{label: 'limit'}, {label: 'severity'}, {label: 'on'}, {label: 'what'}],
    sizingLimits(checks).map((l) => [l.label, l.severity, l.measure === 'nv' ? 'values (Nv)' : l.measure === 'st_bytes' ? 'size (St)'
      : 'one row', l.source]), {caption: 'The limits checked'});
  return table;
}

