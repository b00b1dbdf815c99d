// The element's Cosmos DB charts: the logical → physical map of the container and the histogram
// of partition sizes, functions of the analysis report (docs/report.md), each with its table.
import {logBins, renderHistogram} from '../common/charts.js';
import {formatBytes, formatInt, formatKey, formatPercent} from '../common/format.js';
import {renderPartitionMap} from '../cosmos/container-charts.js';
import {mountChartFigure} from './chart-figure.js';
import {table} from './element-dom.js';

/** The logical → physical map of report.container.before, with the table of its ranges. */
export function mountMap(root, report, {keyLabel}) {
  const layout = report.container?.before;
  if (!layout) return null;
  const rows = layout.ranges.map((r) => [
    {text: r.id, num: true}, {text: formatInt(r.logical_partitions), num: true}, {text: formatBytes(r.bytes), num: true},
    {text: r.top?.[0] ? formatKey(r.top[0].key) : '–', mono: true},
    {text: r.top?.[0] ? formatBytes(r.top[0].bytes) : '–', num: true},
    {text: formatInt(Math.round(r.demand_ru)), num: true}, {text: formatInt(r.ru_share), num: true},
    {text: formatPercent(r.throttled_fraction ?? 0), num: true}]);
  const tableNode = table(`Physical partitions at ${formatInt(layout.ru_per_second)} RU/s`,
    [{text: 'partition', num: true}, {text: 'logical partitions', num: true}, {text: 'bytes', num: true},
     'largest logical partition', {text: 'its bytes', num: true}, {text: 'RU/s demand', num: true},
     {text: 'RU/s share', num: true}, {text: 'throttled', num: true}], rows, {testid: 'map-table'});
  const label = `Logical to physical partition map, key ${keyLabel}`;
  return mountChartFigure(root, {
    testid: 'map', label,
    caption: `Where the logical partitions of ${keyLabel} land: ${formatInt(layout.ranges.length)} physical ` +
      `partition${layout.ranges.length === 1 ? '' : 's'} at ${formatInt(layout.ru_per_second)} RU/s`,
    // fit: the map takes the element's width however many partitions it has, so its labels keep
    // their size on a phone rather than a wider picture being scaled down to fit.
    draw: (node) => renderPartitionMap(node, layout, {route: report.container.route ?? null, label, height: 300, fit: true}),
    tableNode,
  });
}

/** The histogram of every partition's size (report.partition_bytes), with the table of its bins. */
export function mountHistogram(root, report, {keyLabel}) {
  const sizes = report.partition_bytes ?? Float64Array.from(report.partitions ?? [], (p) => p.bytes);
  const bins = logBins(sizes).filter((b) => b.count > 0);
  const tableNode = table(`Logical partitions by size (${formatInt(sizes.length)} partitions)`,
    [{text: 'from', num: true}, {text: 'to', num: true}, {text: 'partitions', num: true}, {text: 'bytes', num: true}],
    bins.map((b) => [{text: formatBytes(b.x0), num: true}, {text: formatBytes(b.x1), num: true},
                     {text: formatInt(b.count), num: true}, {text: formatBytes(b.bytes), num: true}]),
    {testid: 'histogram-table'});
  return mountChartFigure(root, {
    testid: 'histogram', label: `Histogram of the sizes of ${formatInt(sizes.length)} logical partitions`,
    caption: `Logical partition sizes, key ${keyLabel}`,
    draw: (node) => renderHistogram(node, report, {height: 240}),
    tableNode,
  });
}
