// The element's sizing chart: the partition size St of a table term by term (docs/sizing.md),
// with the table of every term and the limits it is checked against.
import {formatInt} from '../common/format.js';
import {formatSizeBytes, renderTermsChart, sizingLimits, stTerms} from '../sizing/sizing-charts.js';
import {mountChartFigure} from './chart-figure.js';
import {h, table} from './element-dom.js';

/** St of report.average term by term; the table lists the terms, then the limits. */
export function mountSizing(root, report) {
  const c = report.average;
  const t = c.terms;
  const rows = [...stTerms(t), {symbol: 'St', meaning: 'partition size, one replica', bytes: t.st_bytes}]
    .map((term) => [{text: term.symbol, mono: true}, term.meaning, {text: formatInt(term.bytes), num: true}]);
  const tableNode = h('div', {}, [
    table('The terms of St (bytes), the average case', ['term', 'meaning', {text: 'bytes', num: true}], rows,
          {testid: 'sizing-chart-terms'}),
    table('The limits checked', ['limit', 'on', 'severity'],
          sizingLimits().map((l) => [l.label, l.measure === 'nv' ? 'values (Nv)' : l.measure === 'st_bytes' ? 'size (St)' : 'one row',
                                     l.severity]), {testid: 'sizing-chart-limits'}),
  ]);
  return mountChartFigure(root, {
    testid: 'sizing-chart', label: 'Partition size St, term by term',
    caption: `St = Σ pk + Σ s + Nr × (Σr + Σc) + Nv × t_avg = ${formatSizeBytes(t.st_bytes)} ` +
      `(Nv = ${formatInt(t.nv)} values)`,
    draw: (node) => renderTermsChart(node, c),
    tableNode,
  });
}
