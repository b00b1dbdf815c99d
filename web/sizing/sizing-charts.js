// D3 pictures of the partition sizing (docs/sizing.md), pure functions of the engine's report
// objects and a container element, in the style of charts.js: colours from CSS classes, text with
// .text(), a <title> on every mark, an aria-label that says what the picture shows.
//
//   renderGrowthChart(element, report.growth, {measure: 'nv', startDate: '2025-01-01'});
//   renderSizeHistogram(element, dataReport, {measure: 'st_bytes'});
//
// Every chart has a table view beside it (sizing-view.js fills those from the same objects).
import {frame} from '../common/charts.js';
import {formatBytes, formatInt} from '../common/format.js';

const d3 = () => {
  if (!globalThis.d3) throw new Error('D3 did not load (vendor/d3.min.js).');
  return globalThis.d3;
};

// ---------------------------------------------------------------------------------------------
// The limits (docs/sizing.md "The limits"): the engine's check table, as every sizing report
// carries it (report.checks; each case's checks add value and pass).

/**
 * The sizing checks of a report ([{code, measure, limit_id, limit, label, severity, source}]) as
 * the charts and the view use them: {code, measure, severity, limit, label, source, limitId}.
 */
export function sizingLimits(checks) {
  if (!Array.isArray(checks)) throw new Error('The sizing report carries no checks: is the engine current?');
  return checks.map((c) => ({code: c.code, measure: c.measure, severity: c.severity, limit: c.limit, label: c.label,
                             source: c.source, limitId: c.limit_id}));
}

/** The check `code` of `checks` (a report's), or null. */
export const limitInfo = (checks, code) => sizingLimits(checks).find((l) => l.code === code) ?? null;

/** Bytes in decimal units, as the sizing guide writes them: the page's one formatter (common/format.js). */
export const formatSizeBytes = (n) => formatBytes(n, {decimal: true});

/** A short axis label in decimal units: 1500 -> "1.5k", 2e9 -> "2G". */
function shortNumber(n) {
  return d3().format('~s')(n);
}

/** A value of `measure` for people: "73,000 values" or "1.1 MB". */
export function formatMeasure(measure, value) {
  if (measure === 'nv') return `${formatInt(value)} value${value === 1 ? '' : 's'}`;
  if (measure === 'nr') return `${formatInt(value)} row${value === 1 ? '' : 's'}`;
  return formatSizeBytes(value);
}

/** Whole days after `startDate` (yyyy-mm-dd, UTC) as yyyy-mm-dd, or '' without a start date. */
export function dayToDate(startDate, day) {
  if (!startDate || !/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !Number.isFinite(day)) return '';
  const t = Date.parse(`${startDate}T00:00:00Z`);
  if (!Number.isFinite(t)) return '';
  const d = new Date(t + day * 86_400_000);
  return Number.isFinite(d.getTime()) && d.getUTCFullYear() < 10000 ? d.toISOString().slice(0, 10) : ''; // lint-ok: drawing and number format
}

function emptyChart(svg, width, height, text) {
  svg.append('text').attr('class', 'chart-empty').attr('x', width / 2).attr('y', height / 2)
    .attr('text-anchor', 'middle').text(text);
}

// ---------------------------------------------------------------------------------------------
// Growth: the largest partition against time.

/**
 * The thresholds a growth chart of `measure` draws: those the series reaches, plus the next one
 * above it when it is near enough (within `reach` times the largest value) to be read on a
 * linear axis. `checks`: the report's (report.checks). Returns {shown: [limit + crossing],
 * offChart: [limit + crossing]}.
 */
export function growthThresholds(growth, measure, {reach = 4, checks} = {}) {
  const largest = growth?.largest?.[measure] ?? 0;
  const crossings = new Map((growth?.crossings ?? []).map((c) => [c.code, c]));
  const shown = [];
  const offChart = [];
  let nextShown = false;
  for (const l of sizingLimits(checks).filter((x) => x.measure === measure).sort((a, b) => a.limit - b.limit)) {
    const entry = {...l, crossing: crossings.get(l.code) ?? null};
    if (l.limit <= largest) shown.push(entry);
    else if (!nextShown && l.limit <= Math.max(largest, 1) * reach) {
      shown.push(entry);
      nextShown = true;
    } else offChart.push(entry);
  }
  return {shown, offChart};
}

/**
 * Largest partition size against days since ingest started (report.growth, docs/sizing.md):
 * the series of `measure` ('nv' values or 'st_bytes' bytes), a dashed line per threshold in
 * range, and at each crossing day within the horizon a marker labelled with the day (and the
 * date when `startDate`, yyyy-mm-dd, is given). Linear axes: a retention shows as a plateau.
 */
export function renderGrowthChart(container, growth, {measure = 'nv', startDate = '', height = 280, checks,
                                                      label = 'Largest partition over time'} = {}) {
  const {svg, width} = frame(container, height);
  const margin = {top: 26, right: 24, bottom: 44, left: 64};
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const points = growth?.points ?? [];
  const what = measure === 'nv' ? 'values (Nv)' : 'size (St)';
  svg.append('title').text(`${label}: ${what}`);
  if (points.length < 2) {
    svg.attr('aria-label', `${label}: no growth series.`);
    emptyChart(svg, width, height, 'No growth to draw: give rows per day.');
    return;
  }
  const {shown, offChart} = growthThresholds(growth, measure, {checks});
  const horizon = growth.horizon_days ?? points[points.length - 1].day;
  const top = Math.max(d3().max(points, (p) => p[measure]) ?? 0, d3().max(shown, (l) => l.limit) ?? 0, 1);
  const x = d3().scaleLinear().domain([0, horizon]).range([0, innerW]);
  // A threshold far below the largest value would lie flat on a linear axis: then a log axis,
  // from the decade of the smallest positive value (a zero, day 0, has no place on it).
  const lowestLimit = d3().min(shown, (l) => l.limit) ?? top;
  const log = lowestLimit < top / 20;
  const drawn = log ? points.filter((p) => p[measure] > 0) : points;
  const y = log
    ? d3().scaleLog().domain([10 ** Math.floor(Math.log10(Math.min(d3().min(drawn, (p) => p[measure]) ?? 1, lowestLimit))), top * 1.5]) // lint-ok: axis headroom
      .range([innerH, 0]).clamp(true)
    : d3().scaleLinear().domain([0, top * 1.08]).nice().range([innerH, 0]);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  const crossed = shown.filter((l) => l.crossing?.within_horizon && l.crossing.day !== null);
  svg.attr('aria-label', `${label}: ${what} over ${formatInt(horizon)} days, largest ` +
    `${formatMeasure(measure, growth.largest?.[measure] ?? 0)}` +
    (crossed.length ? `; crosses ${crossed.map((l) => `${l.label} on day ${formatInt(l.crossing.day)}`).join(', ')}` : '') +
    `${log ? ' (log scale)' : ''}. The table view lists the same numbers.`);

  g.append('g').attr('class', 'axis axis-x').attr('transform', `translate(0,${innerH})`)
    .call(d3().axisBottom(x).ticks(Math.max(3, Math.floor(innerW / 90))).tickFormat((d) => formatInt(d)));
  const fmt = measure === 'nv' ? shortNumber : shortBytes;
  const yTicks = log ? y.ticks().filter((t) => Number.isInteger(Math.log10(t))) : y.ticks(6);
  g.append('g').attr('class', 'axis axis-y')
    .call(d3().axisLeft(y).tickValues(yTicks).tickFormat(fmt));
  g.append('g').attr('class', 'grid')
    .call(d3().axisLeft(y).tickValues(yTicks).tickSize(-innerW).tickFormat(''))
    .call((s) => s.select('.domain').remove());

  g.append('path').datum(drawn).attr('class', 'area growth-area')
    .attr('d', d3().area().x((p) => x(p.day)).y0(innerH).y1((p) => y(p[measure])));
  g.append('path').datum(drawn).attr('class', 'line growth-line').attr('data-testid', 'growth-line')
    .attr('d', d3().line().x((p) => x(p.day)).y((p) => y(p[measure])))
    .append('title').text(`${what} of the largest partition, day 0 to ${formatInt(horizon)}`);

  if (growth.retention_days > 0 && growth.retention_days < horizon) {
    const rx = x(growth.retention_days);
    const r = g.append('g').attr('class', 'retention');
    r.append('line').attr('x1', rx).attr('x2', rx).attr('y1', 0).attr('y2', innerH);
    r.append('text').attr('x', rx + 4).attr('y', innerH - 6).text(`retention ${formatInt(growth.retention_days)} d`);
  }

  for (const l of shown) {
    const ly = y(l.limit);
    const t = g.append('g').attr('class', `threshold ${l.severity}`).attr('data-code', l.code);
    t.append('line').attr('x1', 0).attr('x2', innerW).attr('y1', ly).attr('y2', ly);
    // Away from the crossing's label (above the line, right of the dot): below the line at the right end.
    const crossesLeft = l.crossing?.within_horizon && l.crossing.day !== null && x(l.crossing.day) < innerW * 0.6; // lint-ok: label placement
    t.append('text').attr('class', 'threshold-label').attr('x', crossesLeft ? innerW - 4 : 4)
      .attr('y', crossesLeft && ly + 14 < innerH ? ly + 14 : ly - 4) // lint-ok: drawing and number format
      .attr('text-anchor', crossesLeft ? 'end' : 'start').text(l.label);
    t.append('title').text(`${l.label}: ${l.source}`);
  }
  // Crossing markers: a dot on the threshold at the day, a vertical rule and a label above.
  crossed.forEach((l, i) => {
    const cx = x(l.crossing.day);
    const cy = y(l.limit);
    const date = dayToDate(startDate, l.crossing.day);
    const text = `day ${formatInt(l.crossing.day)}${date ? ` · ${date}` : ''}`;
    const c = g.append('g').attr('class', `crossing ${l.severity}`).attr('data-code', l.code)
      .attr('data-day', l.crossing.day);
    c.append('line').attr('x1', cx).attr('x2', cx).attr('y1', cy).attr('y2', innerH);
    c.append('circle').attr('cx', cx).attr('cy', cy).attr('r', 4.5);
    const right = cx > innerW - 150;
    c.append('text').attr('class', 'crossing-label').attr('data-testid', 'crossing-label')
      .attr('x', right ? cx - 7 : cx + 7).attr('y', Math.max(10, cy - 8 - i * 14))
      .attr('text-anchor', right ? 'end' : 'start').text(text);
    c.append('title').text(`Over ${l.label} from ${text} (${l.source})`);
  });
  if (offChart.length) {
    const note = offChart.map((l) => `${l.label}: ${l.crossing?.day == null ? 'never' : `day ${formatInt(l.crossing.day)}`}`)
      .join(' · ');
    svg.append('text').attr('class', 'off-chart').attr('x', width - margin.right).attr('y', 14)
      .attr('text-anchor', 'end').text(`above the chart — ${note}`);
  }
  svg.append('text').attr('class', 'axis-label').attr('x', margin.left + innerW / 2).attr('y', height - 6)
    .attr('text-anchor', 'middle').text(startDate ? `days since ${startDate}` : 'days of ingest');
  svg.append('text').attr('class', 'axis-label')
    .attr('transform', `translate(14,${margin.top + innerH / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(`${measure === 'nv' ? 'values in the largest partition' : 'bytes (St)'}${log ? ', log scale' : ''}`);
}

function shortBytes(n) {
  return n === 0 ? '0' : `${d3().format('~s')(n)}B`;
}

// ---------------------------------------------------------------------------------------------
// From data: partitions per size bin, against the thresholds.

/** The 1-2-5 series bin holding `v`: [lower, upper). [0, 1) for v < 1. */
export function binOf(v) {
  if (!(v >= 1)) return {lower: 0, upper: 1};
  let decade = 10 ** Math.floor(Math.log10(v));
  // Guard the floating-point edge (log10(1000) = 2.9999…).
  if (decade * 10 <= v) decade *= 10; // lint-ok: drawing and number format
  if (decade > v) decade /= 10;
  for (const [a, b] of [[1, 2], [2, 5], [5, 10]]) {
    if (v < b * decade) return {lower: a * decade, upper: b * decade};
  }
  return {lower: 10 * decade, upper: 20 * decade};
}

function nextBin(bin) {
  return binOf(bin.upper);
}

/**
 * The report's histogram (docs/sizing.md: [lower, upper) bins on a 1-2-5 series) with empty bins
 * added up to the bin holding `upTo`, so a threshold above the data has a place on the axis.
 */
export function extendBins(histogram, upTo = 0) {
  const bins = (histogram ?? []).map((b) => ({...b}));
  if (bins.length === 0) return bins;
  while (bins[bins.length - 1].upper <= upTo && bins.length < 60) { // lint-ok: drawing and number format
    bins.push({...nextBin(bins[bins.length - 1]), partitions: 0});
  }
  return bins;
}

/**
 * The thresholds a histogram of `measure` marks: every limit at or below the data's largest
 * value, and the next one above it (so you see how far the data is from it); the others are
 * listed in a note. Returns {shown, offChart}, each a list of sizingLimits() entries with the data
 * report's threshold (partitions breaking it) as `threshold`.
 */
export function histogramThresholds(report, measure) {
  const largest = report?.[measure]?.max ?? 0;
  const byCode = new Map((report?.thresholds ?? []).map((t) => [t.code, t]));
  const shown = [];
  const offChart = [];
  let next = false;
  for (const l of sizingLimits(report.checks).filter((x) => x.measure === measure).sort((a, b) => a.limit - b.limit)) {
    const entry = {...l, threshold: byCode.get(l.code) ?? null};
    if (l.limit <= largest) shown.push(entry);
    else if (!next) {
      shown.push(entry);
      next = true;
    } else offChart.push(entry);
  }
  return {shown, offChart};
}

/** Where `v` falls on a band scale of 1-2-5 bins (log-interpolated within its bin). */
function positionIn(bins, x, v) {
  const i = bins.findIndex((b) => v >= b.lower && v < b.upper);
  if (i < 0) return v < bins[0].lower ? x(0) : x(bins.length - 1) + x.bandwidth();
  const b = bins[i];
  const f = b.lower > 0 ? Math.log(v / b.lower) / Math.log(b.upper / b.lower) : v / b.upper;
  return x(i) + f * x.bandwidth();
}

/**
 * Histogram of the measured partitions (docs/sizing.md "From data"): report.nv_histogram
 * (measure 'nv') or report.st_histogram ('st_bytes'), one bar per 1-2-5 bin, the bins extended
 * to the nearest threshold above the data, a dashed line per threshold labelled with how many
 * partitions break it.
 */
export function renderSizeHistogram(container, report, {measure = 'st_bytes', height = 260,
                                                        label = 'Partitions by size'} = {}) {
  const {svg, width} = frame(container, height);
  const margin = {top: 26, right: 18, bottom: 50, left: 56};
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const what = measure === 'nv' ? 'values per partition (Nv)' : 'bytes per partition (St)';
  svg.append('title').text(`${label}: ${what}`);
  const source = measure === 'nv' ? report?.nv_histogram : report?.st_histogram;
  if (!source || source.length === 0) {
    svg.attr('aria-label', `${label}: no partitions.`);
    emptyChart(svg, width, height, 'No partitions to draw.');
    return;
  }
  const {shown, offChart} = histogramThresholds(report, measure);
  const bins = extendBins(source, d3().max(shown, (l) => l.limit) ?? 0);
  const x = d3().scaleBand().domain(bins.map((_, i) => i)).range([0, innerW]).paddingInner(0.12);
  const maxCount = d3().max(bins, (b) => b.partitions) || 1;
  const y = d3().scaleLinear().domain([0, maxCount]).nice().range([innerH, 0]);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  svg.attr('aria-label', `${label}: ${formatInt(report.partitions)} partitions in ${formatInt(source.length)} bins of ` +
    `${what}; ${shown.map((l) => `${l.label}: ${formatInt(l.threshold?.partitions ?? 0)} over`).join(', ')}. ` +
    'The table view lists the same numbers.');

  const fmt = measure === 'nv' ? shortNumber : shortBytes;
  const every = Math.max(1, Math.ceil(bins.length / Math.max(2, Math.floor(innerW / 46))));
  g.append('g').attr('class', 'axis axis-x').attr('transform', `translate(0,${innerH})`)
    .call(d3().axisBottom(x).tickValues(bins.map((_, i) => i).filter((i) => i % every === 0))
      .tickFormat((i) => fmt(bins[i].lower)))
    .call((s) => s.selectAll('.tick').attr('transform', (i) => `translate(${x(i)},0)`));
  g.append('g').attr('class', 'axis axis-y')
    .call(d3().axisLeft(y).ticks(Math.min(6, maxCount)).tickFormat(d3().format('~s')));
  g.append('g').attr('class', 'grid')
    .call(d3().axisLeft(y).ticks(Math.min(6, maxCount)).tickSize(-innerW).tickFormat(''))
    .call((s) => s.select('.domain').remove());

  const bar = g.append('g').selectAll('rect').data(bins.map((b, i) => ({...b, i})).filter((b) => b.partitions > 0))
    .join('rect')
    .attr('class', 'bar')
    .attr('x', (b) => x(b.i))
    .attr('width', x.bandwidth())
    .attr('y', (b) => Math.min(y(b.partitions), innerH - 2))
    .attr('height', (b) => Math.max(2, innerH - y(b.partitions)));
  bar.append('title').text((b) => `${formatMeasure(measure, b.lower)} to ${formatMeasure(measure, b.upper)}: ` +
    `${formatInt(b.partitions)} partition${b.partitions === 1 ? '' : 's'}`);

  shown.forEach((l, i) => {
    const lx = positionIn(bins, x, l.limit);
    const over = l.threshold?.partitions ?? 0;
    const t = g.append('g').attr('class', `threshold vertical ${l.severity}`).attr('data-code', l.code);
    t.append('line').attr('x1', lx).attr('x2', lx).attr('y1', -8).attr('y2', innerH);
    const right = lx > innerW - 140;
    t.append('text').attr('class', 'threshold-label').attr('x', right ? lx - 4 : lx + 4).attr('y', i % 2 === 0 ? -12 : 12)
      .attr('text-anchor', right ? 'end' : 'start').text(`${l.label}: ${formatInt(over)} over`);
    t.append('title').text(`${l.label} (${l.source}): ${formatInt(over)} partition${over === 1 ? '' : 's'} over it`);
  });
  svg.append('text').attr('class', 'axis-label').attr('x', margin.left + innerW / 2).attr('y', height - 6)
    .attr('text-anchor', 'middle').text(`${what}, 1-2-5 bins (log scale)`);
  svg.append('text').attr('class', 'axis-label')
    .attr('transform', `translate(14,${margin.top + innerH / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').text('partitions');
}

/** The terms St adds up (docs/sizing.md): [{key, symbol, meaning, bytes}] of a case's terms. */
export function stTerms(terms) {
  return [
    {key: 'sum_partition_key', symbol: 'Σ pk', meaning: 'partition key columns', bytes: terms.sum_partition_key},
    {key: 'sum_static', symbol: 'Σ s', meaning: 'static columns', bytes: terms.sum_static},
    {key: 'rows_term', symbol: 'Nr × (Σr + Σc)', meaning: 'the rows', bytes: terms.rows_term},
    {key: 'metadata_term', symbol: 'Nv × t_avg', meaning: 'metadata per value', bytes: terms.metadata_term},
  ];
}

/**
 * The partition size St of one sizing case (report.average, docs/sizing.md) term by term: one
 * horizontal bar per term of St = Σ pk + Σ s + Nr × (Σr + Σc) + Nv × t_avg and the total, on
 * one linear scale, each labelled with its bytes. The limits on St are named in the accessible
 * label (they are usually far off this scale; the table beside lists them).
 */
export function renderTermsChart(container, c, {label = 'Partition size St, term by term', height} = {}) {
  const t = c.terms;
  const bars = [...stTerms(t), {key: 'st_bytes', symbol: 'St', meaning: 'partition size', bytes: t.st_bytes}];
  const rowH = 34;
  const margin = {top: 12, right: 96, bottom: 34, left: 124};
  const h = height ?? margin.top + margin.bottom + bars.length * rowH;
  const {svg, width} = frame(container, h);
  const innerW = Math.max(40, width - margin.left - margin.right);
  const limitsOnSt = sizingLimits(c.checks).filter((l) => l.measure === 'st_bytes').sort((a, b) => a.limit - b.limit);
  const nearest = limitsOnSt[0];
  svg.attr('aria-label', `${label}: ${bars.map((b) => `${b.symbol} ${formatSizeBytes(b.bytes)}`).join(', ')}` +
    (nearest ? `; St is ${(100 * t.st_bytes / nearest.limit).toPrecision(2)}% of the ${nearest.label} limit` : '') +
    '. The table view lists the same numbers.');
  svg.append('title').text(label);
  const x = d3().scaleLinear().domain([0, Math.max(1, t.st_bytes)]).nice().range([0, innerW]);
  const y = d3().scaleBand().domain(bars.map((b) => b.key)).range([0, bars.length * rowH]).padding(0.25);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  g.append('g').attr('class', 'grid').attr('transform', `translate(0,${bars.length * rowH})`)
    .call(d3().axisBottom(x).ticks(Math.max(2, Math.floor(innerW / 90))).tickSize(-bars.length * rowH).tickFormat(''))
    .call((s) => s.select('.domain').remove());
  g.append('g').attr('class', 'axis axis-x').attr('transform', `translate(0,${bars.length * rowH})`)
    .call(d3().axisBottom(x).ticks(Math.max(2, Math.floor(innerW / 90))).tickFormat((v) => formatSizeBytes(v)));
  const row = g.selectAll('g.term').data(bars).join('g')
    .attr('class', (b, i) => `term term-${b.key === 'st_bytes' ? 'total' : i}`)
    .attr('transform', (b) => `translate(0,${y(b.key)})`);
  row.append('rect').attr('class', 'bar').attr('width', (b) => Math.max(b.bytes > 0 ? 1 : 0, x(b.bytes)))
    .attr('height', y.bandwidth());
  row.append('text').attr('class', 'term-symbol').attr('x', -8).attr('y', y.bandwidth() / 2).attr('dy', '0.35em')
    .attr('text-anchor', 'end').text((b) => b.symbol);
  row.append('text').attr('class', 'term-bytes').attr('x', (b) => x(b.bytes) + 6).attr('y', y.bandwidth() / 2)
    .attr('dy', '0.35em').text((b) => formatSizeBytes(b.bytes));
}
