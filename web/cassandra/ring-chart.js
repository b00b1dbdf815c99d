// The token ring and the per-node load, D3 pictures that are pure functions of a CqlView's
// objects (protocol.js: view.ring, view.layout, view.cosmos) and a container element, in the
// style of charts.js: colours from CSS classes (light and dark themes), text with .text(), a
// <title> on every mark, and a table view next to each picture (cql-view.js fills those).
//
// Tokens are 64-bit: they arrive as decimal strings. Every range, share and replica position is
// the engine's (ring.tokens[i].start/share, owner_buckets, a partition's replica_vnodes); only the
// angle of a token goes through a Number here (monotone, so the order of marks never inverts).
//
//   renderRing(element, {ring, layout, selected, cosmos, onSelect});
//   renderLoadChart(element, rows, {label});
import {frame} from '../common/charts.js';
import {formatBytes, formatInt, formatPercent, truncate} from '../common/format.js';

const d3 = () => {
  if (!globalThis.d3) throw new Error('D3 did not load (vendor/d3.min.js).');
  return globalThis.d3;
};

const TWO_63 = 2 ** 63; // lint-ok: the Murmur3 token space
const TWO_64 = 2 ** 64; // lint-ok: the Murmur3 token space
/** Colours cycle through this many CSS classes (node-c0 .. node-c9, charts.css). */
export const PALETTE_SIZE = 10;

/** Where a token (a decimal string) sits on the ring, as a fraction of the turn from −2^63 clockwise. */
const tokenFraction = (token) => (Number(token) + TWO_63) / TWO_64;
const angleOf = (token) => tokenFraction(token) * 2 * Math.PI;

/**
 * The vnode token ranges as the engine gives them (CqlSession.ring): range i is
 * (tokens[i].start, tokens[i].token], owned by tokens[i].node. Each {index, start, end, node, fraction}.
 */
export function vnodeRanges(ring) {
  return (ring?.tokens ?? []).map((t, i) => ({index: i, start: t.start, end: t.token, node: t.node, fraction: t.share}));
}

/**
 * Where each replica of the selection sits: the vnode at which the engine's replica walk picked
 * it (selected.replica_vnodes). [{node, rank (1 = primary), token}] in replica order.
 */
function replicaMarks(ring, selected) {
  const tokens = ring?.tokens ?? [];
  const vnodes = selected?.replica_vnodes ?? [];
  return vnodes.map((v, i) => ({node: tokens[v]?.node ?? selected.replicas?.[i], rank: i + 1, token: tokens[v]?.token ?? null}));
}

export const nodeClass = (i) => `node-c${((i % PALETTE_SIZE) + PALETTE_SIZE) % PALETTE_SIZE}`;

/** The arcs to draw: every vnode range, or (ring.owner_buckets) equal slices coloured by their owner. */
function ringArcs(ring) {
  const buckets = ring?.owner_buckets;
  if (!buckets) {
    const ranges = vnodeRanges(ring);
    return ranges.map((r) => {
      const a1 = angleOf(r.end);
      return {...r, a0: a1 - r.fraction * 2 * Math.PI, a1};  // the first range wraps past −2^63
    });
  }
  const arcs = [];
  buckets.forEach((owner, b) => {
    const a0 = (b / buckets.length) * 2 * Math.PI;
    const a1 = ((b + 1) / buckets.length) * 2 * Math.PI;
    const last = arcs[arcs.length - 1];
    if (last && last.node === owner) last.a1 = a1;
    else arcs.push({node: owner, a0, a1, bucketed: true});
  });
  return arcs;
}

function keyText(key) {
  return (key ?? []).length > 1 ? `(${key.join(', ')})` : String(key?.[0] ?? '');
}

/**
 * The token ring: the vnode ranges as arcs coloured per node (or, with `cosmos`, the physical
 * partitions of the Cosmos DB Cassandra API as even token slices), the partitions of
 * `layout` as dots at their token, and the `selected` partition ({token, key, replicas}) with
 * its replicas marked where the replica walk finds them (1 = primary). `onSelect(partition)` is
 * called when a dot is clicked. `marked` partitions ({token, key, table}: a batch's) get a diamond
 * outside the ring at their token.
 */
export function renderRing(container, {ring, layout = null, selected = null, cosmos = null, marked = [], onSelect,
                                       label = 'Token ring'} = {}) {
  const width0 = Math.max(320, Math.floor(container.clientWidth || 560));
  const height = Math.min(560, Math.max(320, width0));
  const {svg, width} = frame(container, height, 320);
  const cx = width / 2;
  const cy = height / 2;
  const R = Math.min(width, height) / 2 - 44;
  const band = Math.max(12, Math.min(22, R * 0.1));
  const nodes = ring?.nodes ?? [];
  const tokens = ring?.tokens ?? [];
  const partitions = layout?.partitions ?? [];
  const replicaSet = new Set(cosmos ? [] : selected?.replicas ?? []);
  // The caller passes the selection's physical range as the engine placed it (selected.physicalRange).
  const selectedRange = cosmos && selected ? selected.physicalRange ?? null : null;

  const summary = cosmos
    ? `${label}: the Cosmos DB Cassandra API model, ${formatInt(cosmos.physical_partitions)} physical ` +
      `partition${cosmos.physical_partitions === 1 ? '' : 's'}, each an even slice of the token range`
    : `${label}: ${formatInt(nodes.length)} node${nodes.length === 1 ? '' : 's'} with ` +
      `${formatInt(ring?.num_tokens ?? 0)} vnode token${ring?.num_tokens === 1 ? '' : 's'} each`;
  svg.attr('aria-label', `${summary}; ${formatInt(partitions.length)} partition${partitions.length === 1 ? '' : 's'} drawn` +
    (selected ? `; selected partition ${keyText(selected.key)} at token ${selected.token}` : '') +
    (marked.length ? `; ${formatInt(marked.length)} partition${marked.length === 1 ? '' : 's'} of a batch marked` : '') +
    '. The table views below list the same data.');
  svg.append('title').text(label);
  const g = svg.append('g').attr('transform', `translate(${cx},${cy})`);
  const arc = d3().arc();

  // The token axis: −2^63 at the top, 0 at the bottom, clockwise.
  const marks = [
    {f: 0, text: '−2⁶³ | 2⁶³−1'}, {f: 0.25, text: '−2⁶²'}, {f: 0.5, text: '0'}, {f: 0.75, text: '2⁶²'},
  ];
  const axis = g.append('g').attr('class', 'ring-axis');
  axis.append('circle').attr('class', 'ring-track').attr('r', R - band / 2);
  for (const m of marks) {
    const a = m.f * 2 * Math.PI;
    const x = Math.sin(a);
    const y = -Math.cos(a);
    axis.append('line').attr('x1', x * (R + 2)).attr('y1', y * (R + 2)).attr('x2', x * (R + 10)).attr('y2', y * (R + 10));
    axis.append('text').attr('x', x * (R + 16)).attr('y', y * (R + 16) + 4)
      .attr('text-anchor', Math.abs(x) < 0.1 ? 'middle' : x > 0 ? 'start' : 'end').text(m.text); // lint-ok: label placement
  }

  if (cosmos) {
    const ranges = cosmos.ranges ?? [];
    const arcs = g.append('g').attr('class', 'ring-arcs').selectAll('path').data(ranges).join('path')
      .attr('class', (r) => `vnode-arc ${nodeClass(r.id)}${selectedRange ? (r.id === selectedRange.id ? ' replica' : ' dim') : ''}`)
      .attr('data-range', (r) => r.id)
      .attr('d', (r) => {
        const a0 = angleOf(r.min);
        let a1 = angleOf(r.max);
        if (ranges.length === 1) a1 = 2 * Math.PI;
        return arc({innerRadius: R - band, outerRadius: R, startAngle: a0, endAngle: a1, padAngle: ranges.length > 1 ? 0.004 : 0});
      });
    arcs.append('title').text((r) => `physical partition P${r.id}: tokens ${r.min} .. ${r.max}\n` +
      `${formatInt(r.partitions)} partitions, ${formatInt(r.rows)} rows, ${formatBytes(r.bytes)}`);
    // Labels in the middle of each slice, when there is room.
    if (ranges.length <= 24) { // lint-ok: drawing density
      g.append('g').attr('class', 'ring-labels').selectAll('text').data(ranges).join('text')
        .attr('class', 'arc-label')
        .attr('x', (r) => Math.sin(((r.id + 0.5) / ranges.length) * 2 * Math.PI) * (R - band - 14))
        .attr('y', (r) => -Math.cos(((r.id + 0.5) / ranges.length) * 2 * Math.PI) * (R - band - 14) + 4)
        .attr('text-anchor', 'middle').text((r) => `P${r.id}`);
    }
  } else {
    const arcs = ringArcs(ring);
    const paths = g.append('g').attr('class', 'ring-arcs').selectAll('path').data(arcs).join('path')
      .attr('class', (r) => `vnode-arc ${nodeClass(r.node)}${replicaSet.size ? (replicaSet.has(r.node) ? ' replica' : ' dim') : ''}`)
      .attr('data-node', (r) => r.node)
      .attr('d', (r) => arc({innerRadius: R - band, outerRadius: R, startAngle: r.a0, endAngle: r.a1}));
    paths.append('title').text((r) => {
      const node = nodes[r.node];
      const who = `${node?.name ?? `node ${r.node}`} (${node?.address ?? ''}, ${node?.datacenter ?? ''} ${node?.rack ?? ''})`;
      return r.bucketed ? `${who}: this part of the ring` : `${who}: tokens (${r.start}, ${r.end}]\n${formatPercent(r.fraction)} of the ring`;
    });
    // A tick at every vnode token (its node's colour), when they are not too dense.
    if (tokens.length <= 1024) { // lint-ok: drawing density
      g.append('g').attr('class', 'vnode-ticks').selectAll('line').data(tokens).join('line')
        .attr('class', (t) => `vnode-tick ${nodeClass(t.node)}`)
        .attr('x1', (t) => Math.sin(angleOf(t.token)) * (R + 1)).attr('y1', (t) => -Math.cos(angleOf(t.token)) * (R + 1))
        .attr('x2', (t) => Math.sin(angleOf(t.token)) * (R + 6)).attr('y2', (t) => -Math.cos(angleOf(t.token)) * (R + 6));
    }
  }

  // The partitions as dots, on three lanes so neighbours overlap less.
  const dotR = partitions.length > 1500 ? 1.6 : partitions.length > 300 ? 2.4 : 4; // lint-ok: drawing density
  const laneOf = (i) => (partitions.length > 40 ? i % 3 : 0); // lint-ok: drawing density
  const rDot = (i) => R - band - 10 - laneOf(i) * (dotR * 2 + 2);
  const colourOf = (p) => {
    if (cosmos) return nodeClass(p.physical_partition ?? 0);
    return nodeClass(p.replicas?.[0] ?? 0);
  };
  const isSelected = (p) => selected && p.token === selected.token && keyText(p.key) === keyText(selected.key);
  const dots = g.append('g').attr('class', 'partition-dots').selectAll('circle').data(partitions).join('circle')
    .attr('class', (p) => `partition-dot ${colourOf(p)}${isSelected(p) ? ' selected' : ''}`)
    .attr('data-token', (p) => p.token)
    .attr('cx', (p, i) => Math.sin(angleOf(p.token)) * rDot(i))
    .attr('cy', (p, i) => -Math.cos(angleOf(p.token)) * rDot(i))
    .attr('r', dotR)
    .on('click', (event, p) => onSelect?.({token: p.token, key: p.key, replicas: p.replicas, replica_vnodes: p.replica_vnodes,
                                            rows: p.rows, bytes: p.bytes}));
  dots.append('title').text((p) => `partition ${keyText(p.key)}\ntoken ${p.token}\n${formatInt(p.rows)} row${p.rows === 1 ? '' : 's'}, ` +
    `${formatBytes(p.bytes)}\nreplicas: ${(p.replicas ?? []).map((n) => nodes[n]?.name ?? n).join(', ')}`);

  if (marked.length) {
    const marks = g.append('g').attr('class', 'batch-marks').selectAll('g').data(marked).join('g')
      .attr('class', 'batch-mark').attr('data-token', (p) => p.token)
      .attr('transform', (p) => `translate(${Math.sin(angleOf(p.token)) * (R + 6)},${-Math.cos(angleOf(p.token)) * (R + 6)}) ` +
        `rotate(${(angleOf(p.token) * 180) / Math.PI})`);
    marks.append('path').attr('d', 'M0,-6 L5,0 L0,6 L-5,0 Z');
    marks.append('title').text((p) => `written by the batch: ${p.table} partition ${keyText(p.key)}, token ${p.token}`);
  }

  if (selected) {
    const a = angleOf(selected.token);
    const sx = Math.sin(a);
    const sy = -Math.cos(a);
    const mark = g.append('g').attr('class', 'selected-partition');
    // From outside the centre's text to the dot.
    const r0 = Math.min(R * 0.5, 84);
    mark.append('line').attr('class', 'selected-ray').attr('x1', sx * r0).attr('y1', sy * r0)
      .attr('x2', sx * (R - band - 4)).attr('y2', sy * (R - band - 4));
    mark.append('circle').attr('class', 'selected-dot').attr('cx', sx * (R - band - 10)).attr('cy', sy * (R - band - 10)).attr('r', 6.5)
      .append('title').text(`selected: ${keyText(selected.key)}, token ${selected.token}`);
    if (cosmos && selectedRange) {
      // The replica set of the physical partition (the engine's cosmos.replicas), drawn inside its slice.
      const ranges = cosmos.ranges;
      const a0 = angleOf(selectedRange.min);
      const a1 = selectedRange.id === ranges.length - 1 ? 2 * Math.PI : angleOf(selectedRange.max);
      const count = cosmos.replicas;
      const set = g.append('g').attr('class', 'replica-set');
      for (let k = 0; k < count; k++) {
        const t = a0 + ((k + 1) / (count + 1)) * (a1 - a0);
        const x = Math.sin(t) * (R + 20);
        const y = -Math.cos(t) * (R + 20);
        const m = set.append('g').attr('class', 'replica-marker').attr('data-rank', k + 1)
          .attr('transform', `translate(${x},${y})`);
        m.append('rect').attr('x', -8).attr('y', -8).attr('width', 16).attr('height', 16).attr('rx', 3);
        m.append('text').attr('y', 4).attr('text-anchor', 'middle').text(String(k + 1));
        m.append('title').text(`replica ${k + 1} of ${count} of physical partition P${selectedRange.id} (writes need a quorum of ${cosmos.quorum})`);
      }
    } else {
      const walk = replicaMarks(ring, selected);
      const markers = g.append('g').attr('class', 'replica-markers').selectAll('g').data(walk.filter((w) => w.token !== null)).join('g')
        .attr('class', (w) => `replica-marker ${nodeClass(w.node)}${w.rank === 1 ? ' primary' : ''}`)
        .attr('data-node', (w) => w.node).attr('data-rank', (w) => w.rank).attr('data-token', (w) => w.token)
        .attr('transform', (w) => `translate(${Math.sin(angleOf(w.token)) * (R + 20)},${-Math.cos(angleOf(w.token)) * (R + 20)})`);
      markers.append('circle').attr('r', 9);
      markers.append('text').attr('y', 4).attr('text-anchor', 'middle').text((w) => String(w.rank));
      markers.append('title').text((w) => `replica ${w.rank}${w.rank === 1 ? ' (primary)' : ''}: ${nodes[w.node]?.name ?? w.node}, ` +
        `found at its vnode token ${w.token} walking clockwise`);
    }
  }

  // The centre: what is drawn.
  const centre = g.append('g').attr('class', 'ring-centre');
  const lines = cosmos
    ? [`${formatInt(cosmos.physical_partitions)} physical partition${cosmos.physical_partitions === 1 ? '' : 's'}`,
       `${cosmos.replicas} replicas each, quorum ${cosmos.quorum}`]
    : [`${formatInt(nodes.length)} node${nodes.length === 1 ? '' : 's'} × ${formatInt(ring?.num_tokens ?? 0)} vnodes`,
       ring?.random_tokens ? 'random tokens' : 'evenly spaced tokens'];
  if (layout) {
    lines.push(truncate(layout.table ?? '', 34));
    lines.push(`${formatInt(layout.partition_count)} partition${layout.partition_count === 1 ? '' : 's'}, ${formatInt(layout.row_count)} rows`);
  }
  lines.forEach((text, i) => {
    centre.append('text').attr('class', i === 0 ? 'centre-title' : 'centre-sub').attr('text-anchor', 'middle')
      .attr('y', (i - (lines.length - 1) / 2) * 17 + 4).text(text);
  });
  if (layout && layout.partitions_scanned < layout.partition_count) {
    svg.append('text').attr('class', 'chart-note').attr('x', 8).attr('y', height - 8)
      .text(`Dots: the first ${formatInt(layout.partitions_scanned)} of ${formatInt(layout.partition_count)} partitions in token order` +
        (layout.sample_every > 1 ? `, every ${formatInt(layout.sample_every)}th` : ''));
  } else if (layout && layout.sample_every > 1) {
    svg.append('text').attr('class', 'chart-note').attr('x', 8).attr('y', height - 8)
      .text(`Dots: every ${formatInt(layout.sample_every)}th of ${formatInt(layout.partition_count)} partitions`);
  }
}

/**
 * Load per node (or physical partition): three small bar charts side by side — partitions, rows
 * and bytes held — one bar per row of `rows` ({label, index, partitions, rows, bytes,
 * highlighted}), coloured like the ring.
 */
export function renderLoadChart(container, rows, {label = 'Load per node', height: fixed} = {}) {
  const n = rows.length;
  const barH = n > 60 ? 3 : n > 24 ? 7 : 14; // lint-ok: drawing density
  const gap = n > 60 ? 1 : 4; // lint-ok: drawing density
  const margin = {top: 24, right: 12, bottom: 8, left: n > 60 ? 12 : 78}; // lint-ok: drawing density
  const height = fixed ?? Math.min(900, margin.top + margin.bottom + n * (barH + gap));
  const {svg, width} = frame(container, height, 320);
  svg.attr('aria-label', `${label}: ${formatInt(n)} bars per measure (partitions, rows, bytes). The table below lists the same numbers.`);
  svg.append('title').text(label);
  const metrics = [
    {key: 'partitions', title: 'partitions', format: formatInt},
    {key: 'rows', title: 'rows', format: formatInt},
    {key: 'bytes', title: 'bytes', format: formatBytes},
  ];
  const panelW = (width - margin.left - margin.right) / metrics.length;
  const y = (i) => margin.top + i * (barH + gap);
  if (n <= 60) { // lint-ok: drawing density
    svg.append('g').attr('class', 'load-labels').selectAll('text').data(rows).join('text')
      .attr('x', margin.left - 6).attr('y', (r, i) => y(i) + barH / 2 + 4).attr('text-anchor', 'end')
      .attr('class', (r) => (r.highlighted ? 'highlighted' : null))
      .text((r) => truncate(r.label, 12));
  }
  metrics.forEach((m, k) => {
    const x0 = margin.left + k * panelW;
    const max = d3().max(rows, (r) => r[m.key]) || 1;
    const x = d3().scaleLinear().domain([0, max]).range([0, panelW - 58]);
    const panel = svg.append('g').attr('class', `load-panel load-${m.key}`).attr('transform', `translate(${x0},0)`);
    panel.append('text').attr('class', 'axis-label').attr('x', 0).attr('y', 14).text(m.title);
    const bars = panel.selectAll('g').data(rows).join('g').attr('class', (r) => `load-bar${r.highlighted ? ' highlighted' : ''}`)
      .attr('transform', (r, i) => `translate(0,${y(i)})`);
    bars.append('rect').attr('class', (r) => `bar ${nodeClass(r.index)}`).attr('width', (r) => Math.max(r[m.key] > 0 ? 1 : 0, x(r[m.key])))
      .attr('height', barH);
    if (barH >= 7) {
      bars.append('text').attr('class', 'bar-value').attr('x', (r) => x(r[m.key]) + 4).attr('y', barH / 2 + 4)
        .text((r) => m.format(r[m.key]));
    }
    bars.append('title').text((r) => `${r.label}: ${m.format(r[m.key])} ${m.title}`);
  });
}
