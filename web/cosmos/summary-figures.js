// The Cosmos DB summary as figures: one list, from the engine's report (its counts, sizes, the
// spread verdict and the levels it judged; docs/report.md), that the page's summary card
// (cosmos-results.js) and the embeddable element's summary (partition-playground.js) both show.
// Each figure: {id, label, text, value, level ('' | 'warn' | 'bad' | 'good'), title?, verdict?}.
//
//   summaryFigures(report).find((f) => f.id === 'gini')   // {text: '0.37', verdict: 'fairly even', ...}
import {formatBytes, formatDecimal, formatInt, formatPercent} from '../common/format.js';
import {limitText, limitValue} from '../common/limits.js';

const LOGICAL = 'cosmos_logical_partition_bytes';

export function summaryFigures(report) {
  const levels = report.levels;
  const largest = report.largest_partition;
  const top = report.top1_percent ?? {partitions: 0, bytes: 0, share: 0};
  const invalid = report.invalid_key?.items ?? 0;
  const oversized = report.oversized_items?.count ?? 0;
  return [
    {id: 'items', label: 'items', text: formatInt(report.items), value: report.items, level: ''},
    {id: 'partitions', label: 'logical partitions', text: formatInt(report.partition_count), value: report.partition_count,
     level: levels.partition_count},
    {id: 'bytes', label: 'total size of items', text: formatBytes(report.bytes), value: report.bytes, level: '',
     title: `${formatInt(report.bytes)} bytes`},
    {id: 'largest', label: 'largest partition', text: largest ? formatBytes(largest.bytes) : '–', value: largest?.bytes ?? 0,
     level: largest ? levels.largest_partition : '',
     title: largest ? `${formatInt(largest.bytes)} bytes, ${formatPercent(largest.bytes / limitValue(LOGICAL))} of the ` +
       `${limitText(LOGICAL)} limit` : undefined},
    {id: 'mean', label: 'mean partition', text: formatBytes(report.mean_partition_bytes), value: report.mean_partition_bytes,
     level: '', title: `${formatDecimal(report.mean_partition_bytes)} bytes`},
    {id: 'top1', label: 'top 1% of partitions hold', text: formatPercent(top.share), value: top.share, level: levels.top1_percent,
     sub: `${formatInt(top.partitions)} partition${top.partitions === 1 ? '' : 's'}, ${formatBytes(top.bytes)}`},
    {id: 'gini', label: 'Gini skew', text: formatDecimal(report.spread.gini), value: report.spread.gini,
     level: report.spread.level, verdict: report.spread.verdict},
    {id: 'undefined', label: 'items without the key', text: formatInt(report.undefined_key_items),
     value: report.undefined_key_items, level: levels.undefined_key},
    {id: 'invalid', label: 'items with an invalid key', text: formatInt(invalid), value: invalid, level: levels.invalid_key},
    {id: 'oversized', label: 'oversized items', text: formatInt(oversized), value: oversized, level: levels.oversized_items},
  ];
}
