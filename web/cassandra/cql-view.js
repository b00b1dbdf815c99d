// The Cassandra mode of the page: the CQL console, the results grid, the token ring with its
// controls, the per-node load and the Cosmos DB Cassandra API comparison. Every piece of engine
// work goes to the worker through client.js (protocol.js "CQL requests"); this module only sends
// requests and draws what comes back. Text from scripts and results goes in as text only.
//
//   const cassandra = mountCassandraView(root, client);   // root: the panel (#cassandra-view)
//   cassandra.activate();   // on the first switch to the Cassandra mode: examples, first run
//   cassandra.destroy();    // stops its observers and in-flight load, empties root
// Every element it reads is looked up inside root (scopedById); nothing outside root is touched.
//
// The panel (#cassandra-view) carries data-cql-state ('idle' | 'busy' | 'ready' | 'error'),
// data-cql-runs (requests finished) and data-cql-pending (requests queued or running), which the
// end-to-end tests wait on.
import {limitText, limitValue} from '../common/limits.js';
import {caretExcerpt, statementRangeOf} from '../common/text-position.js';
import {fillTable, h, scopedById, scopedByTestId, setFigure} from '../common/dom.js';
import {
  formatBytes, formatInt, formatMs, formatPercent, progressBytes, progressShare, sourceSize, truncate,
} from '../common/format.js';
import {COSMOS_DEFAULT_RU, LoadFormat, SourceKind} from '../worker/protocol.js';
import {nodeClass, renderLoadChart, renderRing, vnodeRanges} from './ring-chart.js';

/** Rows of one result shown at first (the rest behind a button). */
const ROWS_SHOWN = 200;
/** Consecutive applied statements of one verb folded into one line from this many on. */
const FOLD_AT = 4;
/** Rows of the token-range and partition table views, at most. */
const TABLE_VIEW_ROWS = 1000;
const PROGRESS_DELAY_MS = 300;
const SETTLE_MS = 500;
const CASSANDRA_API_PHYSICAL = 'cosmos_cassandra_physical_partition_bytes';


/** A share as a percentage, tiny ones as "< 0.01%" rather than in exponent form. */
const share = (x) => (x > 0 && x < 0.0001 ? '< 0.01%' : formatPercent(x));
const keyText = (key) => ((key ?? []).length > 1 ? `(${key.join(', ')})` : String(key?.[0] ?? ''));
const plural = (n, one, many = `${one}s`) => `${formatInt(n)} ${n === 1 ? one : many}`;

/** The format a file's name says ('csv' for .csv/.tsv, 'json' for .json/.ndjson/.jsonl, gzipped or not), or null. */
export function formatOfName(name) {
  const base = String(name ?? '').toLowerCase().replace(/\.gz$/, '');
  if (/\.(csv|tsv)$/.test(base)) return LoadFormat.CSV;
  if (/\.(json|ndjson|jsonl)$/.test(base)) return LoadFormat.JSON;
  return null;
}

/** "SimpleStrategy, replication_factor 3" from a CqlView keyspace's replication. */
export function replicationText(replication) {
  if (!replication) return '';
  const options = Object.entries(replication.options ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');
  return `${replication.class || 'unknown strategy'}${options ? `, ${options}` : ''}`;
}


export function mountCassandraView(root, client, {examplesBase = new URL('examples/cql/', document.baseURI)} = {}) {
  const byId = scopedById(root);
  const byTestId = scopedByTestId(root);
  const el = {
    panel: byId('cassandra-view'),
    example: byId('cql-example'),
    exampleDescription: byId('cql-example-description'),
    editor: byId('cql-editor'),
    run: byId('cql-run'),
    reset: byId('cql-reset'),
    status: byId('cql-status'),
    results: byId('cql-results'),
    empty: byId('cql-empty'),
    loadTable: byId('cql-load-table'),
    loadInput: byId('cql-load-input'),
    loadStatus: byId('cql-load-status'),
    progress: byId('cql-progress'),
    progressText: byId('cql-progress-text'),
    progressTrack: byId('cql-progress-track'),
    progressBar: byId('cql-progress-bar'),
    loadCancel: byId('cql-load-cancel'),
    loadAgain: byId('cql-load-again'),
    loadExample: byId('cql-load-example'),
    loadFailures: byId('cql-load-failures'),
    formatJson: byId('cql-load-format-json'),
    formatCsv: byId('cql-load-format-csv'),
    csvOptions: byId('cql-csv-options'),
    csvHeader: byId('cql-csv-header'),
    csvDelimiter: byId('cql-csv-delimiter'),
    csvNull: byId('cql-csv-null'),
    csvQuote: byId('cql-csv-quote'),
    csvEscape: byId('cql-csv-escape'),
    csvDatetime: byId('cql-csv-datetimeformat'),
    csvColumns: byId('cql-csv-columns'),
    ringForm: byId('ring-form'),
    ringNodes: byId('ring-nodes'),
    ringVnodes: byId('ring-vnodes'),
    ringDatacenters: byId('ring-datacenters'),
    ringRacks: byId('ring-racks'),
    ringSeed: byId('ring-seed'),
    ringSeedLabel: byId('ring-seed-label'),
    ringError: byId('ring-form-error'),
    table: byId('cql-table'),
    replication: byId('replication'),
    cosmosToggle: byId('cosmos-api'),
    cosmosPanel: byId('cosmos-api-panel'),
    cosmosRu: byId('cosmos-ru'),
    cosmosExplain: byId('cosmos-explain'),
    cosmosCompare: byId('cosmos-compare-rows'),
    ringChart: byId('ring-chart'),
    ringCaption: byId('ring-caption'),
    selection: byId('ring-selection'),
    ownershipHeading: byId('ownership-heading'),
    ownershipNote: byId('ownership-note'),
    loadHeading: byId('load-heading'),
    loadHint: byId('load-hint'),
    loadChart: byId('load-chart'),
  };

  const state = {
    started: false,
    runs: 0,
    examples: [],
    /** The last run: {list, script, nodes (names when it ran), generation, timing}. */
    results: null,
    /** The CqlView on screen (protocol.js). */
    view: null,
    /** Bumped by every ring change: replicas computed on an older ring are stale. */
    generation: 0,
    /** The selected partition: {token, key, replicas, generation}. */
    selected: null,
    cosmos: false,
    /** Rows shown per result index (the rest behind "Show more"). */
    shownRows: new Map(),
    /** The cql-load in flight: an AbortController. */
    loadAbort: null,
    /** The last file loaded ({source, name}), for "Load it again" with other options. */
    lastLoad: null,
    /** The example on screen that offers a file to load ({file, table, format, csv, after}), or null. */
    exampleLoad: null,
    queue: Promise.resolve(),
    /** Requests queued or running. */
    pending: 0,
    /** The Cosmos DB RU/s of the view on screen. */
    viewRu: null,
  };

  // -------------------------------------------------------------------------------------------
  // Requests: one at a time, in order; the panel says when it is busy.

  function setState(value) {
    el.panel.dataset.cqlState = value;
  }

  function enqueue(task) {
    state.pending++;
    el.panel.dataset.cqlPending = String(state.pending);
    const next = state.queue.then(async () => {
      setState('busy');
      let outcome = 'ready';
      try {
        await task();
      } catch (e) {
        outcome = 'error';
        // Errors shown next to their control (a load, a ring) are not repeated in the status line.
        if (!e?.cancelled && !e?.shown) showRequestError(e);
      } finally {
        state.runs++;
        state.pending--;
        el.panel.dataset.cqlRuns = String(state.runs);
        el.panel.dataset.cqlPending = String(state.pending);
        setState(outcome);
      }
    });
    state.queue = next.catch(() => {});
    return next;
  }

  function ru() {
    const v = Number(el.cosmosRu.value);
    return Number.isFinite(v) && v >= 0 ? Math.round(Math.min(v, 1_000_000)) : COSMOS_DEFAULT_RU;
  }

  function showRequestError(e) {
    el.status.textContent = `${e?.message ?? e}`;
    el.status.classList.add('bad');
    el.status.dataset.code = e?.codeName ?? '';
  }

  // -------------------------------------------------------------------------------------------
  // Running scripts.

  function runScript({focusError = true} = {}) {
    const script = el.editor.value;
    return enqueue(() => runStatements(script, {focusError}));
  }

  /** Runs `script` (inside a queued task) and shows its results. */
  async function runStatements(script, {focusError = false} = {}) {
    el.status.classList.remove('bad');
    el.status.textContent = 'Running…';
    const out = await client.cql({script, ru: ru()});
    state.results = {list: out.results, script, nodes: out.view.ring.nodes.map((n) => n.name),
                     generation: state.generation, timing: out.timing};
    state.shownRows.clear();
    acceptView(out.view);
    renderResults({focusError});
  }

  function statusLine() {
    const r = state.results;
    if (!r) return;
    const errors = r.list.filter((x) => x.kind === 'error').length;
    el.status.classList.toggle('bad', errors > 0);
    el.status.textContent = `${plural(r.list.length, 'statement')} in ${formatMs(r.timing?.ms ?? 0)}` +
      (errors ? ` · ${plural(errors, 'error')}` : ' · no errors');
    el.status.dataset.statements = String(r.list.length);
    el.status.dataset.errors = String(errors);
  }

  /** Selects the statement of `result` in the editor (when the editor still holds that script). */
  function selectStatement(result, {focus = true} = {}) {
    const script = state.results?.script;
    if (script === undefined || el.editor.value !== script) return false;
    const range = statementRangeOf(script, result);
    if (!range) return false;
    if (focus) {
      el.editor.focus({preventScroll: true});
      // Blur and focus again so the browser scrolls the textarea to the selection.
      el.editor.setSelectionRange(range.start, range.start);
      el.editor.blur();
      el.editor.focus({preventScroll: true});
    }
    el.editor.setSelectionRange(range.start, range.end, 'forward');
    el.editor.dataset.selectedStatement = String(state.results.list.indexOf(result));
    if (focus) el.editor.scrollIntoView({block: 'nearest'});
    return true;
  }

  function renderResults({focusError = false} = {}) {
    const r = state.results;
    statusLine();
    el.empty.hidden = !!r?.list.length;
    el.results.replaceChildren(...foldApplied(r?.list ?? []).map((item) =>
      (item.run ? renderAppliedRun(item) : renderResult(item.result, item.index))));
    const firstError = r?.list.find((x) => x.kind === 'error');
    if (firstError) selectStatement(firstError, {focus: focusError});
    markSelectedRows();
  }

  /**
   * The results with each run of FOLD_AT or more consecutive applied statements of one verb (and
   * no warning) as one item: [{result, index}] and [{run: [{result, index}...]}].
   */
  function foldApplied(list) {
    const items = [];
    const applied = (x) => x.kind === 'void' && !(x.warnings?.length);
    for (let i = 0; i < list.length;) {
      let j = i;
      while (j < list.length && applied(list[j]) && list[j].verb === list[i].verb) j++;
      if (j - i >= FOLD_AT) {
        items.push({run: list.slice(i, j).map((result, k) => ({result, index: i + k}))});
        i = j;
      } else {
        items.push({result: list[i], index: i});
        i++;
      }
    }
    return items;
  }

  /** "#3–#22 INSERT ×20 applied", openable to show each statement. */
  function renderAppliedRun({run}) {
    const first = run[0];
    const last = run[run.length - 1];
    const li = h('li', {className: 'cql-result kind-void compact folded', testid: 'cql-result-run'});
    li.dataset.kind = 'run';
    li.dataset.count = String(run.length);
    li.dataset.verb = first.result.verb ?? '';
    const details = h('details');
    details.append(h('summary', {text: `#${first.index + 1}–#${last.index + 1}: ${formatInt(run.length)} ` +
      `${first.result.verb || 'statement'}s applied`}));
    const inner = h('ol', {className: 'cql-run-list'});
    inner.append(...run.map(({result, index}) => renderResult(result, index)));
    details.append(inner);
    li.append(details);
    return li;
  }

  function statementHead(result, i) {
    const button = h('button', {className: 'stmt-link', title: 'Select this statement in the editor'});
    button.type = 'button';
    const where = result.line > 0 ? `line ${formatInt(result.line)}` : '';
    button.append(h('span', {className: 'stmt-index', text: `#${i + 1}`}),
                  h('span', {className: `badge verb${result.kind === 'error' ? ' bad' : ''}`, text: result.verb || 'ERROR'}),
                  h('code', {className: 'stmt-text', text: truncate((result.statement || '(does not parse)').replace(/\s+/g, ' '), 110)}),
                  h('span', {className: 'stmt-line', text: where}));
    button.addEventListener('click', () => selectStatement(result));
    return button;
  }

  function renderResult(result, i) {
    const li = h('li', {className: `cql-result kind-${result.kind}`, testid: 'cql-result'});
    li.dataset.kind = result.kind;
    li.dataset.verb = result.verb ?? '';
    li.dataset.index = String(i);
    li.append(statementHead(result, i));
    switch (result.kind) {
      case 'rows':
        li.append(rowsTable(result, i));
        break;
      case 'schema_change':
        li.append(h('p', {className: 'cql-message', text: result.message ?? ''}));
        break;
      case 'describe':
        li.append(h('pre', {className: 'cql-describe', testid: 'cql-describe', text: result.message ?? ''}));
        break;
      case 'error':
        li.append(errorBlock(result));
        break;
      default:
        li.classList.add('compact');
        li.append(h('span', {className: 'cql-applied', text: 'applied'}));
    }
    for (const w of result.warnings ?? []) li.append(h('p', {className: 'cql-warning', text: `Warning: ${w}`}));
    return li;
  }

  function errorBlock(result) {
    const e = result.error ?? {};
    const wrap = h('div', {className: 'cql-error', testid: 'cql-error'});
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', 'Error');
    wrap.append(h('p', {className: 'cql-error-message', testid: 'cql-error-message', text: e.message ?? 'Unknown error'}));
    const line = e.line > 0 ? e.line : result.line;
    const column = e.line > 0 ? e.column : result.column;
    const dl = h('dl', {className: 'error-location'});
    const entries = [['line', formatInt(line), 'cql-error-line', line], ['column', formatInt(column), 'cql-error-column', column],
                     ['code', e.name ? `${e.name} (${e.code})` : String(e.code ?? ''), 'cql-error-code', e.name ?? '']];
    for (const [label, value, testid, raw] of entries) {
      const div = h('div', {testid}, [h('dt', {text: label}), h('dd', {text: value})]);
      div.dataset.value = String(raw);
      dl.append(div);
    }
    wrap.append(dl);
    const excerpt = state.results ? caretExcerpt(state.results.script, line, column) : null;
    if (excerpt) wrap.append(h('pre', {className: 'error-excerpt', testid: 'cql-error-excerpt', text: excerpt}));
    const show = h('button', {className: 'small', text: 'Select the statement in the editor'});
    show.type = 'button';
    show.addEventListener('click', () => selectStatement(result));
    wrap.append(show);
    return wrap;
  }

  /** The grid of a SELECT: its columns, then each row's partition key, token and replicas. */
  function rowsTable(result, i) {
    const wrap = h('div', {className: 'cql-rows-wrap'});
    const cells = result.cells ?? [];
    const n = cells.length;
    const shown = Math.min(n, state.shownRows.get(i) ?? ROWS_SHOWN);
    const pk = (result.partition_key ?? []).join(', ');
    const stale = state.results.generation !== state.generation;
    const names = state.results.nodes;
    const table = h('table', {className: 'cql-rows', testid: 'cql-rows'});
    table.append(h('caption', {className: 'visually-hidden',
                               text: `Rows of statement ${i + 1}, with each row's partition key, token and replicas`}));
    const headRow = h('tr');
    for (const c of result.columns ?? []) {
      const th = h('th', {text: c.name, title: c.type});
      th.scope = 'col';
      th.dataset.column = c.name;
      headRow.append(th);
    }
    for (const [label, title] of [[`partition key${pk ? ` (${pk})` : ''}`, 'the partition the row belongs to'],
                                  ['token', 'Murmur3 token of the partition key'],
                                  [stale ? 'replicas (previous ring)' : 'replicas', 'nodes holding the partition, primary first']]) {
      const th = h('th', {className: 'extra', text: label, title});
      th.scope = 'col';
      headRow.append(th);
    }
    table.append(h('thead', {}, [headRow]));
    const body = h('tbody');
    for (let k = 0; k < shown; k++) {
      const p = result.partitions?.[result.row_partition?.[k] ?? -1];
      const tr = h('tr', {testid: 'cql-row'});
      for (const cell of cells[k]) tr.append(h('td', {text: cell ?? 'null', className: cell === null ? 'null' : ''}));
      if (p) {
        tr.dataset.token = p.token;
        tr.dataset.key = JSON.stringify(p.key);
        tr.dataset.replicas = JSON.stringify(p.replicas);
        tr.dataset.partition = String(result.row_partition[k]);
        tr.append(h('td', {className: 'extra key-cell', text: keyText(p.key)}),
                  h('td', {className: 'extra token-cell mono', text: p.token, testid: 'cql-row-token'}));
        const button = h('button', {className: 'replica-button', testid: 'cql-row-select',
                                    text: p.replicas.map((node) => names[node] ?? `#${node}`).join(', ') || '–'});
        button.type = 'button';
        button.setAttribute('aria-label', `Show partition ${keyText(p.key)} on the ring (replicas ${button.textContent})`);
        button.setAttribute('aria-pressed', 'false');
        button.addEventListener('click', (event) => {
          event.stopPropagation();
          select({token: p.token, key: p.key, replicas: p.replicas, replica_vnodes: p.replica_vnodes,
                  generation: state.results.generation}, {reveal: true});
        });
        tr.append(h('td', {className: 'extra'}, [button]));
        tr.addEventListener('click', () => select({token: p.token, key: p.key, replicas: p.replicas,
                                                   replica_vnodes: p.replica_vnodes, generation: state.results.generation},
                                                  {reveal: true}));
      } else {
        for (let x = 0; x < 3; x++) tr.append(h('td', {className: 'extra', text: '–', title: 'an aggregate: no single partition'}));
      }
      body.append(tr);
    }
    table.append(body);
    wrap.append(h('div', {className: 'table-scroll'}, [table]));
    const foot = h('p', {className: 'cql-rowcount', testid: 'cql-rowcount', text: `(${plural(n, 'row')})` +
      (result.partitions?.length ? ` from ${plural(result.partitions.length, 'partition')}` : '')});
    foot.dataset.rows = String(n);
    wrap.append(foot);
    if (shown < n) {
      const more = h('button', {className: 'small', text: `Show ${formatInt(Math.min(n - shown, 1000))} more rows`});
      more.type = 'button';
      more.addEventListener('click', () => {
        state.shownRows.set(i, shown + 1000);
        renderResults();
      });
      wrap.append(more);
    }
    return wrap;
  }

  // -------------------------------------------------------------------------------------------
  // Selection: a partition picked in the grid or on the ring.

  /**
   * The engine's placement of the selection on the ring on screen ({replicas, replica_vnodes}), or
   * null when it is unknown (computed on an older ring and not among the partitions drawn).
   */
  function currentPlacement(sel) {
    if (!sel) return null;
    if (sel.generation === state.generation) return sel;
    const p = state.view?.layout?.partitions?.find((x) => x.token === sel.token && keyText(x.key) === keyText(sel.key));
    return p ?? null;
  }

  /** The replicas of the selection on the ring on screen, or null when they are unknown (stale). */
  const currentReplicas = (sel) => currentPlacement(sel)?.replicas ?? null;

  /**
   * The Cosmos DB physical partition the engine placed the selection in (layout.partitions[].
   * physical_partition), as its range of view.cosmos; null when the layout does not list it.
   */
  function physicalRangeOf(view, sel) {
    const p = view?.layout?.partitions?.find((x) => x.token === sel.token && keyText(x.key) === keyText(sel.key));
    return p ? view.cosmos?.ranges?.find((r) => r.id === p.physical_partition) ?? null : null;
  }

  function select(sel, {reveal = false} = {}) {
    state.selected = sel;
    markSelectedRows();
    renderRingPart();
    // From a result row: bring the partition's place on the ring into view (it may be far below),
    // at once: a smooth scroll would move what the pointer aims at while it runs.
    if (reveal) el.ringChart.scrollIntoView?.({block: 'center'});
  }

  function markSelectedRows() {
    const sel = state.selected;
    for (const tr of el.results.querySelectorAll('tr[data-token]')) {
      const on = !!sel && tr.dataset.token === sel.token && tr.dataset.key === JSON.stringify(sel.key);
      tr.classList.toggle('selected', on);
      tr.querySelector('.replica-button')?.setAttribute('aria-pressed', String(on));
    }
  }

  function renderSelection(view) {
    const sel = state.selected;
    const box = el.selection;
    box.replaceChildren();
    if (!sel) {
      box.append(h('p', {className: 'hint', text: 'Click a row of a result, or a dot on the ring, to see where its partition lives.'}));
      box.dataset.token = '';
      return;
    }
    box.dataset.token = sel.token;
    box.append(h('h3', {text: 'Selected partition'}));
    const dl = h('dl', {className: 'selection-facts'});
    dl.append(h('dt', {text: 'partition key'}), h('dd', {className: 'mono', text: keyText(sel.key)}),
              h('dt', {text: 'token'}), h('dd', {className: 'mono', text: sel.token, testid: 'selection-token'}));
    box.append(dl);
    if (state.cosmos && view?.cosmos) {
      const range = physicalRangeOf(view, sel);
      const c = view.layout?.cosmos ?? {replicas: 4, quorum: 3};
      box.append(h('p', {testid: 'selection-physical',
                         text: range ? `Physical partition P${range.id} (tokens ${range.min} .. ${range.max}) holds it: a replica set ` +
                           `of ${c.replicas} replicas, and a write is acknowledged once ${c.quorum} of them have it (quorum).`
                           : 'This partition is not among those the layout lists, so its physical partition is not shown.'}));
      box.dataset.physical = range ? String(range.id) : '';
      return;
    }
    const replicas = currentReplicas(sel);
    const nodes = view?.ring?.nodes ?? [];
    if (!replicas) {
      box.append(h('p', {className: 'callout warn', text: 'The ring changed since this row was read: run the script again to ' +
        'place the partition on the new ring.'}));
      return;
    }
    const list = h('ol', {className: 'selection-replicas', testid: 'selection-replicas'});
    replicas.forEach((node, i) => {
      const n = nodes[node];
      const li = h('li', {className: nodeClass(node)}, [
        h('span', {className: `swatch ${nodeClass(node)}`}),
        h('strong', {text: n?.name ?? `node #${node}`}),
        ` ${n ? `${n.address}, ${n.datacenter}, ${n.rack}` : ''}${i === 0 ? ' — primary replica' : ''}`,
      ]);
      li.dataset.node = String(node);
      list.append(li);
    });
    const ks = view ? keyspaceOf(view) : null;
    const missing = ks ? missingDatacenters(ks, view) : [];
    const lacking = missing.length ? ` The keyspace names ${missing.join(', ')}, which the ring does not have.` : '';
    const text = replicas.length
      ? `${plural(replicas.length, 'replica')}, in the order the walk finds them:${lacking}`
      : `No replica: the keyspace places no copy on this cluster.${lacking}`;
    box.append(h('p', {className: missing.length ? 'callout bad' : '', testid: 'selection-replica-note', text}), list);
  }

  // -------------------------------------------------------------------------------------------
  // The view: table picker, replication, ring, ownership, load, Cosmos DB figures.

  function acceptView(view) {
    state.view = view;
    state.viewRu = view.cosmos?.ru_per_second ?? state.viewRu;
    fillTablePickers(view);
    // The ring controls are not set from the view: they are what the user typed (a reply to an
    // earlier change must not overwrite a later one).
    renderViewText(view);
    renderRingPart();
    renderTablesAndLoad();
  }

  function fillTablePickers(view) {
    const tables = (view.keyspaces ?? []).flatMap((k) => k.tables.map((t) => `${k.name}.${t}`));
    for (const picker of [el.table, el.loadTable]) {
      const keep = picker === el.table ? view.table : picker.value || view.table;
      picker.replaceChildren(...tables.map((t) => {
        const option = h('option', {text: t});
        option.value = t;
        return option;
      }));
      if (tables.length === 0) picker.append(Object.assign(h('option', {text: 'no table yet: create one'}), {value: ''}));
      picker.value = tables.includes(keep) ? keep : view.table ?? '';
      picker.disabled = tables.length === 0;
    }
    el.loadInput.disabled = tables.length === 0;
    el.loadAgain.disabled = tables.length === 0 || !state.lastLoad;
    el.loadExample.disabled = tables.length === 0;
  }

  function keyspaceOf(view) {
    return (view.keyspaces ?? []).find((k) => k.name === view.keyspace) ?? null;
  }

  function renderViewText(view) {
    const ks = keyspaceOf(view);
    el.replication.replaceChildren();
    if (ks) {
      el.replication.append(h('span', {className: 'figure-label', text: `Keyspace ${ks.name} replication: `}),
                            h('strong', {text: replicationText(ks.replication)}),
                            h('span', {className: 'hint', text: ` — ${plural(ks.copies, 'copy', 'copies')} of every partition`}));
      el.replication.dataset.class = ks.replication.class;
      el.replication.dataset.copies = String(ks.copies);
      const missing = missingDatacenters(ks, view);
      el.replication.dataset.missingDatacenters = missing.join(',');
      if (missing.length) {
        const have = [...new Set((view.ring?.nodes ?? []).map((n) => n.datacenter))];
        el.replication.append(h('span', {className: 'callout bad', testid: 'replication-missing-dc', text:
          `${ks.name} names datacenter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which the ring does not ` +
          `have (its datacenter${have.length > 1 ? 's' : ''}: ${have.join(', ') || 'none'}): Cassandra places no copy ` +
          `there, so the partitions get fewer copies than the ${formatInt(ks.copies)} asked for` +
          ' (none at all when every named datacenter is missing). Name the ring\'s datacenters, or change the ring.'}));
      }
    } else {
      el.replication.append(h('span', {className: 'hint', text: 'No keyspace yet: run a script that creates one.'}));
      el.replication.dataset.class = '';
    }
  }

  /** The datacenters a NetworkTopologyStrategy keyspace names that the ring has no node in. */
  function missingDatacenters(ks, view) {
    if (!/NetworkTopologyStrategy$/.test(ks.replication?.class ?? '')) return [];
    const have = new Set((view.ring?.nodes ?? []).map((n) => n.datacenter));
    return Object.keys(ks.replication.options ?? {})
      .filter((name) => name !== 'class' && name !== 'replication_factor' && !have.has(name));
  }

  function renderRingPart() {
    const view = state.view;
    if (!view) return;
    const cosmos = state.cosmos && view.cosmos
      ? {...view.cosmos, replicas: view.layout?.cosmos?.replicas ?? 4, quorum: view.layout?.cosmos?.quorum ?? 3} : null;
    const sel = state.selected;
    const placement = currentPlacement(sel);
    const selected = sel ? {...sel, replicas: placement?.replicas ?? [], replica_vnodes: placement?.replica_vnodes ?? [],
                            physicalRange: physicalRangeOf(view, sel)} : null;
    try {
      renderRing(el.ringChart, {ring: view.ring, layout: view.layout, selected, cosmos,
                                label: cosmos ? 'Cosmos DB Cassandra API physical partitions' : 'Token ring',
                                onSelect: (p) => select({...p, generation: state.generation})});
    } catch (e) {
      el.ringChart.replaceChildren(h('p', {className: 'hint', text: `The ring could not be drawn: ${e.message}`}));
    }
    el.ringChart.dataset.mode = cosmos ? 'cosmos' : 'cassandra';
    el.ringCaption.textContent = cosmos
      ? 'The Cosmos DB Cassandra API model: the token range split evenly into physical partitions (each a replica set ' +
        'of 4). Cosmos DB hashes keys with its own function into a larger internal ring, so which physical partition ' +
        'holds a key here is an illustration, not the service\'s assignment.'
      : 'The ring: each arc is a token range, coloured by the node that owns it; dots are the partitions of the table ' +
        'drawn, at their token. Click a dot (or a result row) to select its partition: the numbered markers show where ' +
        'the walk clockwise finds each replica (1 = primary).';
    renderSelection(view);
    renderOwnership(view, cosmos);
  }

  function renderOwnership(view, cosmos) {
    const table = byTestId('ownership-table');
    const sel = state.selected;
    const replicas = new Set(sel && !cosmos ? currentReplicas(sel) ?? [] : []);
    if (cosmos) {
      el.ownershipHeading.textContent = 'Physical partitions';
      const selectedRange = sel ? physicalRangeOf(view, sel) : null;
      fillTable(table, [{label: 'physical partition'}, {label: 'tokens from'}, {label: 'to'}, {label: 'share', num: true},
                        {label: 'replicas', num: true}],
      cosmos.ranges.map((r) => [h('span', {}, [h('span', {className: `swatch ${nodeClass(r.id)}`}), `P${r.id}`]), r.min, r.max,
                                formatPercent(1 / cosmos.ranges.length), String(cosmos.replicas)]),
      {caption: 'Physical partitions of the Cosmos DB Cassandra API model'});
      table.querySelectorAll('tbody tr').forEach((tr, i) => {
        tr.dataset.range = String(i);
        tr.classList.toggle('replica', selectedRange?.id === i);
      });
      el.ownershipNote.textContent = `Each physical partition is an even slice of the token range here; the service manages the ` +
        `real ones (and splits them as data and throughput grow).`;
      return;
    }
    el.ownershipHeading.textContent = 'Ownership';
    const nodes = view.ring.nodes ?? [];
    const vnodes = new Array(nodes.length).fill(0);
    for (const t of view.ring.tokens ?? []) vnodes[t.node]++;
    const effective = nodes.some((n) => n.effective_ownership !== undefined);
    const head = [{label: 'node'}, {label: 'datacenter / rack'}, {label: 'vnodes', num: true},
                  {label: 'owns', num: true, title: 'share of the token ring the node owns (nodetool status)'}];
    if (effective) head.push({label: 'owns (effective)', num: true,
                              title: `share of the ring the node holds a replica of under keyspace ${view.keyspace}'s replication ` +
                                '(nodetool status <keyspace>)'});
    fillTable(table, head, nodes.map((n, i) => {
      const name = h('span', {className: 'node-name', title: n.address}, [h('span', {className: `swatch ${nodeClass(i)}`}), n.name]);
      const row = [name, `${n.datacenter} / ${n.rack}`, formatInt(vnodes[i]), formatPercent(n.ownership)];
      if (effective) row.push(formatPercent(n.effective_ownership ?? 0));
      return row;
    }), {caption: 'Ownership of the token ring per node'});
    table.querySelectorAll('tbody tr').forEach((tr, i) => {
      tr.dataset.node = String(i);
      tr.dataset.ownership = String(nodes[i].ownership);
      if (effective) tr.dataset.effective = String(nodes[i].effective_ownership ?? 0);
      tr.classList.toggle('replica', replicas.has(i));
    });
    const total = nodes.reduce((s, n) => s + n.ownership, 0);
    el.ownershipNote.textContent = `Ownership sums to ${formatPercent(total)} of the ring` +
      (effective ? `; effective ownership sums to the keyspace's ${formatInt(Math.round(nodes.reduce((s, n) => s + (n.effective_ownership ?? 0), 0)))} copies` : '') +
      (view.ring.random_tokens ? '. Random tokens give uneven shares; more vnodes even them out.' : '.');
  }

  function renderTablesAndLoad() {
    const view = state.view;
    if (!view) return;
    const nodes = view.ring.nodes ?? [];
    // Token ranges.
    const ranges = vnodeRanges(view.ring);
    fillTable(byTestId('ring-ranges-table'), [{label: '#', num: true}, {label: 'from (exclusive)'}, {label: 'to (inclusive)'},
                                               {label: 'node'}, {label: 'share of the ring', num: true}],
    ranges.slice(0, TABLE_VIEW_ROWS).map((r) => [formatInt(r.index + 1), r.start, r.end, nodes[r.node]?.name ?? String(r.node),
                                                  formatPercent(r.fraction)]),
    {caption: 'Token ranges of the ring and their owners'});
    byId('ring-ranges-note').textContent = ranges.length > TABLE_VIEW_ROWS
      ? `The first ${formatInt(TABLE_VIEW_ROWS)} of ${formatInt(ranges.length)} ranges.` : `${plural(ranges.length, 'range')}.`;

    // Partitions (the dots).
    const layout = view.layout;
    const parts = layout?.partitions ?? [];
    const table = byTestId('ring-partitions-table');
    fillTable(table, [{label: 'token'}, {label: 'partition key'}, {label: 'rows', num: true}, {label: 'bytes', num: true},
                      {label: 'replicas (select)'}],
    parts.slice(0, TABLE_VIEW_ROWS).map((p) => {
      const button = h('button', {className: 'replica-button', text: p.replicas.map((n) => nodes[n]?.name ?? n).join(', ') || '–'});
      button.type = 'button';
      button.setAttribute('aria-label', `Select partition ${keyText(p.key)}`);
      button.addEventListener('click', () => select({token: p.token, key: p.key, replicas: p.replicas,
                                                     replica_vnodes: p.replica_vnodes, generation: state.generation}));
      return [p.token, keyText(p.key), formatInt(p.rows), formatBytes(p.bytes), button];
    }), {caption: 'Partitions drawn on the ring, in token order'});
    table.querySelectorAll('tbody tr').forEach((tr, i) => { tr.dataset.token = parts[i].token; });
    byId('ring-partitions-note').textContent = !layout ? 'No table yet.'
      : `${plural(parts.length, 'partition')} listed of ${formatInt(layout.partition_count)}` +
        (layout.sample_every > 1 ? ` (every ${formatInt(layout.sample_every)}th)` : '') +
        (layout.partitions_scanned < layout.partition_count ? `, from the first ${formatInt(layout.partitions_scanned)} in token order` : '') +
        (parts.length > TABLE_VIEW_ROWS ? `; the first ${formatInt(TABLE_VIEW_ROWS)} are in the table` : '') + '.';

    renderLoad(view);
    renderCosmos(view);
  }

  function renderLoad(view) {
    const layout = view.layout;
    const loadTable = byTestId('load-table');
    const sel = state.selected;
    if (state.cosmos && view.cosmos) {
      el.loadHeading.textContent = 'Load per physical partition';
      el.loadHint.textContent = 'What each physical partition of the Cosmos DB model holds of the table drawn (each of its 4 ' +
        'replicas holds all of it).';
      const selectedRange = sel ? physicalRangeOf(view, sel) : null;
      const rows = view.cosmos.ranges.map((r) => ({label: `P${r.id}`, index: r.id, partitions: r.partitions, rows: r.rows, bytes: r.bytes,
                                                    highlighted: selectedRange?.id === r.id}));
      drawLoad(rows, 'Load per physical partition');
      fillTable(loadTable, [{label: 'physical partition'}, {label: 'partitions', num: true}, {label: 'rows', num: true},
                            {label: 'bytes', num: true}, {label: `of ${limitText(CASSANDRA_API_PHYSICAL)}`, num: true}],
      rows.map((r) => [r.label, formatInt(r.partitions), formatInt(r.rows), formatBytes(r.bytes),
                       share(r.bytes / (view.layout?.cosmos?.physical_partition_bytes ?? limitValue(CASSANDRA_API_PHYSICAL)))]),
      {caption: 'Load per physical partition'});
      loadTable.querySelectorAll('tbody tr').forEach((tr, i) => {
        tr.dataset.rows = String(rows[i].rows);
        tr.dataset.partitions = String(rows[i].partitions);
      });
      return;
    }
    el.loadHeading.textContent = 'Load per node';
    el.loadHint.textContent = 'What each node holds as a replica of the table drawn: partitions, rows and bytes (the sizing ' +
      'formulas\' size on disk). A node holds every partition it is a replica of, so the sums are the table times its replication.';
    const nodes = view.ring.nodes ?? [];
    const replicas = new Set(sel ? currentReplicas(sel) ?? [] : []);
    const loads = layout?.nodes ?? nodes.map(() => ({partitions: 0, rows: 0, bytes: 0, primary_partitions: 0, primary_rows: 0, primary_bytes: 0}));
    const rows = loads.map((l, i) => ({label: nodes[i]?.name ?? `#${i}`, index: i, partitions: l.partitions, rows: l.rows,
                                       bytes: l.bytes, highlighted: replicas.has(i)}));
    drawLoad(rows, 'Load per node');
    fillTable(loadTable, [{label: 'node'}, {label: 'partitions', num: true}, {label: 'rows', num: true}, {label: 'bytes', num: true},
                          {label: 'as primary: partitions', num: true}, {label: 'rows', num: true}, {label: 'bytes', num: true}],
    loads.map((l, i) => [nodes[i]?.name ?? `#${i}`, formatInt(l.partitions), formatInt(l.rows), formatBytes(l.bytes),
                         formatInt(l.primary_partitions), formatInt(l.primary_rows), formatBytes(l.primary_bytes)]),
    {caption: 'Load per node: partitions, rows and bytes held as a replica, and as the primary replica'});
    loadTable.querySelectorAll('tbody tr').forEach((tr, i) => {
      tr.dataset.node = String(i);
      tr.dataset.partitions = String(loads[i].partitions);
      tr.dataset.rows = String(loads[i].rows);
      tr.dataset.bytes = String(loads[i].bytes);
      tr.classList.toggle('replica', replicas.has(i));
    });
  }

  function drawLoad(rows, label) {
    try {
      renderLoadChart(el.loadChart, rows, {label});
    } catch (e) {
      el.loadChart.replaceChildren(h('p', {className: 'hint', text: `The chart could not be drawn: ${e.message}`}));
    }
  }

  function renderCosmos(view) {
    el.cosmosPanel.hidden = !state.cosmos;
    if (!state.cosmos) return;
    const c = view.layout?.cosmos ?? {replicas: 4, quorum: 3, physical_partition_bytes: limitValue(CASSANDRA_API_PHYSICAL),
                                      logical_partition_bytes: limitValue('cosmos_logical_partition_bytes')};
    const model = view.cosmos;
    setFigure(byTestId('cosmos-replicas'), formatInt(c.replicas), c.replicas);
    setFigure(byTestId('cosmos-quorum'), formatInt(c.quorum), c.quorum);
    setFigure(byTestId('cosmos-physical-limit'), formatBytes(c.physical_partition_bytes), c.physical_partition_bytes);
    setFigure(byTestId('cosmos-logical-limit'), formatBytes(c.logical_partition_bytes), c.logical_partition_bytes);
    const largest = view.layout?.largest_partition_bytes ?? 0;
    const over = largest > c.logical_partition_bytes;
    byTestId('cosmos-largest').textContent = view.layout
      ? `largest partition of ${view.layout.table}: ${formatBytes(largest)} (${formatPercent(largest / c.logical_partition_bytes)})` +
        (over ? ' — over the limit' : '') : '';
    byTestId('cosmos-largest').closest('.figure').classList.toggle('bad', over);
    if (model) {
      setFigure(byTestId('cosmos-physical'), formatInt(model.physical_partitions), model.physical_partitions);
      byTestId('cosmos-physical-sub').textContent = `${formatInt(model.for_throughput)} for throughput, ${formatInt(model.for_storage)} for storage`;
      el.cosmosExplain.textContent = `${formatInt(model.ru_per_second)} RU/s needs ${plural(model.for_throughput, 'physical partition')} ` +
        `(${formatInt(model.ru_per_physical_partition)} RU/s each at most); ${formatBytes(view.layout.bytes)} needs ` +
        `${formatInt(model.for_storage)} (${formatBytes(c.physical_partition_bytes)} each). So the table has ` +
        `${plural(model.physical_partitions, 'physical partition')}, each a replica set of ${c.replicas} that commits a write ` +
        `once ${c.quorum} replicas have it.`;
    } else {
      setFigure(byTestId('cosmos-physical'), '–', 0);
      byTestId('cosmos-physical-sub').textContent = 'create a table first';
      el.cosmosExplain.textContent = 'Run a script that creates a table to see its physical partitions.';
    }
    const ks = keyspaceOf(view);
    const copies = ks ? ks.copies : 0;
    const rows = [
      ['Copies of each partition', ks ? `${plural(copies, 'copy', 'copies')}: ${replicationText(ks.replication)} (a replication factor of 1 is allowed)`
        : 'set per keyspace (replication factor, even 1)', `always ${c.replicas} (a replica set per physical partition), quorum ${c.quorum}`],
      ['Where partitions live', `${plural(view.ring.nodes.length, 'node')}, each owning ${formatInt(view.ring.num_tokens)} vnode token ranges`,
        model ? `${plural(model.physical_partitions, 'physical partition')}, managed (moved, split) by the service` : 'physical partitions managed by the service'],
      ['Partition size', `about ${limitText('cassandra_recommended_partition_bytes')} per partition recommended`,
        `up to ${formatBytes(c.logical_partition_bytes)} per logical partition, ${formatBytes(c.physical_partition_bytes)} per physical partition`],
      ['Capacity', 'the nodes\' cores, memory and disks', `request units: up to ${formatInt(model?.ru_per_physical_partition ?? limitValue('cosmos_physical_partition_ru_per_second'))} RU/s per physical partition`],
      ['Token range', '−2⁶³ … 2⁶³−1 (Murmur3)', 'the same range shown to clients; internally another hash and a larger ring'],
    ];
    el.cosmosCompare.replaceChildren(...rows.map(([what, cassandra, cosmos]) => {
      const th = h('th', {text: what});
      th.scope = 'row';
      return h('tr', {}, [th, h('td', {text: cassandra}), h('td', {text: cosmos})]);
    }));
  }

  // -------------------------------------------------------------------------------------------
  // Ring controls.

  function ringFromControls() {
    const int = (input, min, max, what) => {
      const v = Number(input.value);
      if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${what} must be a whole number from ${min} to ${max}.`);
      return v;
    };
    const dcs = int(el.ringDatacenters, 1, 8, 'Datacenters');
    const nodes = int(el.ringNodes, 1, 1000, 'Nodes');
    const racks = int(el.ringRacks, 1, 64, 'Racks');
    const numTokens = int(el.ringVnodes, 1, 256, 'Vnodes per node');
    const seed = int(el.ringSeed, 0, Number.MAX_SAFE_INTEGER, 'The seed');
    if (dcs * nodes > 1000) throw new Error('A ring has at most 1,000 nodes in all.');
    const random = el.ringForm.querySelector('input[name="ring-tokens"]:checked')?.value === 'random';
    const ring = {nodes: dcs * nodes, num_tokens: numTokens, random_tokens: random, seed};
    if (dcs > 1 || racks > 1) {
      ring.datacenters = Array.from({length: dcs}, (_, d) => ({name: `datacenter${d + 1}`, nodes, racks}));
    }
    return ring;
  }

  let lastRing = '';
  function applyRing() {
    let ring;
    try {
      ring = ringFromControls();
    } catch (e) {
      el.ringError.textContent = e.message;
      el.ringError.hidden = false;
      return;
    }
    el.ringError.hidden = true;
    el.ringSeedLabel.classList.toggle('disabled', !ring.random_tokens);
    const key = JSON.stringify(ring);
    if (key === lastRing) return;
    lastRing = key;
    enqueue(async () => {
      try {
        const view = await client.ring({ring, table: state.view?.table ?? undefined, ru: ru()});
        state.generation++;
        acceptView(view);
        if (state.results) renderResults();
      } catch (e) {
        lastRing = '';
        el.ringError.textContent = e.message;
        el.ringError.hidden = false;
        if (e) e.shown = true;
        throw e;
      }
    });
  }

  function refreshView({table} = {}) {
    return enqueue(async () => {
      acceptView(await client.cqlView({table: table ?? state.view?.table ?? undefined, ru: ru()}));
    });
  }

  // -------------------------------------------------------------------------------------------
  // Loading JSON or CSV into a table (gzip or not: the worker decompresses it).

  function chosenFormat() {
    return el.formatCsv.checked ? LoadFormat.CSV : LoadFormat.JSON;
  }

  function setFormat(format) {
    el.formatCsv.checked = format === LoadFormat.CSV;
    el.formatJson.checked = format !== LoadFormat.CSV;
    syncFormat();
  }

  function syncFormat() {
    el.csvOptions.hidden = chosenFormat() !== LoadFormat.CSV;
  }

  /** The CSV options of the controls (protocol.js CsvOptions); the engine checks their values. */
  function csvOptions() {
    const options = {header: el.csvHeader.checked, delimiter: el.csvDelimiter.value};
    if (el.csvNull.value !== '') options.null = el.csvNull.value;
    if (el.csvQuote.value !== '') options.quote = el.csvQuote.value;
    if (el.csvEscape.value !== '') options.escape = el.csvEscape.value;
    const datetime = el.csvDatetime.value.trim();
    if (datetime) options.datetimeformat = datetime;
    const columns = el.csvColumns.value.split(',').map((c) => c.trim()).filter(Boolean);
    if (columns.length) options.columns = columns;
    return options;
  }

  /** Puts CsvOptions (an example's) into the controls; what they do not give goes back to its default. */
  function setCsvControls(csv = {}) {
    el.csvHeader.checked = csv.header ?? true;
    el.csvDelimiter.value = [...el.csvDelimiter.options].some((o) => o.value === csv.delimiter) ? csv.delimiter : ',';
    el.csvNull.value = csv.null ?? '';
    el.csvQuote.value = csv.quote ?? '"';
    el.csvEscape.value = csv.escape ?? '\\';
    el.csvDatetime.value = csv.datetimeformat ?? '';
    el.csvColumns.value = Array.isArray(csv.columns) ? csv.columns.join(', ') : '';
  }

  function loadFile(file) {
    if (!file) return undefined;
    // The name decides the format when it says one (.csv, .csv.gz, .json, .ndjson.gz, ...).
    const named = formatOfName(file.name);
    if (named) setFormat(named);
    if (/\.tsv(\.gz)?$/i.test(file.name)) el.csvDelimiter.value = '\t';
    state.lastLoad = {source: {kind: SourceKind.FILE, file, name: file.name}, name: file.name};
    el.loadAgain.disabled = false;
    return loadRows(state.lastLoad);
  }

  /** Loads `source` into the table picked (or `table`) in the format and with the options chosen. */
  function loadRows({source, name}, {table = el.loadTable.value, after = ''} = {}) {
    if (!source || !table) return undefined;
    const format = chosenFormat();
    const csv = format === LoadFormat.CSV ? csvOptions() : undefined;
    const abort = new AbortController();
    state.loadAbort = abort;
    let progress = null;
    el.loadStatus.textContent = '';
    el.loadStatus.classList.remove('bad', 'partial');
    showFailures([]);
    const timer = setTimeout(() => {
      el.progress.hidden = false;
      updateProgress(progress, name);
    }, PROGRESS_DELAY_MS);
    return enqueue(async () => {
      try {
        const out = await client.cqlLoad({
          table, source, format, csv, ru: ru(), signal: abort.signal,
          onProgress: (p) => {
            progress = p;
            if (!el.progress.hidden) updateProgress(p, name);
          },
        });
        showLoaded(out, name, table);
        acceptView(out.view);
        if (out.stopped) throw Object.assign(new Error(out.stopped.message), {shown: true, stopped: true});
      } catch (e) {
        if (e?.stopped) throw e;
        el.loadStatus.classList.add('bad');
        const loc = e.location;
        const item = loc && format !== LoadFormat.CSV && loc.item_index >= 0 ? `, item #${formatInt(loc.item_index)}` : '';
        const where = loc && loc.line > 0 ? ` (line ${formatInt(loc.line)}, column ${formatInt(loc.column)}${item})` : '';
        el.loadStatus.textContent = e.cancelled ? 'Loading cancelled; the rows loaded before stay.' : `${e.message}${where}`;
        el.loadStatus.dataset.rows = '';
        el.loadStatus.dataset.failed = '';
        el.loadStatus.dataset.code = e.codeName ?? '';
        if (e) e.shown = true;
        // The table may hold some rows now: show them.
        try {
          acceptView(await client.cqlView({table, ru: ru()}));
        } catch { /* the error above is what matters */ }
        throw e;
      } finally {
        clearTimeout(timer);
        el.progress.hidden = true;
        state.loadAbort = null;
      }
      // An example's queries over what it loaded.
      if (after) await runStatements(after);
    });
  }

  /** The result line of a finished (or stopped) load and the rows that failed, located. */
  function showLoaded(out, name, table) {
    const what = out.format === LoadFormat.CSV ? 'CSV' : 'JSON';
    const size = out.source ? ` (${sourceSize(out.source, what)})` : '';
    let text = `Loaded ${plural(out.rows, 'row')} from ${name}${size} into ${table} in ${formatMs(out.timing.ms)}.`;
    const stop = out.stopped;
    if (stop) {
      const loc = stop.location;
      const where = loc && loc.line > 0 ? ` at line ${formatInt(loc.line)}, column ${formatInt(loc.column)}` : '';
      // The engine's message says how many rows loaded before it (they stay).
      text = `The load of ${name} into ${table} stopped${where}: ${stop.message}.`;
    }
    const failed = out.failed ?? 0;
    const failures = out.failures ?? [];
    if (failed > 0) {
      text += ` ${plural(failed, 'row')} failed` +
        (failures.length < failed ? `; the first ${formatInt(failures.length)} are listed below.` : ', listed below.');
    }
    el.loadStatus.textContent = text;
    el.loadStatus.classList.toggle('bad', !!stop);
    el.loadStatus.classList.toggle('partial', !stop && failed > 0);
    el.loadStatus.dataset.rows = String(out.rows);
    el.loadStatus.dataset.failed = String(failed);
    el.loadStatus.dataset.table = table;
    el.loadStatus.dataset.bytes = String(out.source?.bytes ?? '');
    el.loadStatus.dataset.compressedBytes = String(out.source?.compressedBytes ?? '');
    if (stop) el.loadStatus.dataset.code = stop.codeName ?? '';
    else delete el.loadStatus.dataset.code;
    showFailures(failures);
  }

  function showFailures(failures) {
    el.loadFailures.hidden = failures.length === 0;
    el.loadFailures.replaceChildren(...failures.map((f) => {
      const li = h('li', {testid: 'cql-load-failure'}, [
        h('span', {className: 'where', text: `line ${formatInt(f.line)}, column ${formatInt(f.column)}`}),
        `: ${f.message}`,
      ]);
      li.dataset.line = String(f.line);
      li.dataset.column = String(f.column);
      return li;
    }));
  }

  function updateProgress(p, name) {
    const share = progressShare(p);
    const rows = p ? ` · ${plural(p.items, 'row')}${p.failed ? `, ${formatInt(p.failed)} failed` : ''}` : '';
    if (!p || share === null) {
      el.progressTrack.classList.add('indeterminate');
      el.progressText.textContent = `Loading ${name}${p ? `: ${progressBytes(p, chosenFormat() === LoadFormat.CSV ? 'CSV' : 'JSON')}${rows}` : '…'}`;
      return;
    }
    el.progressTrack.classList.remove('indeterminate');
    el.progressBar.style.width = `${(share * 100).toFixed(1)}%`;
    el.progressTrack.setAttribute('aria-valuenow', String(Math.round(share * 100)));
    el.progressText.textContent = `Loading ${name}: ${progressBytes(p, chosenFormat() === LoadFormat.CSV ? 'CSV' : 'JSON')} ` +
      `(${formatPercent(share)})${rows}`;
  }

  // -------------------------------------------------------------------------------------------
  // Examples.

  async function loadExamples() {
    const response = await fetch(new URL('index.json', examplesBase));
    if (!response.ok) throw new Error(`examples/cql/index.json: HTTP ${response.status}`);
    const list = await response.json();
    state.examples = (Array.isArray(list) ? list : []).filter((e) => e && typeof e.id === 'string' && typeof e.file === 'string');
    el.example.replaceChildren(...state.examples.map((e) => {
      const option = h('option', {text: typeof e.title === 'string' ? e.title : e.id});
      option.value = e.id;
      return option;
    }));
  }

  async function useExample(example, {focusError = false} = {}) {
    el.exampleDescription.textContent = example.description ?? '';
    const response = await fetch(new URL(example.file, examplesBase));
    if (!response.ok) throw new Error(`${example.file}: HTTP ${response.status}`);
    el.editor.value = await response.text();
    el.editor.dataset.example = example.id;
    offerExampleLoad(example.load);
    // A schema dump creates its keyspace without IF NOT EXISTS, as on a fresh cluster.
    if (example.fresh_session === true) {
      enqueue(async () => {
        const view = await client.cqlReset({ru: ru()});
        state.selected = null;
        acceptView(view);
      });
    }
    return runScript({focusError});
  }

  /**
   * The button that loads an example's data file ({file, table, format, csv, after} of
   * examples/cql/index.json) with the bulk load: COPY FROM, which reads a file, is for
   * `partplay cql`; on the page the example's file is loaded through the worker.
   */
  function offerExampleLoad(load) {
    const usable = load && typeof load.file === 'string' && typeof load.table === 'string';
    state.exampleLoad = usable ? load : null;
    el.loadExample.hidden = !usable;
    el.loadExample.textContent = usable ? `Load ${load.file} into ${load.table}` : '';
  }

  // -------------------------------------------------------------------------------------------
  // Events.

  el.run.addEventListener('click', () => runScript());
  el.editor.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      runScript();
    }
  });
  // An engine failure restarts the worker (client.js): the session it held is gone. Say so, put
  // the ring of the controls back and show the empty session; the script stays in the editor.
  client.addEventListener('restart', ({detail}) => {
    if (!state.started) return;
    enqueue(async () => {
      let ring = null;
      try {
        ring = ringFromControls();
      } catch {
        // The controls hold no valid ring: the fresh session keeps its default one.
      }
      const view = ring ? await client.ring({ring, ru: ru()}) : await client.cqlView({ru: ru()});
      lastRing = ring ? JSON.stringify(ring) : '';
      state.generation++;
      state.results = null;
      state.selected = null;
      renderResults();
      acceptView(view);
      el.status.textContent = `${detail.error.message} The session was reset: its keyspaces, tables and rows are ` +
        'gone; run the script again to rebuild them.';
      el.status.classList.add('bad');
      el.status.dataset.code = detail.error.codeName;
    });
  });

  el.editor.addEventListener('input', () => {
    delete el.editor.dataset.example;
  });
  el.example.addEventListener('change', () => {
    const example = state.examples.find((e) => e.id === el.example.value);
    if (example) useExample(example).catch((e) => showRequestError(e));
  });
  el.reset.addEventListener('click', () => {
    enqueue(async () => {
      const view = await client.cqlReset({ru: ru()});
      state.results = null;
      state.selected = null;
      renderResults();
      el.status.classList.remove('bad');
      el.status.textContent = 'A fresh session: no keyspaces.';
      acceptView(view);
    });
  });

  let settle = 0;
  el.ringForm.addEventListener('input', (event) => {
    clearTimeout(settle);
    if (event.target.type === 'number') settle = setTimeout(applyRing, SETTLE_MS);
  });
  el.ringForm.addEventListener('change', () => {
    clearTimeout(settle);
    applyRing();
  });
  el.ringForm.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(settle);
    applyRing();
  });
  el.ringForm.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      clearTimeout(settle);
      applyRing();
    }
  });

  el.table.addEventListener('change', () => {
    if (el.table.value) refreshView({table: el.table.value});
  });
  el.cosmosToggle.addEventListener('change', () => {
    state.cosmos = el.cosmosToggle.checked;
    el.panel.dataset.cosmos = String(state.cosmos);
    if (state.view) {
      renderRingPart();
      renderTablesAndLoad();
    }
  });
  let ruSettle = 0;
  const ruChanged = () => {
    clearTimeout(ruSettle);
    if (state.view?.table && ru() !== state.viewRu) refreshView();
  };
  el.cosmosRu.addEventListener('input', () => {
    clearTimeout(ruSettle);
    ruSettle = setTimeout(ruChanged, SETTLE_MS);
  });
  el.cosmosRu.addEventListener('change', ruChanged);
  el.cosmosRu.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      ruChanged();
    }
  });

  el.loadInput.addEventListener('change', () => {
    const file = el.loadInput.files?.[0];
    el.loadInput.value = '';
    loadFile(file);
  });
  el.loadCancel.addEventListener('click', () => state.loadAbort?.abort());
  el.loadAgain.addEventListener('click', () => {
    if (state.lastLoad) loadRows(state.lastLoad);
  });
  el.loadExample.addEventListener('click', () => {
    const load = state.exampleLoad;
    if (!load) return;
    setFormat(load.format ?? LoadFormat.JSON);
    if (load.format === LoadFormat.CSV) setCsvControls(load.csv);
    el.loadTable.value = load.table;
    state.lastLoad = {source: {kind: SourceKind.URL, url: new URL(load.file, examplesBase).href, name: load.file},
                      name: load.file};
    el.loadAgain.disabled = false;
    loadRows(state.lastLoad, {table: load.table, after: typeof load.after === 'string' ? load.after : ''});
  });
  for (const radio of [el.formatJson, el.formatCsv]) radio.addEventListener('change', syncFormat);

  let lastWidth = 0;
  let frame = 0;
  const resizes = new ResizeObserver((entries) => {
    const width = Math.round(entries[0].contentRect.width);
    if (width === lastWidth || !state.view) return;
    lastWidth = width;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      renderRingPart();
      renderLoad(state.view);
    });
  });
  resizes.observe(el.ringChart);

  // -------------------------------------------------------------------------------------------
  // Start (on the first switch to the Cassandra mode).

  async function activate() {
    if (state.started) return;
    state.started = true;
    setState('busy');
    try {
      await loadExamples();
    } catch (e) {
      el.example.replaceChildren(h('option', {text: 'Examples unavailable'}));
      showRequestError(e);
      state.runs++;
      el.panel.dataset.cqlRuns = String(state.runs);
      setState('error');
      return;
    }
    const first = state.examples[0];
    if (first) {
      el.example.value = first.id;
      try {
        await useExample(first, {focusError: false});
        return;
      } catch (e) {
        showRequestError(e);
      }
    }
    await refreshView();
  }

  /** Tears the view down: no more redraws, the load in flight cancelled, `root` emptied. */
  function destroy() {
    resizes.disconnect();
    cancelAnimationFrame(frame);
    state.loadAbort?.abort();
    root.replaceChildren();
  }

  return {activate, destroy};
}
