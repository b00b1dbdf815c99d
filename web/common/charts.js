// D3 charts, functions of a report (docs/report.md) and a container element. D3 comes from the
// classic script vendor/d3.min.js (window.d3). Colours come from CSS classes (charts.css), so the
// charts follow the light/dark theme. All text goes in with .text().
import {formatBytes, formatBytesShort, formatInt, formatPercent} from './format.js';

const d3 = () => {
  if (!globalThis.d3) throw new Error('D3 did not load (vendor/d3.min.js).');
  return globalThis.d3;
};

/** Bins per doubling of size: sqrt(2)-wide bins. */
const BINS_PER_OCTAVE = 2;

/**
 * Log-spaced bins of partition sizes: [{x0, x1, count, bytes}], covering [min, max] of `sizes`
 * (a Float64Array or array of byte counts, all >= 1). Bin edges are powers of 2^(1/BINS_PER_OCTAVE).
 */
export function logBins(sizes, perOctave = BINS_PER_OCTAVE) {
  if (!sizes || sizes.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < sizes.length; i++) {
    const v = Math.max(1, sizes[i]);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  let lo = Math.floor(Math.log2(min) * perOctave);
  let hi = Math.floor(Math.log2(max) * perOctave) + 1;
  // At least a few bins, so a single size still draws as a bar among empty neighbours.
  while (hi - lo < 4) {
    if (lo > 0) lo--;
    hi++;
  }
  const bins = [];
  for (let e = lo; e < hi; e++) {
    bins.push({x0: 2 ** (e / perOctave), x1: 2 ** ((e + 1) / perOctave), count: 0, bytes: 0});
  }
  for (let i = 0; i < sizes.length; i++) {
    const v = Math.max(1, sizes[i]);
    const at = Math.min(bins.length - 1, Math.max(0, Math.floor(Math.log2(v) * perOctave) - lo));
    bins[at].count++;
    bins[at].bytes += sizes[i];
  }
  return bins;
}

/** Tick values at powers of two, thinned so at most `maxTicks` fit. */
function binaryTicks(lo, hi, maxTicks) {
  const e0 = Math.ceil(Math.log2(lo));
  const e1 = Math.floor(Math.log2(hi));
  // Steps dividing 10, so thinned ticks still land on whole KB / MB / GB (2^10, 2^20, 2^30).
  const step = [1, 2, 5, 10, 20].find((s) => (e1 - e0) / s + 1 <= maxTicks) ?? 20;
  const ticks = [];
  for (let e = e0; e <= e1; e++) if (e % step === 0) ticks.push(2 ** e);
  return ticks;
}

/** Clears `container` and appends an SVG of the container's width (at least `minWidth`). */
export function frame(container, height, minWidth = 280) {
  const width = Math.max(minWidth, Math.floor(container.clientWidth || 600));
  d3().select(container).selectAll('*').remove();
  const svg = d3().select(container).append('svg')
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height)
    .attr('role', 'img');
  return {svg, width, height};
}

/**
 * Histogram of partition sizes: log2-spaced byte bins on x, partition counts on y.
 * Drawn from report.partition_bytes, so it covers every partition.
 */
export function renderHistogram(container, report, {height = 260} = {}) {
  const sizes = report.partition_bytes ?? Float64Array.from(report.partitions ?? [], (p) => p.bytes);
  const {svg, width} = frame(container, height);
  const margin = {top: 22, right: 18, bottom: 44, left: 56};
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const bins = logBins(sizes);
  svg.append('title').text(`Histogram of ${formatInt(sizes.length)} partition sizes`);
  if (bins.length === 0) {
    svg.append('text').attr('class', 'chart-empty').attr('x', width / 2).attr('y', height / 2)
      .attr('text-anchor', 'middle').text('No partitions to draw.');
    return;
  }
  const x = d3().scaleLog().base(2).domain([bins[0].x0, bins[bins.length - 1].x1]).range([0, innerW]);
  const maxCount = d3().max(bins, (b) => b.count);
  const y = d3().scaleLinear().domain([0, maxCount]).nice().range([innerH, 0]);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);

  const ticks = binaryTicks(x.domain()[0], x.domain()[1], Math.max(3, Math.floor(innerW / 44)));
  g.append('g').attr('class', 'axis axis-x').attr('transform', `translate(0,${innerH})`)
    .call(d3().axisBottom(x).tickValues(ticks).tickFormat(formatBytesShort));
  g.append('g').attr('class', 'axis axis-y')
    .call(d3().axisLeft(y).ticks(Math.min(6, maxCount)).tickFormat(d3().format('~s')));
  g.append('g').attr('class', 'grid')
    .call(d3().axisLeft(y).ticks(Math.min(6, maxCount)).tickSize(-innerW).tickFormat(''))
    .call((s) => s.select('.domain').remove());

  const bar = g.append('g').selectAll('rect').data(bins.filter((b) => b.count > 0)).join('rect')
    .attr('class', 'bar')
    .attr('x', (b) => x(b.x0) + 1)
    .attr('width', (b) => Math.max(1, x(b.x1) - x(b.x0) - 2))
    // Keep single partitions visible next to bins holding thousands.
    .attr('y', (b) => Math.min(y(b.count), innerH - 2))
    .attr('height', (b) => Math.max(2, innerH - y(b.count)));
  bar.append('title').text((b) =>
    `${formatBytes(b.x0)} – ${formatBytes(b.x1)}: ${formatInt(b.count)} partition${b.count === 1 ? '' : 's'}, ` +
    `${formatBytes(b.bytes)} in all`);

  if (report.mean_partition_bytes > 0) {
    const mx = x(Math.max(x.domain()[0], report.mean_partition_bytes));
    const mean = g.append('g').attr('class', 'marker');
    mean.append('line').attr('x1', mx).attr('x2', mx).attr('y1', -6).attr('y2', innerH);
    // Above the plot, so it never sits on a bar; flipped left near the right edge.
    const right = mx > innerW - 90;
    mean.append('text').attr('x', right ? mx - 4 : mx + 4).attr('y', -8)
      .attr('text-anchor', right ? 'end' : 'start')
      .text(`mean ${formatBytes(report.mean_partition_bytes)}`);
  }

  svg.append('text').attr('class', 'axis-label').attr('x', margin.left + innerW / 2).attr('y', height - 6)
    .attr('text-anchor', 'middle').text('partition size (bytes, log scale)');
  svg.append('text').attr('class', 'axis-label')
    .attr('transform', `translate(14,${margin.top + innerH / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').text('partitions');
}

/**
 * Concentration curve: the share of all bytes held by the largest x% of partitions
 * (partition_bytes is sorted largest first). The diagonal is a perfectly even spread.
 */
export function renderConcentration(container, report, {height = 260} = {}) {
  const sizes = report.partition_bytes ?? Float64Array.from(report.partitions ?? [], (p) => p.bytes);
  const {svg, width} = frame(container, height);
  const margin = {top: 14, right: 18, bottom: 44, left: 56};
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  svg.append('title').text('Share of the data held by the largest partitions');
  const n = sizes.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += sizes[i];
  if (n === 0 || total === 0) {
    svg.append('text').attr('class', 'chart-empty').attr('x', width / 2).attr('y', height / 2)
      .attr('text-anchor', 'middle').text('No partitions to draw.');
    return;
  }
  // At most ~600 points: every step-th partition, always including the first and the last.
  const points = [[0, 0]];
  const step = Math.max(1, Math.floor(n / 600));
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += sizes[i];
    if (i % step === 0 || i === n - 1) points.push([(i + 1) / n, acc / total]);
  }
  const x = d3().scaleLinear().domain([0, 1]).range([0, innerW]);
  const y = d3().scaleLinear().domain([0, 1]).range([innerH, 0]);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  const pct = (v) => `${Math.round(v * 100)}%`;
  g.append('g').attr('class', 'axis axis-x').attr('transform', `translate(0,${innerH})`)
    .call(d3().axisBottom(x).ticks(5).tickFormat(pct));
  g.append('g').attr('class', 'axis axis-y').call(d3().axisLeft(y).ticks(5).tickFormat(pct));
  g.append('g').attr('class', 'grid')
    .call(d3().axisLeft(y).ticks(5).tickSize(-innerW).tickFormat(''))
    .call((s) => s.select('.domain').remove());
  g.append('path').datum(points).attr('class', 'area')
    .attr('d', d3().area().x((p) => x(p[0])).y0(innerH).y1((p) => y(p[1])));
  g.append('path').datum(points).attr('class', 'line')
    .attr('d', d3().line().x((p) => x(p[0])).y((p) => y(p[1])));
  g.append('line').attr('class', 'diagonal').attr('x1', 0).attr('y1', innerH).attr('x2', innerW).attr('y2', 0);

  // Annotate the top 1% (the report's own figure).
  const top = report.top1_percent;
  if (top && top.partitions > 0) {
    const px = x(top.partitions / n);
    const py = y(top.share);
    const note = g.append('g').attr('class', 'marker');
    note.append('circle').attr('cx', px).attr('cy', py).attr('r', 4);
    note.append('text').attr('x', Math.min(px + 8, innerW - 150)).attr('y', Math.max(py + 16, 14))
      .text(`top ${formatInt(top.partitions)} (1%): ${formatPercent(top.share)}`);
  }
  svg.append('text').attr('class', 'axis-label').attr('x', margin.left + innerW / 2).attr('y', height - 6)
    .attr('text-anchor', 'middle').text('largest partitions (share of all partitions)');
  svg.append('text').attr('class', 'axis-label')
    .attr('transform', `translate(14,${margin.top + innerH / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').text('share of bytes');
}
