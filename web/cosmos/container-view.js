// The container sections of the page (findings, container, workload, growth, synthetic keys, key
// advisor): functions that fill their elements from a report (docs/report.md, report.container,
// report.advisor, report.synthetic). No engine work and no state: app.js decides what to show and
// passes handlers for the few controls drawn here (advisor rows). Text from the data goes in as
// text only.
import {limitText, limitValue} from '../common/limits.js';
import {renderDemandChart, renderPartitionMap, epkRangeText, formatRu, shortEpk, splitParents} from './container-charts.js';
import {capacityLines} from './capacity-lines.js';
import {fillTable, h, keyNode, scopedById, scopedByTestId, setFigure} from '../common/dom.js';
import {formatBytes, formatDecimal, formatInt, formatKey, formatPercent, plural} from '../common/format.js';

const RU_PER_PHYSICAL = 'cosmos_physical_partition_ru_per_second';
const BYTES_PER_PHYSICAL = 'cosmos_physical_partition_bytes';
const INITIAL_MANUAL = 'cosmos_manual_initial_ru_per_partition';
const INITIAL_AUTOSCALE = 'cosmos_autoscale_initial_ru_per_partition';
const BYTES_PER_LOGICAL = 'cosmos_logical_partition_bytes';


/** The physical partition (range) holding `epk`: min <= epk < max, compared ordinally ("FF" ends the space). */
export function rangeOf(epk, ranges) {
  if (typeof epk !== 'string' || !ranges) return null;
  return ranges.find((r) => epk >= r.min && (r.max === 'FF' || r.max === '' || epk < r.max)) ?? null;
}

/** The engine's storage balance of a layout: {max_over_mean (1 = even), verdict, level}. */
const storageBalance = (layout) => layout.storage_balance;

function keyList(keys, {max = 8} = {}) {
  const wrap = h('span', {className: 'key-list'});
  keys.slice(0, max).forEach((k, i) => {
    if (i > 0) wrap.append(', ');
    wrap.append(keyNode(k, {max: 60}));
  });
  if (keys.length > max) wrap.append(` and ${formatInt(keys.length - max)} more`);
  return wrap;
}

// ---------------------------------------------------------------------------------------------
// Findings.

const SEVERITY = {
  error: {icon: '✖', label: 'Error'},
  warning: {icon: '⚠', label: 'Warning'},
  info: {icon: 'ℹ', label: 'Note'},
};

const ITEMS_SHOWN = 10;

function findingItemsTable(items) {
  const table = h('table', {className: 'finding-items'});
  const has = (field) => items.some((x) => x[field] !== undefined && x[field] !== null && x[field] !== '');
  const head = [{label: 'item', num: true}, {label: 'line', num: true}, {label: 'column', num: true},
                {label: 'byte offset', num: true}];
  if (has('bytes')) head.push({label: 'bytes', num: true});
  if (has('type')) head.push({label: 'found'});
  fillTable(table, head, items.map((x) => {
    const row = [`#${formatInt(x.item_index)}`, formatInt(x.line), formatInt(x.column), formatInt(x.byte_offset)];
    if (has('bytes')) row.push(x.bytes != null ? formatBytes(x.bytes) : '');
    if (has('type')) row.push(x.type ?? '');
    return row;
  }));
  table.querySelectorAll('tbody tr').forEach((tr, i) => {
    const x = items[i];
    tr.dataset.testid = 'finding-item';
    tr.dataset.itemIndex = String(x.item_index);
    tr.dataset.line = String(x.line);
    tr.dataset.column = String(x.column);
    tr.dataset.byteOffset = String(x.byte_offset);
  });
  return table;
}

export function renderFindings(root, report) {
  const byId = scopedById(root);
  // The container model's findings (engine); without a container the insights say what there is.
  const findings = report.container?.findings ?? [];
  const list = byId('findings');
  byId('findings-empty').hidden = findings.length > 0;
  const order = {error: 0, warning: 1, info: 2};
  const sorted = [...findings].sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3));
  list.replaceChildren(...sorted.map((f) => {
    const sev = SEVERITY[f.severity] ?? SEVERITY.info;
    const li = h('li', {className: `finding ${f.severity}`, testid: 'finding'});
    li.dataset.code = f.code;
    li.dataset.severity = f.severity;
    li.dataset.count = String(f.count ?? 0);
    const head = h('div', {className: 'finding-head'}, [
      h('span', {className: `severity ${f.severity}`, text: `${sev.icon} ${sev.label}`}),
      h('code', {className: 'finding-code', text: f.code}),
      h('span', {className: 'finding-count', text: f.count ? `${formatInt(f.count)}×` : ''}),
    ]);
    li.append(head, h('p', {className: 'finding-message', text: f.message}));
    if (f.code === 'logical_partition_over_20gb' && report.key_paths?.length > 1) {
      li.append(h('p', {className: 'hint', text: 'With a hierarchical key only the full key (all levels together) is ' +
        `bounded by ${limitText(BYTES_PER_LOGICAL)}; a prefix such as the first level alone may hold more.`}));
    }
    if (f.keys?.length) {
      li.append(h('p', {className: 'finding-keys'}, [h('span', {text: 'Partitions: '}), keyList(f.keys)]));
    }
    const items = f.items ?? [];
    if (items.length) {
      li.append(findingItemsTable(items.slice(0, ITEMS_SHOWN)));
      if (items.length > ITEMS_SHOWN) {
        const more = h('details', {className: 'finding-more'}, [
          h('summary', {text: `${formatInt(items.length - ITEMS_SHOWN)} more located item${items.length - ITEMS_SHOWN === 1 ? '' : 's'}` +
            (f.count > items.length ? ` (the first ${formatInt(items.length)} of ${formatInt(f.count)} are kept)` : '')}),
          findingItemsTable(items.slice(ITEMS_SHOWN)),
        ]);
        li.append(more);
      }
    }
    return li;
  }));
}

// ---------------------------------------------------------------------------------------------
// Range tables (the table view of every chart).

/** Fills `table` with one row per physical partition of `layout`. */
export function fillRangesTable(table, layout, {route = null, caption} = {}) {
  const routed = new Set(route?.range_ids ?? []);
  const head = [
    {label: 'physical partition'}, {label: 'EPK min', className: 'epk'}, {label: 'EPK max', className: 'epk'},
    {label: 'logical partitions', num: true}, {label: 'items', num: true}, {label: 'bytes', num: true},
    {label: 'RU/s share', num: true}, {label: 'demand RU/s', num: true}, {label: 'throttled (429)', num: true},
    {label: 'largest logical partitions'},
  ];
  const rows = (layout?.ranges ?? []).map((r) => {
    const tops = [...(r.top ?? [])].sort((a, b) => b.bytes - a.bytes).slice(0, 3);
    const tops_ = h('span', {className: 'key-list'});
    tops.forEach((p, i) => {
      if (i > 0) tops_.append(', ');
      tops_.append(keyNode(p.key, {max: 40}), ` ${formatBytes(p.bytes)}${p.hot ? ' HOT' : ''}`);
    });
    if ((r.top?.length ?? 0) + (r.others_partitions ?? 0) > tops.length) {
      tops_.append(` … ${formatInt((r.top?.length ?? 0) + (r.others_partitions ?? 0) - tops.length)} more`);
    }
    return [`P${r.id}${routed.has(r.id) ? ' ◆ query' : ''}`, r.min === '' ? '""' : r.min, r.max,
            formatInt(r.logical_partitions), formatInt(r.items), formatBytes(r.bytes), formatRu(r.ru_share),
            formatRu(r.demand_ru), formatPercent(r.throttled_fraction ?? 0), tops_];
  });
  fillTable(table, head, rows, {caption});
  table.querySelectorAll('tbody tr').forEach((tr, i) => {
    const r = layout.ranges[i];
    tr.dataset.range = String(r.id);
    tr.dataset.bytes = String(r.bytes);
    tr.dataset.demand = String(r.demand_ru ?? 0);
    tr.dataset.throttled = String(r.throttled_fraction ?? 0);
    if (routed.has(r.id)) tr.classList.add('routed');
  });
}

// ---------------------------------------------------------------------------------------------
// Container: physical partitions, map, routing.

const HASH_HINTS = {
  '1': 'V1 (classic): MurmurHash3 32-bit of the first key value only; strings are cut to 100 characters before hashing.',
  '2': 'V2: MurmurHash3 128-bit of the whole typed key value; long strings hash in full.',
  multihash: 'MultiHash (hierarchical key): each level hashed with V2 and the hashes joined, so a prefix of the key ' +
    'is one contiguous EPK range.',
};

/**
 * "A container created with 18,000 RU/s (manual) needs 3 physical partitions (6,000 RU/s each at
 * creation; 10,000 RU/s each at most); 1.2 GB needs 1 (50 GB each)." The count is the engine's
 * creation rule (partitions_at_creation); a report without it (no creation rule) says
 * ⌈RU/s ÷ 10,000⌉.
 */
export function physicalExplanation(c, layout) {
  const ru = layout.ru_per_second ?? c.ru_per_second;
  const created = layout.created_ru_per_second || ru;
  const atCreation = layout.partitions_at_creation;
  const forStorage = layout.partitions_for_storage;
  const n = layout.ranges.length;
  const autoscale = layout.throughput_mode ? layout.throughput_mode === 'autoscale' : c.autoscale;
  let text;
  if (atCreation && layout.throughput_mode !== 'serverless') {
    const initial = autoscale ? INITIAL_AUTOSCALE : INITIAL_MANUAL;
    const ruText = autoscale
      ? `A container created with autoscale up to ${formatRu(created)} RU/s (partitions are sized for the maximum)`
      : `A container created with ${formatRu(created)} RU/s (manual)`;
    text = `${ruText} needs ${plural(atCreation, 'physical partition')} (${limitText(initial)} each at creation; ` +
      `${limitText(RU_PER_PHYSICAL)} each at most); ` +
      `${formatBytes(layout.storage_bytes)} needs ${formatInt(forStorage)} (${limitText(BYTES_PER_PHYSICAL)} each).`;
    if (created !== ru) text += ` It is now set to ${formatRu(ru)} RU/s.`;
  } else {
    const ruText = autoscale
      ? `Autoscale up to ${formatRu(ru)} RU/s (partitions are sized for the maximum)`
      : `${formatRu(ru)} RU/s`;
    text = `${ruText} needs ${plural(layout.partitions_for_throughput, 'physical partition')} (${limitText(RU_PER_PHYSICAL)} each at most); ` +
      `${formatBytes(layout.storage_bytes)} needs ${formatInt(forStorage)} (${limitText(BYTES_PER_PHYSICAL)} each).`;
  }
  const need = Math.max(layout.partitions_needed, atCreation ?? 0);
  if (n === need) {
    text += ` So the container has ${plural(n, 'physical partition')}, ${formatRu(n ? (layout.ranges[0].ru_share) : 0)} RU/s each.`;
  } else {
    text += ` The container has ${plural(n, 'physical partition')} (${formatInt(need)} needed; midpoint splits can leave more), ` +
      `${formatRu(n ? layout.ranges[0].ru_share : 0)} RU/s each.`;
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Capacity: the service's throughput rules applied to this container (report.container.before:
// change, instant maximum, minimum, autoscale billing, burst; ru_needed; redistribution).

/** The capacity lines and, when the workload throttles, the redistribution commands. */
export function renderCapacity(root, report) {
  const byTestId = scopedByTestId(root);
  const list = byTestId('capacity-lines');
  if (!list) return;
  const c = report.container;
  list.replaceChildren(...capacityLines(c).map(({testid, text}) => h('li', {testid, text})));
  const merge = byTestId('merge-commands');
  merge.hidden = !c.merge?.eligible;
  if (!merge.hidden) {
    byTestId('merge-cli').textContent = c.merge.azure_cli;
    byTestId('merge-ps').textContent = c.merge.powershell;
  }
  const red = c.redistribution;
  const commands = byTestId('redistribution-commands');
  commands.hidden = !(red?.judged && red.possible);
  if (commands.hidden) return;
  byTestId('redistribution-cli').textContent = (red.azure_cli ?? []).join('\n');
  byTestId('redistribution-ps').textContent = red.powershell ?? '';
  commands.dataset.total = String(red.total_ru_per_second);
}

/** Where the routed query goes after growing, when that differs: " After growing: P3 and P4." */
function routeAfterText(route, after) {
  if (!route || !after) return '';
  const ids = route.range_ids ?? [];
  return ` After growing (${formatInt(after.ranges.length)} physical partitions, new ids for split children): ` +
    `${ids.length === after.ranges.length ? `all ${formatInt(ids.length)}` : ids.map((id) => `P${id}`).join(', ')}.`;
}

function routeText(route, ranges) {
  if (!route) return '';
  const ids = route.range_ids ?? [];
  const list = ids.map((id) => `P${id}`).join(', ');
  const key = formatKey(route.filter);
  switch (route.kind) {
    case 'single':
      return `A query for ${key} goes to one physical partition: ${list} (its EPK ${shortEpk(route.epk_min, 12)} lies in ` +
        `${epkRangeText(ranges.find((r) => r.id === ids[0]) ?? {min: '', max: 'FF'}, 6)}).`;
    case 'range':
      return `The prefix ${key} covers the EPK range [${shortEpk(route.epk_min, 8)}, ${shortEpk(route.epk_max, 8)}): ` +
        `the query touches ${plural(ids.length, 'physical partition')} of ${formatInt(ranges.length)} (${list}).`;
    case 'all':
    default:
      return `The query touches all ${plural(ids.length, 'physical partition')} (a cross-partition query).`;
  }
}

export function renderContainer(root, report, {mapEl, showRoute = true}) {
  const byTestId = scopedByTestId(root);
  const c = report.container;
  // A report modelled with a route that has since been cleared (another key on show) shows none.
  const route = showRoute ? c.route : null;
  const layout = c.before;
  const n = layout.ranges.length;
  setFigure(byTestId('physical-count'), formatInt(n), n);
  byTestId('physical-count-sub').textContent = (layout.partitions_at_creation ? `${formatInt(layout.partitions_at_creation)} at creation, ` : '') +
    `${formatInt(layout.partitions_for_throughput)} for throughput, ${formatInt(layout.partitions_for_storage)} for storage`;
  const share = n ? layout.ranges[0].ru_share : 0;
  setFigure(byTestId('physical-share'), formatRu(share), share);
  const largest = layout.ranges.reduce((a, r) => (!a || r.bytes > a.bytes ? r : a), null);
  setFigure(byTestId('physical-largest'), largest ? formatBytes(largest.bytes) : '–', largest?.bytes ?? 0,
            {level: largest && largest.bytes > limitValue(BYTES_PER_PHYSICAL) ? 'bad' : ''});
  byTestId('physical-largest-sub').textContent = largest
    ? `P${largest.id}: ${plural(largest.logical_partitions, 'logical partition')}` : '';
  const balance = storageBalance(layout);
  setFigure(byTestId('physical-balance'), formatDecimal(balance.max_over_mean), balance.max_over_mean,
            {level: balance.level, title: balance.verdict});
  byTestId('physical-balance').dataset.verdict = balance.verdict;
  byTestId('physical-balance-verdict').textContent = `${balance.verdict} (1.00 = perfectly balanced)`;
  const explain = byTestId('physical-explain');
  explain.textContent = physicalExplanation(c, layout);
  explain.dataset.ranges = String(n);
  explain.dataset.forThroughput = String(layout.partitions_for_throughput);
  explain.dataset.forStorage = String(layout.partitions_for_storage);
  renderCapacity(root, report);

  byTestId('hash-hint').textContent = HASH_HINTS[c.hash_version] ?? '';
  const ruHint = byTestId('ru-hint');
  if (c.serverless) {
    ruHint.textContent = 'Serverless: no provisioned RU/s; the service sets the capacity by the data stored (see below).';
  } else if (c.autoscale) {
    ruHint.textContent = `Autoscale scales between ${formatRu(c.autoscale_min_ru_per_second)} RU/s (10% of the maximum) and ` +
      `${formatRu(c.ru_per_second)} RU/s; the physical partitions are sized for the maximum. The lowest maximum it can be ` +
      `set to: ${formatRu(Math.ceil(layout.minimum_ru_per_second))} RU/s.`;
  } else {
    ruHint.textContent = 'Manual throughput: the container always has this many RU/s, shared evenly by its physical partitions. ' +
      `The lowest it can be set to: ${formatRu(Math.ceil(layout.minimum_ru_per_second))} RU/s.`;
  }

  renderPartitionMap(mapEl, layout, {route, label: 'Logical to physical partition map'});
  fillRangesTable(byTestId('map-table'), layout, {route, caption: 'Physical partitions of the container'});

  const result = byTestId('route-result');
  result.textContent = route ? routeText(route, layout.ranges) + routeAfterText(c.route_after, c.after)
    : 'No query routed: enter a key value above.';
  result.dataset.kind = route?.kind ?? '';
  result.dataset.ranges = route ? JSON.stringify(route.range_ids ?? []) : '';
}

// ---------------------------------------------------------------------------------------------
// Workload and hot partitions.

export function renderWorkload(root, report, {demandEl}) {
  const byTestId = scopedByTestId(root);
  const c = report.container;
  const layout = c.before;
  const w = c.workload ?? {};
  setFigure(byTestId('demand-total'), `${formatRu(layout.demand_ru)} RU/s`, layout.demand_ru ?? 0,
            {level: (layout.demand_ru ?? 0) > (layout.ru_per_second ?? c.ru_per_second) ? 'warn' : ''});
  byTestId('demand-total-sub').textContent =
    `${formatInt(w.point_reads_per_second ?? 0)} reads/s, ${formatInt(w.writes_per_second ?? 0)} writes/s, ` +
    `${formatInt(w.queries_per_second ?? 0)} queries/s against ${formatRu(layout.ru_per_second ?? c.ru_per_second)} RU/s; ` +
    (w.spread === 'zipf' ? `Zipf spread, s = ${w.zipf_exponent}`
      : w.spread === 'field' ? `spread in proportion to ${report.weight_path || 'a field'}` : 'spread uniformly over items');
  byTestId('demand-total-sub').dataset.spread = w.spread ?? '';
  // Throttling is judged only against request rates the user gave.
  const noWorkload = !(w.point_reads_per_second > 0 || w.writes_per_second > 0 || w.queries_per_second > 0);
  if (noWorkload) {
    byTestId('demand-total-sub').textContent = 'No request rates given: enter the reads, writes and queries per ' +
      'second your application makes to see the demand per physical partition and any throttling.';
  }
  byTestId('demand-total-sub').dataset.workload = noWorkload ? 'none' : 'given';
  const throttled = layout.throttled_fraction ?? 0;
  setFigure(byTestId('throttled-total'), formatPercent(throttled), throttled, {level: layout.throttled_level});
  const hot = c.hot ?? [];
  const hotOnes = hot.filter((p) => p.hot);
  setFigure(byTestId('hot-count'), formatInt(hotOnes.length), hotOnes.length, {level: hotOnes.length ? 'bad' : ''});

  // Why: one key alone over its partition's share cannot be helped by a split.
  const cause = byTestId('hot-cause');
  const over = layout.ranges.filter((r) => r.throttled_fraction > 0);
  if (hotOnes.length) {
    const first = hotOnes[0];
    const range = rangeOf(first.epk, layout.ranges);
    const limit = first.demand_ru > limitValue(RU_PER_PHYSICAL)
      ? ` It is even more than the ${limitText(RU_PER_PHYSICAL)} any physical partition can serve.` : '';
    cause.replaceChildren(
      h('strong', {text: 'A single hot key is the cause. '}),
      'The logical partition ', keyNode(first.key),
      ` alone needs ${formatRu(first.demand_ru)} RU/s, more than the ${formatRu(range?.ru_share ?? 0)} RU/s share of ` +
      `its physical partition${range ? ` P${range.id}` : ''}.${limit} Splitting cannot help: a split moves whole logical ` +
      'partitions, so one key\'s requests always land on one physical partition. Only a key with more values can spread ' +
      'them, such as a synthetic key (section 10).' +
      (hotOnes.length > 1 ? ` ${formatInt(hotOnes.length - 1)} more key${hotOnes.length === 2 ? ' is' : 's are'} hot too.` : ''));
    cause.className = 'callout bad';
    cause.dataset.cause = 'single_key';
    cause.hidden = false;
  } else if (over.length) {
    const one = over.length === 1;
    const busiest = over.flatMap((r) => r.top ?? []).sort((a, b) => b.demand_ru - a.demand_ru).slice(0, 3);
    const names = [];
    busiest.forEach((p, i) => {
      if (i > 0) names.push(', ');
      names.push(keyNode(p.key, {max: 50}), ` ${formatRu(p.demand_ru)} RU/s`);
    });
    cause.replaceChildren(`${plural(over.length, 'physical partition')} (${over.map((r) => `P${r.id}`).join(', ')}) ` +
      `${one ? 'gets' : 'get'} more requests than ${one ? 'its' : 'their'} share, but no single key does: several keys ` +
      'together are too much', ...(names.length ? [' (the busiest: ', ...names, ')'] : []),
      '. More throughput, or the splits it brings, spreads them over more physical partitions.');
    cause.className = 'callout warn';
    cause.dataset.cause = 'several_keys';
    cause.hidden = false;
  } else {
    cause.hidden = true;
    cause.dataset.cause = '';
  }

  renderDemandChart(demandEl, layout);
  fillRangesTable(byTestId('demand-table'), layout, {caption: 'RU/s demand per physical partition'});

  // The hot keys first, then the busiest of the others, so the hottest keys are named either way.
  const listed = [...hot];
  const seen = new Set(hot.map((p) => `${p.epk} ${formatKey(p.key)}`));
  const busiest = layout.ranges.flatMap((r) => r.top ?? []).filter((p) => p.demand_ru > 0)
    .sort((a, b) => b.demand_ru - a.demand_ru);
  for (const p of busiest) {
    if (listed.length >= 10) break;
    const id = `${p.epk} ${formatKey(p.key)}`;
    if (!seen.has(id)) {
      seen.add(id);
      listed.push(p);
    }
  }
  const status = (p) => {
    const range = rangeOf(p.epk, layout.ranges);
    const where = range ? `P${range.id}` : '';
    if (p.hot) return h('span', {className: 'badge bad', text: `▲ HOT: over ${where ? `${where}'s` : 'its'} share`});
    if (range?.throttled_fraction > 0) {
      // The key itself is within its share: it is throttled with everything else on a busy partition.
      return h('span', {className: 'badge warn', text: `on busy ${where}: ${formatPercent(range.throttled_fraction)} throttled`,
                        title: `This key asks for no more than its share; ${where} as a whole gets more requests than its ` +
                          `share, so ${formatPercent(range.throttled_fraction)} of every request on it, this key's too, is throttled (429)`});
    }
    return h('span', {className: 'badge ok', text: `${where ? `${where}, ` : ''}within share`});
  };
  const rows = byTestId('hot-rows');
  rows.replaceChildren(...listed.slice(0, 20).map((p) => {
    const tr = h('tr', {}, [
      h('td', {}, [keyNode(p.key)]),
      h('td', {className: 'num', text: formatRu(p.demand_ru)}),
      h('td', {className: 'num', text: formatInt(p.items)}),
      h('td', {className: 'num', text: formatBytes(p.bytes), title: `${formatInt(p.bytes)} bytes`}),
      h('td', {className: 'epk', text: shortEpk(p.epk, 10), title: p.epk}),
      h('td', {}, [status(p)]),
    ]);
    tr.dataset.key = formatKey(p.key);
    tr.dataset.hot = String(!!p.hot);
    tr.dataset.demand = String(p.demand_ru);
    return tr;
  }));
  if (listed.length === 0) {
    rows.append(h('tr', {}, [Object.assign(h('td', {text: 'No requests: set a workload above.'}), {colSpan: 6})]));
  }

  const costs = c.costs_table ?? [];
  fillTable(byTestId('cost-table'), [
    {label: 'item size', num: true}, {label: 'point read RU', num: true}, {label: 'write RU', num: true},
  ], costs.map((row) => [formatBytes(row.kb * 1024), formatDecimal(row.read_ru), formatDecimal(row.write_ru)]),
  {caption: 'Published request charges per item size'});
}

// ---------------------------------------------------------------------------------------------
// Growth and splits.

export function renderGrowth(root, report, {beforeEl, afterEl, showRoute = true}) {
  const byId = scopedById(root);
  const byTestId = scopedByTestId(root);
  const c = report.container;
  const summary = byTestId('growth-summary');
  const block = byId('splits-block');
  const pictures = byTestId('before-after');
  const afterTable = byTestId('after-table-view');
  const cannot = byTestId('split-cannot-help');
  const before = c.before;
  const after = c.after;
  summary.dataset.before = String(before.ranges.length);
  if (!after) {
    summary.textContent = 'No growth yet: set the data factor above 1 or the RU/s after growing.';
    summary.dataset.after = String(before.ranges.length);
    summary.dataset.splits = '0';
    block.hidden = true;
    pictures.hidden = true;
    afterTable.hidden = true;
  } else {
    const splits = c.splits ?? [];
    const byReason = (reason) => splits.filter((s) => s.reason === reason).length;
    const ruChange = (after.ru_per_second ?? 0) !== (before.ru_per_second ?? 0)
      ? `, RU/s ${formatRu(before.ru_per_second)} → ${formatRu(after.ru_per_second)}` : '';
    summary.textContent = `Data ×${formatInt(c.growth)} (${formatBytes(before.storage_bytes)} → ${formatBytes(after.storage_bytes)})` +
      `${ruChange}: ${plural(before.ranges.length, 'physical partition')} → ${formatInt(after.ranges.length)}, ` +
      (splits.length
        ? `${plural(splits.length, 'split')} (${formatInt(byReason('storage'))} for storage, ${formatInt(byReason('throughput'))} for throughput).`
        : 'no split needed.');
    summary.dataset.after = String(after.ranges.length);
    summary.dataset.splits = String(splits.length);
    // A logical partition past 20 GB after growth: no split can move part of one, so say it here.
    const breach = (c.findings ?? []).find((f) => f.code === 'logical_partition_over_20gb');
    summary.dataset.over20gb = String(breach?.count ?? 0);
    summary.classList.toggle('bad', !!breach);
    if (breach) {
      summary.textContent += ` ${breach.message} Cosmos DB refuses writes to it past ${limitText(BYTES_PER_LOGICAL)}, and ` +
        'no split can help: a logical partition never spans physical partitions (outlined in red on the "after" map).';
    }
    pictures.hidden = false;
    afterTable.hidden = false;
    // Each picture on its own scale (the grown data dwarfs the original); the axes say how much.
    renderPartitionMap(beforeEl, before, {label: 'Layout before growing', height: 300, fit: true});
    renderPartitionMap(afterEl, after, {label: 'Layout after growing', height: 300, fit: true, route: showRoute ? c.route_after ?? null : null,
                                        parents: splitParents(splits)});
    fillRangesTable(byTestId('after-table'), after, {caption: 'Physical partitions after growing', route: showRoute ? c.route_after ?? null : null});

    block.hidden = splits.length === 0;
    byTestId('split-rows').replaceChildren(...splits.map((s) => {
      const tr = h('tr', {}, [
        h('td', {text: `P${s.parent}`}),
        h('td', {text: `P${s.left} + P${s.right}`}),
        h('td', {}, [h('span', {className: `badge ${s.reason === 'storage' ? 'warn' : 'info'}`,
                                text: s.reason === 'storage' ? `storage over ${limitText(BYTES_PER_PHYSICAL)}` : 'throughput'})]),
        h('td', {className: 'num', text: `${formatInt(s.moved_to_left)} / ${formatInt(s.moved_to_right)}`}),
        h('td', {className: 'num', text: `${formatBytes(s.bytes_left)} / ${formatBytes(s.bytes_right)}`}),
      ]);
      tr.dataset.testid = 'split-row';
      tr.dataset.reason = s.reason;
      tr.dataset.parent = String(s.parent);
      return tr;
    }));
    const moved = c.moved ?? {count: 0, examples: []};
    const movedSummary = byTestId('moved-summary');
    const intoChildren = moved.into_split_children ?? 0;
    const elsewhere = (moved.count ?? 0) - intoChildren;
    const parents = splitParents(splits);
    const descends = (to, from) => {
      for (let id = to, hops = 0; parents.has(id) && hops <= splits.length; hops++) {
        id = parents.get(id);
        if (id === from) return true;
      }
      return false;
    };
    // A split child has a new id, so its logical partitions "change partition" without going anywhere
    // else: those are counted apart from real moves between unrelated partitions.
    movedSummary.textContent = (intoChildren
      ? `${plural(intoChildren, 'logical partition')} went, whole, into the two children of the partition they were in ` +
        '(the splits table above says how many to each side). '
      : '') +
      (elsewhere > 0
        ? `${plural(elsewhere, 'logical partition')} moved to an unrelated physical partition. For example:`
        : intoChildren ? 'None moved to an unrelated physical partition.' : 'No logical partition changed physical partition.');
    movedSummary.dataset.count = String(moved.count ?? 0);
    movedSummary.dataset.elsewhere = String(elsewhere);
    byTestId('moved-list').replaceChildren(...(moved.examples ?? []).filter((m) => !descends(m.to, m.from)).slice(0, 12).map((m) =>
      h('li', {}, [keyNode(m.key, {max: 60}), ` P${m.from} → P${m.to}`])));
  }

  if (c.split_cannot_help) {
    const causes = (c.findings ?? []).filter((f) =>
      ['logical_partition_over_20gb', 'logical_partition_over_10000_ru', 'physical_partition_over_50gb', 'hot_partition'].includes(f.code) &&
      f.keys?.length);
    // Several findings name the same key (over 20 GB, over 10,000 RU/s, hot): each key once.
    const keys = [...new Map(causes.flatMap((f) => f.keys).map((k) => [formatKey(k), k])).values()].slice(0, 3);
    cannot.replaceChildren(h('strong', {text: 'A split cannot help. '}),
      'One logical partition alone holds more storage or load than a physical partition can take' +
      (keys.length ? ' (' : '.'), ...(keys.length ? [keyList(keys, {max: 3}), ').'] : []),
      ' Splits only move whole logical partitions between physical partitions; they never divide one. Change the key ' +
      '(more distinct values, or a synthetic key) so the data and requests of that value spread out.');
    cannot.hidden = false;
  } else {
    cannot.hidden = true;
  }
}

// ---------------------------------------------------------------------------------------------
// Synthetic keys.

/** How a synthetic key is built, in words: `/date + "-" + (1 + hash(/vin) mod 400)`. */
export function describeSynthetic(s, basePath) {
  if (!s) return '';
  const sep = JSON.stringify(s.separator ?? '-');
  switch (s.kind) {
    case 'concat':
      return (s.paths ?? []).join(` + ${sep} + `);
    case 'random_suffix':
      return `${basePath} + ${sep} + random 1..${formatInt(s.buckets)} (seed ${s.seed ?? 0})`;
    case 'hash_suffix':
      return `${basePath} + ${sep} + (1 + hash(${s.suffix_path}) mod ${formatInt(s.buckets)})`;
  }
  return s.kind;
}

/** The read fan-out sentence of the synthetic key. */
export function fanoutText(s, basePath) {
  if (!s) return '';
  const n = s.read_fanout ?? (s.kind === 'random_suffix' ? s.buckets : 1);
  switch (s.kind) {
    case 'random_suffix':
      return `a read by ${basePath} must query ${plural(n, 'key')}: the suffix is random, so any of them may hold the item`;
    case 'hash_suffix':
      return `1 key: the suffix is computed from ${s.suffix_path}, so a read that knows it asks one key`;
    case 'concat':
      return `1 key, when the read knows ${(s.paths ?? []).join(' and ')}`;
  }
  return `${formatInt(n)}`;
}

export function renderSyntheticCompare(root, plain, synthetic, {basePath}) {
  const byId = scopedById(root);
  const byTestId = scopedByTestId(root);
  const block = byId('synthetic-compare-block');
  if (!plain || !synthetic) {
    block.hidden = true;
    return;
  }
  block.hidden = false;
  const s = synthetic.synthetic ?? null;
  const layoutOf = (r) => r.container?.before ?? null;
  const hotCount = (r) => (r.container?.hot ?? []).filter((p) => p.hot).length;
  const growthOf = (r) => (r.container?.growth > 1 ? r.container.growth : 1);
  const over20gb = (r) => (r.container?.findings ?? []).find((f) => f.code === 'logical_partition_over_20gb')?.count ?? 0;
  const metrics = [
    ['key', 'key', (r, isSyn) => (isSyn ? describeSynthetic(s, basePath) : r.key_paths.join(', ')), () => ''],
    ['partitions', 'logical partitions', (r) => formatInt(r.partition_count), (r) => r.partition_count],
    ['largest', 'largest logical partition', (r) => (r.largest_partition ? formatBytes(r.largest_partition.bytes) : '–'),
     (r) => r.largest_partition?.bytes ?? 0],
    // Growth: the largest partition grown, and the 20 GB breaches it brings (the model's finding).
    ['grown', 'largest after growth', (r) => (r.largest_partition ? `${formatBytes(r.largest_partition.bytes * growthOf(r))}` +
      (growthOf(r) > 1 ? ` (×${formatInt(growthOf(r))})` : ' (no growth set)') : '–'),
     (r) => (r.largest_partition?.bytes ?? 0) * growthOf(r)],
    ['over20gb', `logical partitions over ${limitText(BYTES_PER_LOGICAL)} after growth`, (r) => formatInt(over20gb(r)), (r) => over20gb(r)],
    ['gini', 'spread (Gini: 0 even … 1 all in one)', (r) => formatDecimal(r.gini), (r) => r.gini],
    ['physical', 'physical partitions', (r) => (layoutOf(r) ? formatInt(layoutOf(r).ranges.length) : '–'),
     (r) => layoutOf(r)?.ranges.length ?? 0],
    ['balance', 'physical balance (largest / mean storage)', (r) => (layoutOf(r) ? formatDecimal(storageBalance(layoutOf(r)).max_over_mean) : '–'),
     (r) => (layoutOf(r) ? storageBalance(layoutOf(r)).max_over_mean : 1)],
    ['hot', 'hot logical partitions', (r) => formatInt(hotCount(r)), (r) => hotCount(r)],
    ['throttled', 'requests throttled (429)', (r) => formatPercent(layoutOf(r)?.throttled_fraction ?? 0),
     (r) => layoutOf(r)?.throttled_fraction ?? 0],
    ['fanout', 'read fan-out', (r, isSyn) => (isSyn ? fanoutText(s, basePath) : `1 key: a read by ${r.key_paths.join(', ')} asks one key`),
     (r, isSyn) => (isSyn ? s?.read_fanout ?? 1 : 1)],
  ];
  byId('compare-rows').replaceChildren(...metrics.map(([id, label, text, value]) => {
    const th = h('th', {text: label});
    th.scope = 'row';
    const cell = (r, isSyn) => {
      const td = h('td', {text: text(r, isSyn), testid: `compare-${id}-${isSyn ? 'synthetic' : 'plain'}`});
      td.dataset.value = String(value(r, isSyn));
      if (id === 'key') td.className = 'mono';
      return td;
    };
    return h('tr', {}, [th, cell(plain, false), cell(synthetic, true)]);
  }));
  const examples = s?.example_keys ?? [];
  byTestId('synthetic-examples').textContent = examples.length
    ? `Example synthetic keys: ${examples.slice(0, 6).map((k) => formatKey(Array.isArray(k) ? k : [k])).join(', ')}`
    : '';
}

// ---------------------------------------------------------------------------------------------
// Key advisor.

const VERDICT = {good: '✓ good', fair: '~ fair', poor: '✗ poor'};
const IMMUTABILITY = {
  immutable: 'never changes',
  changes: 'changes',
  unknown: 'unknown',
};

function riskText(risk) {
  if (typeof risk === 'boolean') return risk ? 'yes' : 'no';
  if (typeof risk === 'number') return risk <= 1 ? formatPercent(risk) : formatDecimal(risk);
  return risk == null ? '–' : String(risk);
}

const ADVISOR_SHOWN = 6;

export function renderAdvisor(root, report, {currentPaths, onUse, showAll = false, onToggle}) {
  const byTestId = scopedByTestId(root);
  const advisor = report.advisor;
  const note = byTestId('advisor-note');
  const rows = byTestId('advisor-rows');
  if (!advisor) {
    note.textContent = 'The engine gave no advice for this data.';
    rows.replaceChildren();
    return;
  }
  const candidates = advisor.candidates ?? [];
  note.textContent = `Every candidate path found in the first ${formatInt(advisor.sampled_items)} items, ranked for ` +
    `${formatRu(advisor.ru_per_second)} RU/s and the data grown ×${formatInt(advisor.growth)}: many distinct values, ` +
    `a small largest partition, an even spread over logical and physical partitions, no risk of passing ${limitText(BYTES_PER_LOGICAL)}, and a ` +
    'value that never changes for an item. Click a path to use it as the key.';
  const current = currentPaths.length === 1 ? currentPaths[0] : null;
  const more = byTestId('advisor-more');
  const shown = showAll ? candidates : candidates.filter((c, i) => i < ADVISOR_SHOWN || c.path === current);
  more.hidden = candidates.length <= ADVISOR_SHOWN;
  more.textContent = showAll ? 'Show fewer' : `Show all ${formatInt(candidates.length)} candidates`;
  more.onclick = onToggle ?? null;
  // Each candidate: a row of figures, then a row with its reasons in words.
  rows.replaceChildren(...shown.flatMap((cand) => {
    const button = h('button', {className: `path-button${cand.path === current ? ' current' : ''}`, text: cand.path,
                                title: `Use ${cand.path} as the partition key`});
    button.type = 'button';
    button.addEventListener('click', () => onUse(cand.path));
    const tr = h('tr', {className: 'candidate-row'}, [
      h('td', {className: 'num', text: formatInt(cand.rank)}),
      h('td', {}, [button]),
      h('td', {}, [h('span', {className: `badge verdict-${cand.verdict}`, text: VERDICT[cand.verdict] ?? cand.verdict,
                              title: `score ${formatDecimal(cand.score)}`})]),
      h('td', {className: 'num', text: `${cand.cardinality_capped ? '≥ ' : ''}${formatInt(cand.cardinality)}`}),
      h('td', {className: 'num', text: formatPercent(cand.coverage)}),
      h('td', {className: 'num', text: formatBytes(cand.largest_bytes_projected)}),
      h('td', {className: 'num', text: formatDecimal(cand.gini)}),
      h('td', {className: 'num', text: formatDecimal(cand.physical_max_over_mean),
               title: `over ${plural(cand.physical_partitions ?? 0, 'physical partition')}`}),
      h('td', {text: riskText(cand.risk_20gb)}),
      h('td', {text: IMMUTABILITY[cand.immutability] ?? cand.immutability ?? '–'}),
    ]);
    tr.dataset.path = cand.path;
    tr.dataset.verdict = cand.verdict;
    tr.dataset.rank = String(cand.rank);
    const reasons = h('td', {}, [h('ul', {className: 'reasons'}, (cand.reasons ?? []).map((r) => h('li', {text: r})))]);
    reasons.colSpan = 10;
    const why = h('tr', {className: 'reasons-row'}, [reasons]);
    why.dataset.reasonsFor = cand.path;
    return [tr, why];
  }));
  if (candidates.length === 0) {
    rows.append(h('tr', {}, [Object.assign(h('td', {text: 'No candidate paths were found in the sample.'}), {colSpan: 10})]));
  }
}
