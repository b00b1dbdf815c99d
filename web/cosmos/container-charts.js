// D3 pictures of the container model, pure functions of a report's layout objects
// (report.container.before / .after, docs/report.md) and a container element, in the style of
// charts.js: colours from CSS classes, text with .text(), a <title> on every mark.
//
//   renderPartitionMap(element, report.container.before, {route: report.container.route});
//   renderDemandChart(element, report.container.before);
import {frame} from '../common/charts.js';
import {formatBytes, formatInt, formatKey, formatPercent, formatRu, truncate} from '../common/format.js';

export {formatRu};
import {limitValue} from '../common/limits.js';

const d3 = () => {
  if (!globalThis.d3) throw new Error('D3 did not load (vendor/d3.min.js).');
  return globalThis.d3;
};

/** Patterns need document-unique ids; every chart takes fresh ones. */
let patternSeq = 0;

/** An EPK boundary, short: "" for the start, the first `keep` hex digits then "…". */
export function shortEpk(epk, keep = 4) {
  if (epk === '' || epk === undefined || epk === null) return '""';
  return epk.length > keep + 1 ? `${epk.slice(0, keep)}…` : epk;
}

/** "[min, max)" with both ends shortened (or in full with keep = Infinity). */
export function epkRangeText(range, keep = 4) {
  return `[${shortEpk(range.min, keep)}, ${shortEpk(range.max, keep)})`;
}

/**
 * The fewest leading hex digits (at least `min`) that tell every boundary of `ranges` from the
 * others, so two ranges never read the same once shortened; Infinity when none up to 32 does.
 */
export function distinctEpkLength(ranges, min = 4) {
  const ends = [...new Set(ranges.flatMap((r) => [r.min ?? '', r.max ?? '']))];
  for (let keep = min; keep <= 32; keep++) {
    const shown = new Set(ends.map((e) => shortEpk(e, keep)));
    if (shown.size === ends.length) return keep;
  }
  return Infinity;
}

/** The parent each split child came from: {childId: parentId}, from report.container.splits. */
export function splitParents(splits) {
  const parents = new Map();
  for (const s of splits ?? []) {
    parents.set(s.left, s.parent);
    parents.set(s.right, s.parent);
  }
  return parents;
}


/**
 * The blocks one physical partition's column stacks, bottom to top: its listed logical partitions
 * by bytes (largest first), then one "others" block. Each block {kind: 'logical'|'others', key,
 * epk, items, bytes, demand_ru, hot, partitions, y0, y1} with y0/y1 in bytes from the bottom.
 */
export function stackRange(range) {
  const top = [...(range.top ?? [])].sort((a, b) => b.bytes - a.bytes);
  const blocks = [];
  let y = 0;
  for (const p of top) {
    blocks.push({kind: 'logical', key: p.key, epk: p.epk, items: p.items, bytes: p.bytes, demand_ru: p.demand_ru,
                 hot: !!p.hot, partitions: 1, y0: y, y1: y + p.bytes});
    y += p.bytes;
  }
  if ((range.others_partitions ?? 0) > 0 || (range.others_bytes ?? 0) > 0) {
    blocks.push({kind: 'others', key: null, epk: null, items: null, bytes: range.others_bytes ?? 0, demand_ru: null,
                 hot: false, partitions: range.others_partitions ?? 0, y0: y, y1: y + (range.others_bytes ?? 0)});
  }
  return blocks;
}

function blockTitle(range, block) {
  if (block.kind === 'others') {
    return `P${range.id}: ${formatInt(block.partitions)} more logical partition${block.partitions === 1 ? '' : 's'}, ` +
      `${formatBytes(block.bytes)}`;
  }
  const lines = [
    `key ${formatKey(block.key)}${block.hot ? ' (HOT)' : ''}`,
    `EPK ${block.epk ?? '–'}`,
    `${formatInt(block.items)} items, ${formatBytes(block.bytes)}`,
  ];
  if (block.demand_ru != null) lines.push(`demand ${formatRu(block.demand_ru)} RU/s of the partition's ${formatRu(range.ru_share)}`);
  lines.push(`physical partition P${range.id} ${epkRangeText(range, Infinity)}`);
  return lines.join('\n');
}

function defineStripes(svg, id, className) {
  const pattern = svg.append('defs').append('pattern').attr('id', id).attr('patternUnits', 'userSpaceOnUse')
    .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)');
  pattern.append('rect').attr('class', `${className}-bg`).attr('width', 6).attr('height', 6);
  pattern.append('line').attr('class', `${className}-line`).attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6);
}

/**
 * The logical → physical map of one layout: a column per physical partition (id and EPK range
 * below it), its logical partitions stacked by bytes, hot ones striped and labelled, the ranges a
 * routed query touches outlined. Options: route (report.container.route), maxBytes (a shared
 * y scale for before/after pictures), label (the accessible name), height, fit (as wide as its box
 * whatever the number of ranges).
 */
export function renderPartitionMap(container, layout, {route = null, maxBytes, label = 'Logical to physical partition map',
                                                       height = 340, fit = false, parents = null} = {}) {
  const ranges = layout?.ranges ?? [];
  const n = ranges.length;
  // Many ranges (a grown layout) get narrow columns, so the picture fits its box.
  // `fit`: the picture takes its box's width whatever the number of ranges (side-by-side maps).
  const minColumn = fit ? 4 : n <= 6 ? 110 : n <= 16 ? 56 : n <= 40 ? 30 : n <= 80 ? 12 : 4;
  // A logical partition over the 20 GB quota is outlined and named (after growth, typically).
  const logicalLimit = limitValue('cosmos_logical_partition_bytes');
  const overLimit = ranges.flatMap((r) => (r.top ?? []).filter((p) => p.bytes > logicalLimit));
  const margin = {top: 52, right: 14, bottom: 54, left: 72};
  const {svg, width} = frame(container, height, margin.left + margin.right + n * minColumn);
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const hotRanges = ranges.filter((r) => (r.top ?? []).some((p) => p.hot)).length;
  const routed = new Set(route?.range_ids ?? []);
  const routedKey = route?.kind === 'single' ? formatKey(route.filter) : null;
  svg.attr('aria-label', `${label}: ${formatInt(n)} physical partition${n === 1 ? '' : 's'}` +
    (hotRanges ? `, ${formatInt(hotRanges)} with a hot logical partition` : '') +
    (routed.size ? `, the query touches ${formatInt(routed.size)}` : '') +
    (overLimit.length ? `, ${formatInt(overLimit.length)} logical partition${overLimit.length === 1 ? '' : 's'} over ` +
      `${formatBytes(logicalLimit)} (outlined)` : '') + '. The table view below lists the same numbers.');
  svg.append('title').text(label);
  if (n === 0) {
    svg.append('text').attr('class', 'chart-empty').attr('x', width / 2).attr('y', height / 2)
      .attr('text-anchor', 'middle').text('No physical partitions to draw.');
    return;
  }
  const seq = ++patternSeq;
  const hotId = `pp-hot-${seq}`;
  const othersId = `pp-others-${seq}`;
  defineStripes(svg, hotId, 'stripes-hot');
  defineStripes(svg, othersId, 'stripes-others');

  const top = maxBytes ?? d3().max(ranges, (r) => r.bytes) ?? 0;
  // Columns at most ~240 px wide, centred: one physical partition should not look like a wall.
  const used = Math.min(innerW, n * 240);
  const x0 = (innerW - used) / 2;
  const x = d3().scaleBand().domain(ranges.map((r) => r.id)).range([x0, x0 + used]).paddingInner(n > 40 ? 0.08 : 0.18)
    .paddingOuter(0.05);  // lint-ok: chart layout
  const y = d3().scaleLinear().domain([0, top > 0 ? top : 1]).range([innerH, 0]);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  g.append('g').attr('class', 'axis axis-y')
    .call(d3().axisLeft(y).ticks(5).tickFormat((v) => formatBytes(v)));
  g.append('g').attr('class', 'grid')
    .call(d3().axisLeft(y).ticks(5).tickSize(-innerW).tickFormat(''))
    .call((s) => s.select('.domain').remove());

  const bw = x.bandwidth();
  const columns = g.selectAll('g.column').data(ranges).join('g')
    .attr('class', (r) => `column${routed.has(r.id) ? ' routed' : ''}`)
    .attr('data-range', (r) => r.id)
    .attr('transform', (r) => `translate(${x(r.id)},0)`);
  // The column's whole slot, so an empty partition still shows (and carries the range's title).
  columns.append('rect').attr('class', 'column-bg').attr('x', 0).attr('y', 0).attr('width', bw).attr('height', innerH)
    .append('title').text((r) =>
      `P${r.id} ${epkRangeText(r, Infinity)}\n${formatInt(r.logical_partitions)} logical partitions, ` +
      `${formatInt(r.items)} items, ${formatBytes(r.bytes)}\nRU/s share ${formatRu(r.ru_share)}, demand ${formatRu(r.demand_ru)}`);

  columns.each(function drawColumn(range) {
    const column = d3().select(this);
    const blocks = stackRange(range);
    const marks = column.selectAll('g.block').data(blocks).join('g')
      .attr('class', (b) => `block ${b.kind}${b.hot ? ' hot' : ''}` +
        (routedKey !== null && b.kind === 'logical' && formatKey(b.key) === routedKey ? ' routed-key' : ''))
      .attr('data-key', (b) => (b.kind === 'logical' ? formatKey(b.key) : null));
    const top = (b) => y(b.y1);
    const h = (b) => Math.max(b.bytes > 0 ? 1 : 0, y(b.y0) - y(b.y1));
    marks.append('rect')
      .attr('class', (b, i) => (b.kind === 'others' ? 'seg seg-others' : `seg seg-${b.hot ? 'hot' : i % 2 ? 'b' : 'a'}`))
      .attr('x', 0).attr('width', bw).attr('y', (b) => top(b) - (h(b) - (y(b.y0) - y(b.y1)))).attr('height', h);
    marks.filter((b) => b.kind === 'others' || b.hot).append('rect')
      .attr('class', 'seg-pattern').attr('fill', (b) => `url(#${b.hot ? hotId : othersId})`)
      .attr('x', 0).attr('width', bw).attr('y', (b) => top(b) - (h(b) - (y(b.y0) - y(b.y1)))).attr('height', h);
    marks.filter((b) => b.kind === 'logical' && b.bytes > logicalLimit).classed('over-limit', true).append('rect')
      .attr('class', 'limit-outline').attr('x', 1).attr('width', Math.max(0, bw - 2))
      .attr('y', (b) => top(b) - (h(b) - (y(b.y0) - y(b.y1))) + 1).attr('height', (b) => Math.max(0, h(b) - 2));
    marks.filter((b) => routedKey !== null && b.kind === 'logical' && formatKey(b.key) === routedKey).append('rect')
      .attr('class', 'key-outline').attr('x', 1.5).attr('width', Math.max(0, bw - 3))  // lint-ok: outline inset (px)
      .attr('y', (b) => top(b) - (h(b) - (y(b.y0) - y(b.y1))) + 1.5).attr('height', (b) => Math.max(0, h(b) - 3));  // lint-ok: outline inset (px)
    marks.append('title').text((b) => blockTitle(range, b));
    // Labels inside blocks tall and wide enough.
    marks.filter((b) => h(b) >= 15 && bw >= 44).append('text').attr('class', (b) => `seg-label${b.hot ? ' hot' : ''}`)
      .attr('x', 4).attr('y', (b) => top(b) + Math.min(h(b), 30) / 2 + 4)
      .text((b) => {
        const room = Math.max(3, Math.floor((bw - 8) / 6.2));
        if (b.kind === 'others') return truncate(`+${formatInt(b.partitions)} others`, room);
        const over = b.bytes > logicalLimit ? `> ${formatBytes(logicalLimit)} ` : '';
        return truncate(`${over}${b.hot ? 'HOT ' : ''}${formatKey(b.key)}`, room);
      });
  });

  // Above each column: its bytes, a hot tag and the query marker.
  const heads = columns.append('g').attr('class', 'column-head');
  heads.append('text').attr('class', 'column-bytes').attr('x', bw / 2).attr('y', (r) => Math.min(y(r.bytes), innerH) - 5)
    .attr('text-anchor', 'middle').text((r) => (bw >= 40 ? formatBytes(r.bytes) : ''));
  // A hot key, or (without one) more demand than the share: the column says so in words too.
  heads.filter((r) => (r.top ?? []).some((p) => p.hot) || r.throttled_fraction > 0).append('text').attr('class', 'hot-tag')
    .attr('x', bw / 2).attr('y', -34).attr('text-anchor', 'middle')
    .text((r) => {
      if (bw < 34) return '▲';
      if ((r.top ?? []).some((p) => p.hot)) return '▲ HOT';
      return bw >= 80 ? `▲ over share: ${formatPercent(r.throttled_fraction)} 429` : '▲ over';
    })
    .append('title').text((r) => `P${r.id}: demand ${formatRu(r.demand_ru)} RU/s, share ${formatRu(r.ru_share)} RU/s, ` +
      `${formatPercent(r.throttled_fraction ?? 0)} of its requests throttled`);
  heads.filter((r) => routed.has(r.id)).append('text').attr('class', 'route-tag')
    .attr('x', bw / 2).attr('y', -20).attr('text-anchor', 'middle').text(bw >= 44 ? '◆ query' : '◆');
  columns.filter((r) => routed.has(r.id)).append('rect').attr('class', 'route-outline')
    .attr('x', -2).attr('y', -2).attr('width', bw + 4).attr('height', innerH + 4);

  // Below: id and EPK range.
  const feet = columns.append('g').attr('class', 'column-foot').attr('transform', `translate(${bw / 2},${innerH})`);
  const every = Math.max(1, Math.ceil(16 / Math.max(1, bw)));
  // A split child says where it came from (its id is new), so EPK order reads as lineage.
  const parentOf = (r) => (parents?.has(r.id) ? ` ← P${parents.get(r.id)}` : '');
  feet.append('text').attr('class', 'range-id').attr('y', 16).attr('text-anchor', 'middle')
    .text((r, i) => (i % every === 0 ? `P${r.id}${bw >= 52 ? parentOf(r) : ''}` : ''));
  // Narrow columns: a bracket under each run of columns that came from one partition ("from P0").
  if (parents && bw < 52) {
    const rootOf = (id) => {
      for (let hops = 0; parents.has(id) && hops <= parents.size; hops++) id = parents.get(id);
      return id;
    };
    const runs = [];
    ranges.forEach((r, i) => {
      const root = rootOf(r.id);
      if (runs.length && runs[runs.length - 1].root === root) runs[runs.length - 1].last = i;
      else runs.push({root, first: i, last: i});
    });
    const lineage = g.append('g').attr('class', 'lineage').attr('transform', `translate(0,${innerH + 24})`);
    for (const run of runs.filter((r) => r.last > r.first)) {
      const x0 = x(ranges[run.first].id) + 1;
      const x1 = x(ranges[run.last].id) + bw - 1;
      lineage.append('path').attr('class', 'lineage-bracket').attr('d', `M${x0},0 v4 H${x1} v-4`);
      if (x1 - x0 >= 40) {
        lineage.append('text').attr('class', 'lineage-label').attr('x', (x0 + x1) / 2).attr('y', 16)
          .attr('text-anchor', 'middle').text(`from P${run.root}`);
      }
    }
  }
  // As many hex digits as tell the boundaries apart (a deep split's children share a prefix).
  const keep = distinctEpkLength(ranges, bw >= 120 ? 6 : 4);
  feet.filter(() => bw >= 84 && bw >= 14 * Math.min(keep, 12)).append('text').attr('class', 'range-epk').attr('y', 31)
    .attr('text-anchor', 'middle').text((r) => epkRangeText(r, keep));
  svg.append('text').attr('class', 'axis-label').attr('transform', `translate(12,${margin.top + innerH / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').text('bytes');
  svg.append('text').attr('class', 'axis-label').attr('x', margin.left + innerW / 2).attr('y', height - 4)
    .attr('text-anchor', 'middle').text(bw >= 84 ? 'physical partitions: id and EPK range [min, max)' : 'physical partitions (EPK ranges in the table view)');
}

/**
 * RU/s demand per physical partition against its share of the throughput: a bar per partition,
 * the share as a dashed line across it, the demand above the share striped (expected 429s), and
 * the throttled fraction written above.
 */
export function renderDemandChart(container, layout, {height = 260, label = 'RU/s demand per physical partition'} = {}) {
  const ranges = layout?.ranges ?? [];
  const n = ranges.length;
  const margin = {top: 30, right: 14, bottom: 40, left: 62};
  const {svg, width} = frame(container, height, margin.left + margin.right + n * (n <= 40 ? 30 : 16));
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const throttled = ranges.filter((r) => r.throttled_fraction > 0).length;
  svg.attr('aria-label', `${label}: ${formatInt(n)} physical partition${n === 1 ? '' : 's'}` +
    (throttled ? `, ${formatInt(throttled)} over their share` : ', none over its share') + '. The table view below lists the same numbers.');
  svg.append('title').text(label);
  const maxDemand = d3().max(ranges, (r) => Math.max(r.demand_ru ?? 0, r.ru_share ?? 0)) ?? 0;
  if (n === 0 || maxDemand <= 0) {
    svg.append('text').attr('class', 'chart-empty').attr('x', width / 2).attr('y', height / 2)
      .attr('text-anchor', 'middle').text(n === 0 ? 'No physical partitions to draw.' : 'No requests: set a workload above.');
    return;
  }
  const stripes = `pp-over-${++patternSeq}`;
  defineStripes(svg, stripes, 'stripes-hot');
  // Bars at most ~120 px wide: a lone partition should not look like a wall.
  const x = d3().scaleBand().domain(ranges.map((r) => r.id)).range([0, Math.min(innerW, n * 160)]).paddingInner(0.25)
    .paddingOuter(0.1);
  const y = d3().scaleLinear().domain([0, maxDemand * 1.12]).nice().range([innerH, 0]);
  const g = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);
  g.append('g').attr('class', 'axis axis-y').call(d3().axisLeft(y).ticks(5).tickFormat(d3().format('~s')));
  // Centre the bars when they do not fill the width.
  const shift = (innerW - (x.range()[1] - x.range()[0])) / 2;
  g.append('g').attr('class', 'grid')
    .call(d3().axisLeft(y).ticks(5).tickSize(-innerW).tickFormat(''))
    .call((s) => s.select('.domain').remove());
  const bw = x.bandwidth();
  const bars = g.selectAll('g.demand').data(ranges).join('g')
    .attr('class', (r) => `demand${r.throttled_fraction > 0 ? ' over' : ''}`)
    .attr('data-range', (r) => r.id)
    .attr('transform', (r) => `translate(${x(r.id) + shift},0)`);
  const within = (r) => Math.min(r.demand_ru ?? 0, r.ru_share ?? 0);
  bars.append('rect').attr('class', 'bar').attr('x', 0).attr('width', bw)
    .attr('y', (r) => y(within(r))).attr('height', (r) => innerH - y(within(r)));
  const over = bars.filter((r) => (r.demand_ru ?? 0) > (r.ru_share ?? 0));
  over.append('rect').attr('class', 'bar-over').attr('x', 0).attr('width', bw)
    .attr('y', (r) => y(r.demand_ru)).attr('height', (r) => y(r.ru_share) - y(r.demand_ru));
  over.append('rect').attr('class', 'seg-pattern').attr('fill', `url(#${stripes})`).attr('x', 0).attr('width', bw)
    .attr('y', (r) => y(r.demand_ru)).attr('height', (r) => y(r.ru_share) - y(r.demand_ru));
  bars.append('line').attr('class', 'share-line').attr('x1', -bw * 0.12).attr('x2', bw * 1.12)
    .attr('y1', (r) => y(r.ru_share)).attr('y2', (r) => y(r.ru_share));
  bars.append('title').text((r) =>
    `P${r.id} ${epkRangeText(r, Infinity)}\ndemand ${formatRu(r.demand_ru)} RU/s, share ${formatRu(r.ru_share)} RU/s\n` +
    `expected throttled (429): ${formatPercent(r.throttled_fraction ?? 0)}`);
  bars.filter((r) => r.throttled_fraction > 0 && bw >= 26).append('text').attr('class', 'over-label')
    .attr('x', bw / 2).attr('y', (r) => y(Math.max(r.demand_ru, r.ru_share)) - 5).attr('text-anchor', 'middle')
    .text((r) => (bw >= 96 ? `${formatPercent(r.throttled_fraction)} of its requests 429` : `${formatPercent(r.throttled_fraction)} 429`));
  const every = Math.max(1, Math.ceil(18 / Math.max(1, bw)));
  bars.append('text').attr('class', 'range-id').attr('x', bw / 2).attr('y', innerH + 15).attr('text-anchor', 'middle')
    .text((r, i) => (i % every === 0 ? `P${r.id}` : ''));
  // One label for the share line (the share is the same for every partition).
  const first = ranges[0];
  const legend = g.append('g').attr('class', 'share-legend').attr('transform', 'translate(0,-18)');
  legend.append('line').attr('class', 'share-line').attr('x1', 0).attr('x2', 22).attr('y1', 0).attr('y2', 0);
  legend.append('text').attr('class', 'share-label').attr('x', 28).attr('y', 4)
    .text(`share of the throughput: ${formatRu(first.ru_share)} RU/s per physical partition`);
  svg.append('text').attr('class', 'axis-label').attr('transform', `translate(14,${margin.top + innerH / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').text('RU/s');
  svg.append('text').attr('class', 'axis-label').attr('x', margin.left + innerW / 2).attr('y', height - 4)
    .attr('text-anchor', 'middle').text('physical partitions');
}
