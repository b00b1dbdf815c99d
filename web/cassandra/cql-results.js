// The Cassandra view's results grid: each statement's result in order (rows, schema changes,
// DESCRIBE text, located errors), runs of applied statements folded, and each row's partition
// key, token and replicas, which select the partition on the ring. Part of the Cassandra view
// (cql-view.js): `v` is the view's context (its elements, state and the other parts' functions).
import {caretExcerpt, statementRangeOf} from '../common/text-position.js';
import {h} from '../common/dom.js';
import {formatInt, formatMs, truncate} from '../common/format.js';
import {limitText} from '../common/limits.js';
import {keyText, plural} from './cql-text.js';

/** Rows of one result shown at first, and added by each "Show more" (the rest behind a button). */
const ROWS_SHOWN = 200; // lint-ok: display paging
const ROWS_MORE = 1000; // lint-ok: display paging
/** Consecutive applied statements of one verb folded into one line from this many on. */
const FOLD_AT = 4; // lint-ok: display folding

/** The results part: {renderResults, markSelectedRows, selectStatement}. */
export function resultsPart(v) {
  const {el, state} = v;
  const select = (...args) => v.select(...args);

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
    const applied = (x) => x.kind === 'void' && !(x.warnings?.length) && !x.batch && !x.trace;
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
      case 'shell':
        li.append(h('pre', {className: 'cql-shell', testid: 'cql-shell', text: result.message ?? ''}));
        break;
      case 'error':
        li.append(errorBlock(result));
        break;
      default:
        if (result.batch) {
          li.append(batchBlock(result));
          break;
        }
        if (!result.trace) li.classList.add('compact');  // a trace needs the room below
        li.append(h('span', {className: 'cql-applied', text: 'applied'}));
    }
    for (const w of result.warnings ?? []) li.append(h('p', {className: 'cql-warning', text: `Warning: ${w}`}));
    const rows = result.cells?.length ?? 0;
    if (result.kind === 'rows' && result.page_size > 0 && rows > result.page_size) {
      li.append(h('p', {className: 'hint cql-pages', testid: 'cql-pages',
                        text: `A paging client (cqlsh, the drivers) fetches these ${formatInt(rows)} rows in ` +
                          `${plural(Math.ceil(rows / result.page_size), 'request')} of up to ` +
                          `${formatInt(result.page_size)} (PAGING sets the page size).`}));
    }
    if (result.trace) li.append(traceBlock(result.trace));
    return li;
  }

  /**
   * TRACING ON: the coordinator, the level, and per partition the replicas the request went to
   * and how many had to answer (the engine's model of the requests, not Cassandra's event log).
   */
  function traceBlock(t) {
    const names = state.results.nodes ?? [];
    const node = (n) => names[n] ?? `node${n + 1}`;
    const wrap = h('div', {className: 'cql-trace', testid: 'cql-trace'});
    wrap.dataset.consistency = t.consistency;
    wrap.dataset.scan = String(t.scan);
    const serial = t.serial_consistency ? `, Paxos rounds at ${t.serial_consistency}` : '';
    wrap.append(h('p', {className: 'cql-trace-head',
                        text: `Trace (modelled): coordinator ${node(t.coordinator)}, consistency ${t.consistency}${serial}`}));
    const list = h('ul', {className: 'cql-trace-steps'});
    for (const step of t.steps) {
      const who = step.replicas.map(node).join(', ');
      const li = h('li', {testid: 'cql-trace-step', text: t.scan
        ? `${t.write ? 'writes' : 'reads'} every token range: ${who} (${step.required} must answer per range)`
        : `${t.write ? 'writes' : 'reads'} token ${step.token}: ${who} (${step.required} must answer)`});
      li.dataset.replicas = JSON.stringify(step.replicas);
      list.append(li);
    }
    wrap.append(list);
    return wrap;
  }

  /**
   * A batch applied: its type and figures (the engine's, as Cassandra's batch checks count them),
   * then each partition it wrote with its table, key, token and replicas, and a button that marks
   * them all on the ring.
   */
  function batchBlock(result) {
    const b = result.batch;
    const wrap = h('div', {className: 'cql-batch', testid: 'cql-batch'});
    wrap.dataset.type = b.type;
    wrap.dataset.partitions = String(b.partitions.length);
    wrap.dataset.mutations = String(b.mutations);
    wrap.dataset.size = String(b.data_size);
    const tables = new Set(b.partitions.map((p) => p.table));
    wrap.append(h('p', {className: 'cql-batch-summary', testid: 'cql-batch-summary',
                        text: `${b.type} batch applied: ${plural(b.statements, 'statement')} wrote ` +
                          `${plural(b.partitions.length, 'partition')} of ${plural(tables.size, 'table')} ` +
                          `(${plural(b.mutations, 'mutation')}; ${formatInt(b.data_size)} bytes as Cassandra ` +
                          `sizes a batch against its ${limitText('cassandra_batch_size_warn_bytes')} warning and ` +
                          `${limitText('cassandra_batch_size_fail_bytes')} failure thresholds).`}));
    if (b.type !== 'LOGGED' && b.mutations > 1) {
      wrap.append(h('p', {className: 'hint', text: 'An unlogged batch across partitions is not atomic in Cassandra: each ' +
        `partition is written on its own, by its own replicas. Cassandra warns past ` +
        `${limitText('cassandra_unlogged_batch_partitions_warn')}.`}));
    } else if (b.mutations > 1) {
      wrap.append(h('p', {className: 'hint', text: 'A logged batch across partitions goes through the batchlog first: ' +
        'atomic, but every partition adds a round of writes to other replicas.'}));
    }
    if (!b.partitions.length) return wrap;
    const names = state.results.nodes;
    const stale = state.results.generation !== state.generation;
    const table = h('table', {className: 'cql-rows', testid: 'cql-batch-partitions'});
    table.append(h('caption', {className: 'visually-hidden', text: 'The partitions the batch wrote, in token order'}));
    const head = h('tr');
    for (const label of ['table', 'partition key', 'token', stale ? 'replicas (previous ring)' : 'replicas']) {
      const th = h('th', {text: label});
      th.scope = 'col';
      head.append(th);
    }
    table.append(h('thead', {}, [head]));
    const body = h('tbody');
    for (const p of b.partitions) {
      const tr = h('tr', {testid: 'cql-batch-partition'});
      tr.dataset.token = p.token;
      tr.dataset.key = JSON.stringify(p.key);
      tr.dataset.table = p.table;
      tr.dataset.replicas = JSON.stringify(p.replicas);
      const button = h('button', {className: 'replica-button',
                                  text: p.replicas.map((node) => names[node] ?? `#${node}`).join(', ') || '–'});
      button.type = 'button';
      button.setAttribute('aria-label', `Show partition ${keyText(p.key)} of ${p.table} on the ring`);
      button.addEventListener('click', () => select({token: p.token, key: p.key, replicas: p.replicas,
                                                     replica_vnodes: p.replica_vnodes, generation: state.results.generation},
                                                    {reveal: true}));
      tr.append(h('td', {text: p.table}), h('td', {className: 'key-cell', text: keyText(p.key)}),
                h('td', {className: 'token-cell mono', text: p.token}), h('td', {}, [button]));
      body.append(tr);
    }
    table.append(body);
    wrap.append(h('div', {className: 'table-scroll'}, [table]));
    const mark = h('button', {className: 'small', testid: 'cql-batch-ring',
                              text: `Mark the ${plural(b.partitions.length, 'partition')} on the ring`});
    mark.type = 'button';
    mark.addEventListener('click', () => v.markBatch(b, {reveal: true}));
    wrap.append(mark);
    return wrap;
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
        for (const _ of ['key', 'token', 'replicas']) tr.append(h('td', {className: 'extra', text: '–', title: 'an aggregate: no single partition'}));
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
      const more = h('button', {className: 'small', text: `Show ${formatInt(Math.min(n - shown, ROWS_MORE))} more rows`});
      more.type = 'button';
      more.addEventListener('click', () => {
        state.shownRows.set(i, shown + ROWS_MORE);
        renderResults();
      });
      wrap.append(more);
    }
    return wrap;
  }

  function markSelectedRows() {
    const sel = state.selected;
    for (const tr of el.results.querySelectorAll('tr[data-token]')) {
      const on = !!sel && tr.dataset.token === sel.token && tr.dataset.key === JSON.stringify(sel.key);
      tr.classList.toggle('selected', on);
      tr.querySelector('.replica-button')?.setAttribute('aria-pressed', String(on));
    }
  }

  return {renderResults, markSelectedRows, selectStatement};
}
