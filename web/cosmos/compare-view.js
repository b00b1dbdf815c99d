// "Which key?": candidate keys pinned side by side (protocol.js compare/recompare, the engine's
// KeyComparison). The user pins plain paths, hierarchical keys and synthetic keys, lists the
// queries the application runs, and sees one row per key of what decides — logical partitions,
// the largest now and after growth, 20 GB breaches, physical partitions, the busiest physical
// partition's demand, throttling, hot keys, where each query goes, problems — with the engine's
// pick and its one-sentence reason, a sortable table and a chart of the same numbers.
//
//   const view = mountCompareView(root, client, {containerOptions: () => ({ru_per_second: 400})});
//   view.pin({key_paths: ['/tenantId']});   view.sourceChanged();   view.settingsChanged();
//   view.destroy();
//
// The view owns only what is inside `root`; it never reads the page by id.
import {h} from '../common/dom.js';
import {formatBytes, formatInt, formatLocation, formatPercent, plural, progressShare} from '../common/format.js';
import {limit, limitText, limitValue} from '../common/limits.js';
import {csvOf, download, markdownTable} from '../common/export.js';
import {isPartFunction, splitKeyParts} from '../common/key-text.js';

const SVG = 'http://www.w3.org/2000/svg';
/** The logical partition quota (core/limits.h), read once the engine is loaded. */
const logicalLimit = () => limitValue('cosmos_logical_partition_bytes');
/** The engine's bounds on a candidate key (core/defaults.h, the candidate_* rows of the limits table). */
const bound = (id) => limitValue(`candidate_${id}`);

/** The columns of the table: label, the row's value to sort by, its text, and a title. */
function columns(table) {
  const grown = table.growth > 1;
  const cols = [
    {id: 'rank', label: 'Rank', num: true, value: (r) => r.rank, text: (r) => String(r.rank)},
    {id: 'key', label: 'Key', value: (r) => r.label, text: (r) => r.label},
    {id: 'logical', label: 'Logical partitions', num: true, value: (r) => r.logical_partitions,
     text: (r) => formatInt(r.logical_partitions)},
    {id: 'largest', label: 'Largest now', num: true, value: (r) => r.largest_bytes,
     text: (r) => formatBytes(r.largest_bytes)},
    {id: 'after', label: grown ? `Largest ×${formatInt(table.growth)}` : 'Largest after growth', num: true,
     value: (r) => r.largest_bytes_after_growth, text: (r) => formatBytes(r.largest_bytes_after_growth)},
    {id: 'breach', label: `Over ${limitText('cosmos_logical_partition_bytes')}`, num: true, value: (r) => r.over_20gb_partitions,
     text: (r) => formatInt(r.over_20gb_partitions)},
    {id: 'physical', label: 'Physical partitions', num: true, value: (r) => r.physical_partitions,
     text: (r) => formatInt(r.physical_partitions)},
  ];
  if (table.workload_given) {
    cols.push(
      {id: 'busiest', label: 'Busiest partition RU/s', num: true, value: (r) => r.busiest_demand_ru,
       text: (r) => `${formatInt(Math.round(r.busiest_demand_ru))} of ${formatInt(Math.round(r.busiest_share_ru))}`},
      {id: 'throttled', label: 'Throttled', num: true, value: (r) => r.throttled_fraction,
       text: (r) => formatPercent(r.throttled_fraction)},
      {id: 'hot', label: 'Hot keys', num: true, value: (r) => r.hot_logical_partitions,
       text: (r) => formatInt(r.hot_logical_partitions)},
    );
  } else {
    cols.push({id: 'balance', label: 'Fullest physical ÷ mean', num: true, value: (r) => r.storage_max_over_mean,
               text: (r) => r.storage_max_over_mean.toFixed(2)});
  }
  if (table.queries.length) {
    cols.push({id: 'routed', label: 'Queries to one partition', num: true,
               value: (r) => table.queries.length - r.fanout_queries,
               text: (r) => `${table.queries.length - r.fanout_queries} of ${table.queries.length}`,
               title: (r) => r.queries.map((q, i) => `${table.queries[i].text || 'no filter'}: ${fanoutText(q)}${matchesText(q)}`).join('\n')});
  }
  if (table.traffic_measured) {
    // The second read's figures (report/key_traffic.h): writes per time window, monotonicity.
    cols.push({id: 'writes', label: 'Writes: busiest physical partition per window', num: true,
               value: (r) => (r.write_spread?.measured ? r.write_spread.busiest_share : -1),
               text: (r) => (r.write_spread?.measured
                 ? `${formatPercent(r.write_spread.busiest_share)} (${windowText(r.write_spread.window_seconds)})` : 'not measured'),
               title: (r) => writeSpreadText(r.write_spread)},
              {id: 'monotonic', label: 'Follows insert order or time', value: (r) => Number(!!r.monotonicity?.monotonic),
               text: (r) => (r.monotonicity?.monotonic ? 'yes' : 'no'), title: (r) => monotonicityText(r.monotonicity)});
  }
  // The problems in the engine's words (sorted by how many).
  cols.push({id: 'problems', label: 'Problems', value: (r) => r.problems.length,
             text: (r) => (r.problems.length ? r.problems.join('; ') : 'none'),
             title: (r) => r.problems.join('\n')});
  return cols;
}

function fanoutText(q) {
  switch (q.kind) {
    case 'single': return 'one logical partition';
    case 'prefix': return 'the physical partitions holding that prefix';
    case 'buckets': return `${formatInt(q.logical_partitions)} logical partitions (every suffix), up to ${formatInt(q.physical_partitions)} physical`;
    case 'several': return `${formatInt(q.logical_partitions)} logical partitions (an IN list), up to ${formatInt(q.physical_partitions)} physical`;
    case 'none': return 'no partition: the filter contradicts itself';
    default: return `every physical partition (${formatInt(q.physical_partitions)})`;
  }
}

/** What the second read found for a query under a key (nothing when it did not run). */
function matchesText(q) {
  if (q.matching_items == null) return '';
  return `; ${plural(q.matching_items, 'matching item')} in ` +
    `${plural(q.physical_partitions_with_matches, 'physical partition')}` +
    (q.ru_per_call == null ? '' : `, about ${formatInt(Math.round(q.ru_per_call))} RU a call (our model)`);
}

const WINDOW_NAMES = {60: 'a minute', 3600: 'an hour', 86400: 'a day', 604800: 'a week', 2592000: '30 days'};
function windowText(seconds) { return WINDOW_NAMES[seconds] ?? `${formatInt(seconds)} s`; }

function writeSpreadText(w) {
  if (!w) return '';
  if (!w.measured) return `Write spread not measured: ${w.why_not}`;
  return `Items cut into windows of ${windowText(w.window_seconds)} by ${w.time_path}` +
    `${w.time_path_detected ? ' (found in the data)' : ''}: ${formatInt(w.windows)} windows; per window the writes reach ` +
    `${w.logical_per_window.toFixed(1)} logical and ${w.physical_per_window.toFixed(1)} of ${formatInt(w.physical_partitions)} physical ` +
    `partitions, the busiest taking ${formatPercent(w.busiest_share)}${w.concentrated ? ' — concentrated: a problem' : ''}.`;
}

function monotonicityText(m) {
  if (!m) return '';
  const time = m.follows_time == null ? '' : `; moves with the time field ${formatPercent(m.follows_time)} of ${formatInt(m.timed_changes)} times`;
  return `Rises with the input's order ${formatPercent(m.rises_with_input)} of the ${formatInt(m.key_changes)} times it changes${time}.` +
    (m.monotonic ? ' New items land on one end of the key range: their writes go to one physical partition at a time.' : '');
}

/** A key spec of the pin form as engine analysis options, or throws with what is wrong. */
export function keyFromForm({kind, paths, buckets, suffixPath, separator = '-'}) {
  const list = splitKeyParts(paths);
  // A concatenated key's parts may take a piece of a value (month(/date)); the engine reads them.
  const bad = list.find((p) => !p.startsWith('/') && !(kind === 'concat' && isPartFunction(p)));
  if (bad !== undefined) throw new Error(`"${bad}" is not a JSON pointer: key paths start with "/" (e.g. /tenantId)`);
  if (list.length === 0) throw new Error('type a key path such as /tenantId');
  const n = Number(buckets);
  switch (kind) {
    case 'path':
      if (list.length !== 1) throw new Error('a plain key has one path; pick "hierarchical" for several');
      return {key_paths: list};
    case 'hierarchical':
      if (list.length < 2 || list.length > bound('max_hierarchical_paths')) {
        throw new Error(`a hierarchical key has 2 to ${bound('max_hierarchical_paths')} paths, comma-separated`);
      }
      return {key_paths: list};
    case 'concat':
      if (list.length < bound('min_concat_paths') || list.length > bound('max_concat_paths')) {
        throw new Error(`a concatenated key joins ${bound('min_concat_paths')} to ${bound('max_concat_paths')} paths, comma-separated`);
      }
      return {key_paths: [list[0]], synthetic: {kind: 'concat', paths: list, separator}};
    case 'hash':
    case 'random': {
      if (list.length !== 1) throw new Error('a suffixed key starts from one path');
      if (!(Number.isInteger(n) && n >= 1 && n <= bound('max_buckets'))) {
        throw new Error(`the number of suffixes is a whole number from 1 to ${formatInt(bound('max_buckets'))}`);
      }
      if (kind === 'random') return {key_paths: list, synthetic: {kind: 'random_suffix', buckets: n, seed: 0, separator}};
      const source = (suffixPath ?? '').trim();
      if (!source.startsWith('/')) throw new Error('the suffix is computed from a path such as /id');
      return {key_paths: list, synthetic: {kind: 'hash_suffix', buckets: n, suffix_path: source, separator}};
    }
  }
  throw new Error(`unknown key kind ${kind}`);
}

/** The label people read for a pinned key (the engine's own label comes back with the table). */
function pinLabel(key) {
  const s = key.synthetic;
  if (!s) return key.key_paths.length > 1 ? `[${key.key_paths.join(', ')}]` : key.key_paths[0];
  if (s.kind === 'concat') return s.paths.join(s.separator ?? '-');
  if (s.kind === 'random_suffix') return `${key.key_paths[0]}-{1..${s.buckets} random}`;
  return `${key.key_paths[0]}-{hash(${s.suffix_path}) % ${s.buckets} + 1}`;
}

export function mountCompareView(root, client, {containerOptions, currentKey = () => null} = {}) {
  const state = {pins: [], table: null, sort: {id: 'rank', dir: 1}, busy: false, seq: 0};

  const kind = h('select', {testid: 'compare-kind'});
  for (const [value, text] of [['path', 'a path'], ['hierarchical', 'hierarchical (2–3 paths)'],
    ['concat', 'synthetic: paths joined'], ['hash', 'synthetic: path + hash suffix'],
    ['random', 'synthetic: path + random suffix']]) {
    const o = h('option', {text});
    o.value = value;
    kind.append(o);
  }
  const paths = h('input', {testid: 'compare-paths'});
  paths.type = 'text';
  paths.placeholder = '/tenantId';
  paths.autocomplete = 'off';
  paths.spellcheck = false;
  const buckets = h('input', {testid: 'compare-buckets'});
  buckets.type = 'number';
  buckets.min = '1';
  buckets.value = '10';
  const suffix = h('input', {testid: 'compare-suffix'});
  suffix.type = 'text';
  suffix.placeholder = '/id';
  const labelled = (text, control, extra = {}) => {
    const l = h('label', {className: 'field', ...extra}, [h('span', {text}), control]);
    return l;
  };
  const bucketsLabel = labelled('Suffixes N', buckets);
  const suffixLabel = labelled('Suffix from', suffix);
  const pinButton = h('button', {text: 'Pin key', testid: 'compare-pin'});
  pinButton.type = 'submit';
  const pinCurrent = h('button', {text: 'Pin the current key', className: 'secondary', testid: 'compare-pin-current'});
  pinCurrent.type = 'button';
  const form = h('form', {className: 'keycmp-form'}, [
    labelled('Kind', kind), labelled('Paths (comma-separated)', paths), bucketsLabel, suffixLabel, pinButton, pinCurrent]);
  const formError = h('p', {className: 'keycmp-error', testid: 'compare-form-error'});
  formError.setAttribute('role', 'alert');
  formError.hidden = true;
  const pinList = h('ul', {className: 'pins', testid: 'compare-pins'});
  pinList.setAttribute('aria-label', 'Pinned keys');
  const queries = h('textarea', {testid: 'compare-queries'});
  queries.rows = 3;
  queries.placeholder = "SELECT * FROM c WHERE c.tenantId = @tenant\n50 SELECT * FROM c WHERE c.tenantId = 't1' AND c.userId = @user\n/tenantId, /userId";
  const compareButton = h('button', {text: 'Compare', testid: 'compare-run'});
  compareButton.type = 'button';
  const status = h('p', {className: 'hint', testid: 'compare-status'});
  status.setAttribute('aria-live', 'polite');
  const why = h('p', {className: 'keycmp-why', testid: 'compare-why'});
  const tableNode = h('table', {className: 'keycmp-table', testid: 'compare-table'});
  const tableWrap = h('div', {className: 'table-scroll'}, [tableNode]);
  // The table as a file: numbers as the engine gives them (CSV), or as shown (Markdown).
  const exportButton = (text, testid, action) => {
    const b = h('button', {text, className: 'small secondary', testid});
    b.type = 'button';
    b.addEventListener('click', action);
    return b;
  };
  const exportRows = (raw) => {
    const cols = columns(state.table);
    const rows = [...state.table.keys].sort((a, b) => a.rank - b.rank)
      .map((r) => cols.map((c) => (raw && c.num ? c.value(r) : c.text(r))));
    return [cols.map((c) => c.label), rows];
  };
  const exportBar = h('div', {className: 'export-bar'}, [h('span', {className: 'view-label', text: 'Download the table'}),
    exportButton('CSV', 'export-compare-csv', () => {
      const [head, rows] = exportRows(true);
      download('key-comparison.csv', csvOf([head, ...rows]), 'text/csv');
    }),
    exportButton('Markdown', 'export-compare-md', () => {
      const [head, rows] = exportRows(false);
      download('key-comparison.md', `# Key comparison\n\n${why.textContent}\n\n${markdownTable(head, rows)}`, 'text/markdown');
    })]);
  const chart = h('figure', {className: 'keycmp-chart', testid: 'compare-chart'});
  chart.tabIndex = 0;
  const body = h('div', {className: 'keycmp-body'}, [why, tableWrap, exportBar, chart]);
  body.hidden = true;

  root.replaceChildren(
    h('p', {className: 'hint', text: 'Pin the keys you are weighing — plain paths, hierarchical keys, synthetic keys — ' +
      'and list the queries your application runs, one per line: Cosmos DB NoSQL queries, each optionally after its ' +
      'calls per second ("50 SELECT …"), or the paths one filters on ("/tenantId, /userId"); a line "@name = value" ' +
      'gives a parameter, else it takes the value most items hold. Each key is judged on the same data, container ' +
      'throughput, growth and workload as above: the data is read once for every key, then once more to place each ' +
      'query\'s matches and the writes over time.'}),
    form, formError, pinList,
    labelled('Queries the application runs (one per line)', queries, {className: 'field wide'}),
    h('div', {className: 'row'}, [compareButton, status]),
    body);

  function syncForm() {
    bucketsLabel.hidden = !['hash', 'random'].includes(kind.value);
    suffixLabel.hidden = kind.value !== 'hash';
    // A joined key's parts may be pieces of values: the placeholder shows one.
    paths.placeholder = {concat: '/tenantId, month(/orderDate)', hierarchical: '/tenantId, /userId'}[kind.value] ?? '/tenantId';
  }
  syncForm();

  function renderPins() {
    pinList.replaceChildren(...state.pins.map((key, i) => {
      const remove = h('button', {text: '×', className: 'pin-remove', title: `Unpin ${pinLabel(key)}`});
      remove.type = 'button';
      remove.setAttribute('aria-label', `Unpin ${pinLabel(key)}`);
      remove.addEventListener('click', () => {
        state.pins.splice(i, 1);
        renderPins();
      });
      return h('li', {className: 'pin'}, [h('span', {text: pinLabel(key)}), remove]);
    }));
    compareButton.disabled = state.pins.length === 0;
    // No pins yet (at mount, before the engine's limits arrive): nothing to bound.
    pinButton.disabled = pinCurrent.disabled = state.pins.length > 0 && state.pins.length >= limitValue('compare_max_keys');
  }

  function showFormError(message) {
    formError.textContent = message;
    formError.hidden = !message;
  }

  function pin(key) {
    const label = pinLabel(key);
    if (state.pins.some((p) => pinLabel(p) === label)) return false;
    if (state.pins.length >= limitValue('compare_max_keys')) {
      showFormError(`At most ${limitValue('compare_max_keys')} keys are compared at once.`);
      return false;
    }
    state.pins.push(key);
    renderPins();
    return true;
  }

  function setSort(id) {
    state.sort = state.sort.id === id ? {id, dir: -state.sort.dir} : {id, dir: 1};
    renderTable();
  }

  function renderTable() {
    const table = state.table;
    if (!table) return;
    const cols = columns(table);
    const col = cols.find((c) => c.id === state.sort.id) ?? cols[0];
    const rows = [...table.keys].sort((a, b) => {
      const va = col.value(a), vb = col.value(b);
      const c = typeof va === 'string' ? va.localeCompare(vb) : va - vb;
      return (c || a.rank - b.rank) * state.sort.dir;
    });
    const head = h('tr', {}, cols.map((c) => {
      const button = h('button', {text: c.label, className: 'sort'});
      button.type = 'button';
      button.addEventListener('click', () => setSort(c.id));
      const th = h('th', {className: c.num ? 'num' : ''}, [button]);
      th.scope = 'col';
      th.dataset.col = c.id;
      th.setAttribute('aria-sort', c.id === col.id ? (state.sort.dir > 0 ? 'ascending' : 'descending') : 'none');
      return th;
    }));
    const caption = h('caption', {text: 'Candidate keys side by side (select a header to sort)'});
    const tbody = h('tbody', {}, rows.map((r) => {
      const tr = h('tr', {}, cols.map((c) => {
        const td = h(c.id === 'key' ? 'th' : 'td', {className: c.num ? 'num' : '', text: c.text(r)});
        if (c.id === 'key') td.scope = 'row';
        td.dataset.col = c.id;
        td.dataset.value = String(c.value(r));
        if (c.title) td.title = c.title(r);
        return td;
      }));
      tr.dataset.key = r.label;
      tr.dataset.index = String(table.keys.indexOf(r));
      if (table.best >= 0 && table.keys[table.best] === r) tr.classList.add('best');
      if (r.problems.length) tr.classList.add('has-problem');
      return tr;
    }));
    tableNode.replaceChildren(caption, h('thead', {}, [head]), tbody);
  }

  /** Bars of the largest logical partition after growth against the 20 GB limit, a row per key. */
  function renderChart() {
    const table = state.table;
    chart.replaceChildren();
    if (!table) return;
    const rows = [...table.keys].sort((a, b) => a.rank - b.rank);
    const max = Math.max(logicalLimit() * 1.1, ...rows.map((r) => r.largest_bytes_after_growth));
    const scale = (v) => Math.log10(1 + v) / Math.log10(1 + max);
    const rowH = 26, labelW = 220, width = 640;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${width} ${rows.length * rowH + 24}`);
    svg.setAttribute('role', 'img');
    const summary = rows.map((r) => `${r.label}: ${formatBytes(r.largest_bytes_after_growth)}`).join('; ');
    svg.setAttribute('aria-label', `Largest logical partition after growth per key, against the ${limitText('cosmos_logical_partition_bytes')} limit (log scale). ${summary}`);
    const el = (tag, attrs, text) => {
      const n = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
      if (text !== undefined) n.textContent = text;
      return n;
    };
    const plotW = width - labelW - 90;
    rows.forEach((r, i) => {
      const y = i * rowH + 4;
      svg.append(el('text', {x: labelW - 6, y: y + 15, 'text-anchor': 'end', class: 'chart-label'}, r.label.length > 30 ? `${r.label.slice(0, 29)}…` : r.label));
      const over = r.over_20gb_partitions > 0;  // the engine's count past the quota
      svg.append(el('rect', {x: labelW, y, width: Math.max(1, scale(r.largest_bytes_after_growth) * plotW), height: rowH - 8,
                             class: over ? 'bar bar-bad' : 'bar'}));
      svg.append(el('text', {x: labelW + Math.max(1, scale(r.largest_bytes_after_growth) * plotW) + 4, y: y + 15, class: 'chart-value'},
                    formatBytes(r.largest_bytes_after_growth)));
    });
    const lx = labelW + scale(logicalLimit()) * plotW;
    svg.append(el('line', {x1: lx, x2: lx, y1: 0, y2: rows.length * rowH + 4, class: 'limit-line'}));
    svg.append(el('text', {x: lx, y: rows.length * rowH + 18, 'text-anchor': 'middle', class: 'chart-label'}, limit('cosmos_logical_partition_bytes').label));
    chart.append(svg, h('figcaption', {text: `Largest logical partition${table.growth > 1 ? ` after growth ×${formatInt(table.growth)}` : ''}, log scale; red bars break the ${limitText('cosmos_logical_partition_bytes')} limit. The table above has the same numbers.`}));
  }

  function render() {
    const table = state.table;
    body.hidden = !table;
    if (!table) return;
    why.textContent = table.why;
    why.classList.toggle('bad', table.best < 0);
    renderTable();
    renderChart();
  }

  function model() {
    const container = containerOptions?.() ?? {};
    const {route, top_per_range, ...rest} = container;  // eslint-disable-line no-unused-vars
    return {container: rest, queryText: queries.value};
  }

  async function compare() {
    if (state.pins.length === 0) return;
    let m;
    try {
      m = model();
      showFormError('');
    } catch (e) {
      showFormError(e.message);
      return;
    }
    const seq = ++state.seq;
    state.busy = true;
    root.dataset.state = 'busy';
    // What the table is judged under, readable by tests and by anyone checking a number.
    root.dataset.container = JSON.stringify(m.container);
    status.textContent = `Comparing ${state.pins.length} keys…`;
    try {
      const table = await client.compare({keys: state.pins, ...m, onProgress: (p) => {
        if (seq !== state.seq) return;
        const done = progressShare(p);
        const share = done === null ? '' : ` (${formatPercent(done)})`;
        status.textContent = p.read === 2
          ? `Placing the queries' matches and the writes over time under each key: ${formatInt(p.items)} items read again${share}…`
          : `Comparing ${state.pins.length} keys: ${formatInt(p.items)} items read${share}…`;
      }});
      if (seq !== state.seq) return;
      state.table = table;
      status.textContent = `${state.pins.length} keys judged on ${formatInt(table.keys[0]?.items ?? 0)} items.` +
        (table.workload_given ? '' : ' No workload is given above, so request demand and throttling are not judged.');
      render();
      root.dataset.state = 'ready';
    } catch (e) {
      if (seq !== state.seq) return;
      status.textContent = '';
      // A query the engine refuses in the query box is located there.
      const where = e.field === '/query_text' ? formatLocation(e.location) : '';
      showFormError(where ? `${e.message} (${where} of the queries)` : e.message);
      // The last table was judged under other keys or queries: it goes rather than mislead.
      state.table = null;
      render();
      root.dataset.state = 'error';
    } finally {
      if (seq === state.seq) state.busy = false;
    }
  }

  /** The settings above changed: the kept comparison is re-judged without reading again. */
  async function settingsChanged() {
    if (!state.table || state.busy) return;
    const seq = ++state.seq;
    try {
      const m = model();
      root.dataset.container = JSON.stringify(m.container);
      const table = await client.recompare(m);
      if (seq !== state.seq) return;
      state.table = table;
      render();
    } catch {
      // a newer source or an engine restart: the next Compare reads again
    }
  }

  /** New data: the table no longer describes it. */
  function sourceChanged() {
    state.seq++;
    state.table = null;
    root.dataset.state = 'idle';
    status.textContent = state.pins.length ? 'New data: compare again.' : '';
    render();
  }

  const onSubmit = (event) => {
    event.preventDefault();
    try {
      const key = keyFromForm({kind: kind.value, paths: paths.value, buckets: buckets.value, suffixPath: suffix.value});
      showFormError('');
      if (pin(key)) paths.value = '';
    } catch (e) {
      showFormError(e.message);
    }
  };
  form.addEventListener('submit', onSubmit);
  kind.addEventListener('change', syncForm);
  pinCurrent.addEventListener('click', () => {
    const key = currentKey();
    if (key) pin(key);
  });
  compareButton.addEventListener('click', compare);
  renderPins();
  root.dataset.state = 'idle';

  return {
    pin,
    compare,
    settingsChanged,
    sourceChanged,
    get table() { return state.table; },
    /** What a link carries of the comparison: the pins, the queries and whether it was run; or undefined. */
    shareState() {
      if (!state.pins.length) return undefined;
      return {keys: state.pins.map((k) => structuredClone(k)), queries: queries.value, run: !!state.table};
    },
    /** Pins a link's keys, fills its queries and runs the comparison when the sharer had. */
    async restoreState(shared) {
      state.pins = [];
      for (const key of shared.keys ?? []) pin(key);
      queries.value = shared.queries ?? '';
      if (shared.run && state.pins.length) await compare();
    },
    destroy() {
      state.seq++;
      root.replaceChildren();
    },
  };
}
