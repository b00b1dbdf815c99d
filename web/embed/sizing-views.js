// The sizing parts the element (partition-playground.js) shows, built with its own small DOM
// helpers (element-dom.js): the summary figures, every term of Nv and St, the findings, the
// redesign options, and the chart of St term by term with the limits it is checked against. All
// of it reads the engine's table report (docs/sizing.md); the limits and verdicts are the report's
// own (report.checks, a case's checks), as in the page's Sizing view (sizing/sizing-view.js).
//
//   output.append(renderSizingSummary(report), renderSizingTerms(report));
//   const findings = renderSizingFindings(report.average);   // null when within every limit
//   mountSizing(chartRoot, report);                          // the chart figure
import {formatBytes, formatInt} from '../common/format.js';
import {formatSizeBytes, renderTermsChart, sizingLimits, stTerms} from '../sizing/sizing-charts.js';
import {mountChartFigure} from './chart-figure.js';
import {h, table} from './element-dom.js';

const measureText = (measure) => (measure === 'nv' ? 'values (Nv)' : measure === 'st_bytes' ? 'size (St)' : 'one row');

/** The table, its key and the average case's Nv, St and table total (data-value on each). */
export function renderSizingSummary(report) {
  const t = report.average.terms;
  return h('section', {testid: 'sizing-summary'}, [
    h('p', {className: 'muted', text: `Table ${report.keyspace ? `${report.keyspace}.` : ''}${report.table}: ` +
      `partition key (${report.partition_key.join(', ')}), clustering (${report.clustering.join(', ') || 'none'})`}),
    h('dl', {className: 'summary'}, [
      ['Nv (values per partition)', formatInt(t.nv), t.nv], ['St (partition size)', formatBytes(t.st_bytes), t.st_bytes],
      ['table (St × partitions × RF)', formatBytes(t.table_bytes), t.table_bytes],
    ].map(([name, text, value]) => h('div', {testid: `sizing-${name.split(' ')[0].toLowerCase()}`}, [
      h('dt', {text: name}), h('dd', {text, attrs: {'data-value': String(value)}})]))),
  ]);
}

/** Every term of Nv and St of the average case, then the case's arithmetic lines. */
export function renderSizingTerms(report) {
  const c = report.average;
  const t = c.terms;
  const termRows = [
    ['Nr', 'rows per partition', t.nr], ['Nc', 'columns', t.nc], ['Npk', 'primary key columns', t.npk],
    ['Ns', 'static columns', t.ns], ['Nv', 'Nr × (Nc − Npk − Ns) + Ns', t.nv],
    ['Σ pk', 'bytes of the partition key columns', t.sum_partition_key], ['Σ static', 'bytes of the static columns', t.sum_static],
    ['Σ regular', 'bytes of a row\'s regular columns', t.sum_regular], ['Σ clustering', 'bytes of a row\'s clustering columns', t.sum_clustering],
    ['rows term', 'Nr × (Σ regular + Σ clustering)', t.rows_term], ['metadata term', 'Nv × t_avg', t.metadata_term],
    ['St', 'Σ pk + Σ static + rows term + metadata term', t.st_bytes],
  ].map(([term, meaning, value]) => [{text: term, mono: true}, meaning, {text: formatInt(value), num: true}]);
  return h('section', {}, [
    table('Every term of Nv and St (bytes), the average case', ['term', 'meaning', {text: 'value', num: true}], termRows,
          {testid: 'sizing-terms'}),
    ...['nv', 'st', 'table'].filter((k) => c.arithmetic?.[k]).map((k) => h('pre', {className: 'statement', text: c.arithmetic[k]})),
  ]);
}

/** The findings of a case (the engine's messages), or null when it breaks no limit. */
export function renderSizingFindings(c) {
  if (!c?.findings?.length) return null;
  return h('section', {}, [h('h3', {text: 'Findings'}), h('ul', {}, c.findings.map((f) =>
    h('li', {className: f.severity === 'error' ? 'error' : '', text: f.message})))]);
}

/** The redesign options with their St and whether they clear the limits, or null without any. */
export function renderSizingOptions(report) {
  if (!report.options?.length) return null;
  return h('section', {}, [table('Redesign options', ['option', 'primary key', {text: 'St', num: true}, 'clears the limits'],
    report.options.map((o) => [o.title, {text: o.primary_key, mono: true},
                               {text: o.average ? formatBytes(o.average.terms.st_bytes) : '–', num: true},
                               o.clears_limits ? 'yes' : 'no']), {testid: 'sizing-options'})]);
}

/** St of report.average term by term; the table lists the terms, then the limits the case checks. */
export function mountSizing(root, report) {
  const c = report.average;
  const t = c.terms;
  const rows = [...stTerms(t), {symbol: 'St', meaning: 'partition size, one replica', bytes: t.st_bytes}]
    .map((term) => [{text: term.symbol, mono: true}, term.meaning, {text: formatInt(term.bytes), num: true}]);
  const verdicts = new Map(c.checks.map((x) => [x.code, x.pass]));
  const tableNode = h('div', {}, [
    table('The terms of St (bytes), the average case', ['term', 'meaning', {text: 'bytes', num: true}], rows,
          {testid: 'sizing-chart-terms'}),
    table('The limits checked', ['limit', 'on', 'severity', 'average case'],
          sizingLimits(c.checks).map((l) => [l.label, measureText(l.measure), l.severity,
                                             verdicts.get(l.code) ? 'within' : 'over']),
          {testid: 'sizing-chart-limits'}),
  ]);
  return mountChartFigure(root, {
    testid: 'sizing-chart', label: 'Partition size St, term by term',
    caption: `St = Σ pk + Σ s + Nr × (Σr + Σc) + Nv × t_avg = ${formatSizeBytes(t.st_bytes)} ` +
      `(Nv = ${formatInt(t.nv)} values)`,
    draw: (node) => renderTermsChart(node, c),
    tableNode,
  });
}
