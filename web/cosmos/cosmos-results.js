// The Cosmos DB view's results: the summary figures, the engine's findings and insights, the
// candidate paths, the size charts with their tables, the page of logical partitions and, with a
// container model, the container, workload, growth, synthetic-key and advisor sections
// (container-view.js). Every level and verdict shown is a field of the engine's report.
//
//   const results = createResults({root, el, state, viewReport, reanalyze, syncControls,
//                                  containerSections});
//   results.renderAll();   results.renderCharts();   results.renderPartitionPage();
import {logBins, renderConcentration, renderHistogram} from '../common/charts.js';
import {fillTable, h, keyNode, setFigure as setFigureNode} from '../common/dom.js';
import {
  formatBytes, formatInt, formatKey, formatMs, formatPercent, sourceSize,
} from '../common/format.js';
import {shortEpk} from './container-charts.js';
import {summaryFigures} from './summary-figures.js';
import {
  describeSynthetic, rangeOf, renderAdvisor, renderContainer, renderFindings, renderGrowth, renderSyntheticCompare,
  renderWorkload,
} from './container-view.js';

const PAGE_SIZE = 25;

/**
 * `ctx`: {root, el (cosmos-elements.js), state (the view's), viewReport(), reanalyze(),
 * syncControls(), containerSections}.
 */
export function createResults(ctx) {
  const {root, el, state, containerSections} = ctx;
  const viewReport = () => ctx.viewReport();
  const reanalyze = () => ctx.reanalyze();
  const syncControls = () => ctx.syncControls();


  function setFigure(testid, text, value, options) {
    setFigureNode(root.querySelector(`[data-testid="${testid}"]`), text, value, options);
  }

  function setSub(testid, content) {
    const node = root.querySelector(`[data-testid="${testid}"]`);
    node.replaceChildren(...(Array.isArray(content) ? content : [content]));
  }

  function partitionedBytes(report) {
    return report.bytes - (report.invalid_key?.bytes ?? 0);
  }

  /** A report's key in words: the paths, or how its synthetic key is built. */
  function keyDescription(report) {
    if (report?.synthetic) return `synthetic key ${describeSynthetic(report.synthetic, state.keyPaths[0] ?? report.key_paths[0])}`;
    return `key ${report.key_paths.join(', ')}`;
  }

  /** Renders everything from the reports in the state. */
  function renderAll() {
    const report = viewReport();
    if (!report) return;
    const src = state.reportSource;
    const formatName = {ndjson: 'NDJSON', array: 'JSON array', object: 'single object'}[report.format] ?? report.format;
    // A gzip source says both sizes: every size of the report is the decompressed JSON's.
    const read = report.source?.compressedBytes !== undefined
      ? `${sourceSize({bytes: report.input_bytes, compressedBytes: report.source.compressedBytes})} read`
      : `${formatBytes(report.input_bytes)} read`;
    const parts = [src?.label ?? 'data', formatName, read];
    if (report.timing) parts.push(`${report.timing.bytesPerSecond === null ? 'modelled' : 'analyzed'} in ${formatMs(report.timing.ms)}`);
    el.sourceLine.textContent = `${parts.join(' · ')} · ${keyDescription(report)}`;
    el.sourceLine.dataset.bytes = String(report.input_bytes);
    if (report.source?.compressedBytes !== undefined) el.sourceLine.dataset.compressedBytes = String(report.source.compressedBytes);
    else delete el.sourceLine.dataset.compressedBytes;

    const synthetic = report === state.synReport;
    el.viewSwitch.hidden = !state.synReport;
    for (const radio of el.viewSwitch.querySelectorAll('input')) radio.checked = radio.value === (synthetic ? 'synthetic' : 'plain');
    el.results.dataset.view = synthetic ? 'synthetic' : 'plain';
    el.syntheticRemove.disabled = !state.synReport;

    renderSummary(report);
    renderInsights(report);
    renderCandidates(state.report);
    el.results.hidden = false;
    renderFindings(root, report);
    const hasContainer = !!report.container;
    for (const section of containerSections) section.hidden = !hasContainer && section.dataset.testid !== 'synthetic-panel';
    if (hasContainer) {
      renderSyntheticCompare(root, state.report, state.synReport, {basePath: state.keyPaths[0] ?? state.report.key_paths[0]});
      renderAdvisor(root, state.report, {currentPaths: state.report.key_paths, onUse: useKeyPath, showAll: state.showAllAdvice,
                                   onToggle: () => {
                                     state.showAllAdvice = !state.showAllAdvice;
                                     renderAll();
                                   }});
      // A routing example from the data: its largest key.
      const largest = report.largest_partition?.key;
      if (largest && !largest.some((v) => v !== null && typeof v === 'object')) {
        el.routeInput.placeholder = largest.length === 1 ? JSON.stringify(largest[0]) : JSON.stringify(largest);
      }
    }
    syncControls();
    renderCharts();
    renderPartitionPage();
  }

  /** Uses `path` as the partition key (from the advisor). */
  function useKeyPath(path) {
    el.keyInput.value = path;
    reanalyze();
    el.keyInput.scrollIntoView({block: 'center', behavior: 'smooth'});
  }

  /** The summary card: the figures of summary-figures.js, the largest key and the spread's verdict beside them. */
  function renderSummary(report) {
    for (const f of summaryFigures(report)) {
      setFigure(`summary-${f.id}`, f.text, f.value, {level: f.level, title: f.title});
    }
    const largest = report.largest_partition;
    setSub('summary-largest-key', largest
      ? [h('span', {text: 'key '}), keyNode(largest.key), h('span', {text: ` · ${formatInt(largest.items)} items`})]
      : h('span', {text: 'no partitions'}));
    const figures = new Map(summaryFigures(report).map((f) => [f.id, f]));
    setSub('summary-top1-sub', h('span', {text: figures.get('top1').sub}));
    // The engine's verdict on the spread (report.spread), as the findings word it.
    setSub('summary-gini-sub', h('span', {text: figures.get('gini').verdict, testid: 'summary-gini-verdict'}));
  }

  /** The engine's judgement of the key (`insights`, docs/report.md): "{0}" in a message is keys[0]. */
  function renderInsights(report) {
    el.insights.replaceChildren(...(report.insights ?? []).map((insight) => {
      const content = insight.message.split(/(\{\d+\})/).filter((part) => part !== '').map((part) => {
        const index = /^\{(\d+)\}$/.exec(part)?.[1];
        return index !== undefined && insight.keys[Number(index)] ? keyNode(insight.keys[Number(index)]) : part;
      });
      const item = h('li', {className: insight.level}, content);
      item.dataset.code = insight.code;
      return item;
    }));
  }

  function renderCandidates(report) {
    const cp = report.candidate_paths ?? {sampled_items: 0, paths: []};
    // Most suitable first: the advisor's rank (coverage, cardinality, spread), else as sampled.
    const advice = new Map((report.advisor?.candidates ?? []).map((a) => [a.path, a]));
    const rankOf = (c) => advice.get(c.path)?.rank ?? Infinity;
    const paths = [...(cp.paths ?? [])].sort((a, b) => rankOf(a) - rankOf(b));
    const current = report.key_paths.length === 1 ? report.key_paths[0] : null;
    el.keyCandidates.replaceChildren(...paths.map((c) => {
      const option = document.createElement('option');
      option.value = c.path;
      option.label = `${formatInt(c.distinct)}${c.distinct_capped ? '+' : ''} distinct values`;
      return option;
    }));
    el.candidatesNote.textContent = paths.length
      ? `(${formatInt(paths.length)} scalar paths seen in the first ${formatInt(cp.sampled_items)} items` +
        `${advice.size ? ', most suitable first' : ''})`
      : '(none found)';
    el.candidateRows.replaceChildren(...paths.map((c) => {
      const button = h('button', {className: `path-button${c.path === current ? ' current' : ''}`, text: c.path,
                                  title: `Re-analyze with ${c.path}`});
      button.type = 'button';
      button.addEventListener('click', () => {
        el.keyInput.value = c.path;
        reanalyze();
      });
      const share = cp.sampled_items ? ` (${formatPercent(c.items / cp.sampled_items)})` : '';
      const types = h('td', {}, ['string', 'number', 'boolean', 'null']
        .filter((t) => c.types?.[t] > 0)
        .map((t) => h('span', {className: 'type-chip', text: `${t} ${formatInt(c.types[t])}`})));
      const a = advice.get(c.path);
      const verdict = h('td', {className: a ? `verdict verdict-${a.verdict}` : '', text: a ? a.verdict : '–',
                               title: a ? a.reasons.join('\n') : 'the key advisor needs the container model'});
      const tr = h('tr', {}, [
        h('td', {}, [button]),
        h('td', {className: 'num', text: `${formatInt(c.items)}${share}`}),
        h('td', {className: 'num', text: `${c.distinct_capped ? '≥ ' : ''}${formatInt(c.distinct)}`}),
        types,
        verdict,
      ]);
      tr.dataset.path = c.path;
      return tr;
    }));
  }

  function renderCharts() {
    const report = viewReport();
    if (!report || el.results.hidden) return;
    try {
      renderHistogram(el.histogram, report);
      renderConcentration(el.concentration, report);
      fillSizeTables(report);
    } catch (e) {
      el.histogram.replaceChildren(h('p', {className: 'hint', text: `The chart could not be drawn: ${e.message}`}));
    }
    if (!report.container) return;
    try {
      renderContainer(root, report, {mapEl: el.partitionMap, showRoute: !!state.route});
      renderWorkload(root, report, {demandEl: el.demandChart});
      renderGrowth(root, report, {beforeEl: el.mapBefore, afterEl: el.mapAfter, showRoute: !!state.route});
    } catch (e) {
      el.partitionMap.replaceChildren(h('p', {className: 'hint', text: `The container could not be drawn: ${e.message}`}));
      throw e;
    }
  }

  /** The table views of the histogram and the concentration curve: the same numbers as text. */
  function fillSizeTables(report) {
    const sizes = report.partition_bytes ?? Float64Array.from(report.partitions ?? [], (p) => p.bytes);
    fillTable(root.querySelector('[data-testid="histogram-table"]'),
              [{label: 'partition size from'}, {label: 'to'}, {label: 'partitions', num: true}, {label: 'bytes in all', num: true}],
              logBins(sizes).filter((b) => b.count > 0)
                .map((b) => [formatBytes(b.x0), formatBytes(b.x1), formatInt(b.count), formatBytes(b.bytes)]),
              {caption: 'Partitions per size bin'});
    let total = 0;
    for (let i = 0; i < sizes.length; i++) total += sizes[i];
    const rows = [];
    for (const share of [0.01, 0.05, 0.1, 0.25, 0.5, 1]) {  // lint-ok: the table's rows
      const n = Math.min(sizes.length, Math.max(1, Math.ceil(sizes.length * share)));
      let bytes = 0;
      for (let i = 0; i < n; i++) bytes += sizes[i];
      if (sizes.length) rows.push([`largest ${formatPercent(share)}`, formatInt(n), formatBytes(bytes), formatPercent(total ? bytes / total : 0)]);
    }
    fillTable(root.querySelector('[data-testid="concentration-table"]'),
              [{label: 'partitions'}, {label: 'count', num: true}, {label: 'bytes', num: true}, {label: 'share of bytes', num: true}],
              rows, {caption: 'Share of the bytes held by the largest partitions'});
  }

  function renderPartitionPage() {
    const report = viewReport();
    const ranges = report.container?.before?.ranges ?? null;
    const partitions = report.partitions ?? [];
    const pages = Math.max(1, Math.ceil(partitions.length / PAGE_SIZE));
    state.page = Math.min(Math.max(0, state.page), pages - 1);
    const from = state.page * PAGE_SIZE;
    const rows = partitions.slice(from, from + PAGE_SIZE);
    const partitioned = partitionedBytes(report);
    el.partitionRows.replaceChildren(...rows.map((p, i) => {
      const range = ranges && p.epk ? rangeOf(p.epk, ranges) : null;
      const share = partitioned > 0 ? p.bytes / partitioned : 0;
      const fill = h('div', {className: 'share-fill'});
      // Scale bars to the largest partition so small shares stay visible.
      const top = partitions[0]?.bytes || 1;
      fill.style.width = `${Math.max(0.5, (p.bytes / top) * 100).toFixed(2)}%`;
      const tr = h('tr', {}, [
        h('td', {className: 'num', text: formatInt(from + i + 1)}),
        h('td', {}, [keyNode(p.key)]),
        h('td', {className: 'num', text: formatInt(p.items)}),
        h('td', {className: 'num', text: formatBytes(p.bytes), title: `${formatInt(p.bytes)} bytes`}),
        h('td', {className: 'col-share'}, [h('div', {className: 'share'}, [h('div', {className: 'share-track'}, [fill]),
                                                     h('span', {className: 'share-text', text: formatPercent(share)})])]),
        h('td', {className: 'num col-largest', text: formatBytes(p.largest_item_bytes),
                 title: `item #${formatInt(p.largest_item_index)}, ${formatInt(p.largest_item_bytes)} bytes`}),
        h('td', {className: 'col-epk epk', text: p.epk ? shortEpk(p.epk, 12) : '–',
                 title: p.epk ? `effective partition key ${p.epk}` : 'no EPK (no container model)'}),
        h('td', {className: 'num col-range', text: range ? `P${range.id}` : '–',
                 title: range ? `physical partition P${range.id}, EPK range [${range.min || '""'}, ${range.max})` : ''}),
      ]);
      tr.dataset.key = formatKey(p.key);
      if (p.epk) tr.dataset.epk = p.epk;
      if (range) tr.dataset.range = String(range.id);
      return tr;
    }));
    if (rows.length === 0) {
      el.partitionRows.append(h('tr', {}, [Object.assign(h('td', {text: 'No partitions.'}), {colSpan: 8})]));
    }
    const total = report.partition_count;
    let status = rows.length
      ? `Showing ${formatInt(from + 1)}–${formatInt(from + rows.length)} of ${formatInt(total)} partitions`
      : `Showing 0 of ${formatInt(total)} partitions`;
    if (report.partitions_omitted > 0) {
      status += ` (the largest ${formatInt(partitions.length)} are listed)`;
    }
    el.pageStatus.textContent = status;
    el.pageStatus.dataset.shown = String(rows.length);
    el.pageStatus.dataset.total = String(total);
    el.pagePrev.disabled = state.page === 0;
    el.pageNext.disabled = state.page >= pages - 1;
  }

  return {renderAll, renderCharts, renderPartitionPage};
}
