// The Cassandra view's ring panel: the cluster form, the table drawn and its keyspace's
// replication (the engine's figures: replicas asked for and placed, QUORUM, LOCAL_QUORUM,
// datacenters the ring lacks), the ring picture with the selected partition's replicas, ownership,
// the token-range and partition tables and the load per node (or per physical partition with the
// Cosmos DB panel on). Part of the Cassandra view (cql-view.js): `v` is the view's context.
import {fillTable, h} from '../common/dom.js';
import {formatBytes, formatInt, formatPercent} from '../common/format.js';
import {limitText, limitValue} from '../common/limits.js';
import {nodeClass, renderLoadChart, renderRing, vnodeRanges} from './ring-chart.js';
import {keyText, plural, quorumText, replicationText, share} from './cql-text.js';

/** Rows of the token-range and partition table views, at most. */
const TABLE_VIEW_ROWS = 1000; // lint-ok: display paging
/** The typing pause before a ring change is applied. */
const SETTLE_MS = 500; // lint-ok: typing pause
const CASSANDRA_API_PHYSICAL = 'cosmos_cassandra_physical_partition_bytes';

/** The ring part: selection, the view on screen, the ring, ownership and load; wires its controls. */
export function ringPanelPart(v) {
  const {el, state, client, byId, byTestId} = v;
  const enqueue = (task) => v.enqueue(task);
  const ru = () => v.ru();
  const markSelectedRows = () => v.markSelectedRows();

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

  /** Marks a batch's partitions ({partitions: [{table, token, key}]}) on the ring. */
  function markBatch(batch, {reveal = false} = {}) {
    state.batchMarks = {partitions: batch.partitions, generation: state.generation};
    renderRingPart();
    if (reveal) el.ringChart.scrollIntoView?.({block: 'center'});
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
      const c = view.cosmos;
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
    const missing = view?.ring?.replication?.missing_datacenters ?? [];
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
    v.root.dispatchEvent(new CustomEvent('cql:view', {detail: view, bubbles: true}));
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
    v.syncExampleLoad();
  }

  function keyspaceOf(view) {
    return (view.keyspaces ?? []).find((k) => k.name === view.keyspace) ?? null;
  }

  /** The keyspace's replication: strategy and options, then the engine's figures on this ring. */
  function renderViewText(view) {
    const ks = keyspaceOf(view);
    const figures = view.ring?.replication ?? null;
    el.replication.replaceChildren();
    const data = el.replication.dataset;
    for (const key of ['class', 'copies', 'replicas', 'placed', 'quorum', 'localQuorum', 'missingDatacenters']) delete data[key];
    if (!ks || !figures) {
      el.replication.append(h('span', {className: 'hint', text: 'No keyspace yet: run a script that creates one.'}));
      data.class = '';
      return;
    }
    el.replication.append(h('span', {className: 'figure-label', text: `Keyspace ${ks.name} replication: `}),
                          h('strong', {text: replicationText(ks.replication)}),
                          h('span', {className: 'hint', text: ` — ${plural(figures.replicas, 'copy', 'copies')} of every partition`}),
                          h('span', {className: 'replication-quorum', testid: 'replication-quorum', text: quorumText(figures)}));
    data.class = ks.replication.class;
    data.copies = String(ks.copies);
    data.replicas = String(figures.replicas);
    data.placed = String(figures.placed);
    data.quorum = String(figures.quorum);
    data.localQuorum = figures.local_quorum === null
      ? figures.datacenters.map((dc) => `${dc.name}:${dc.local_quorum}`).join(',') : String(figures.local_quorum);
    const missing = figures.missing_datacenters;
    data.missingDatacenters = missing.join(',');
    if (missing.length) {
      const have = figures.ring_datacenters;
      el.replication.append(h('span', {className: 'callout bad', testid: 'replication-missing-dc', text:
        `${ks.name} names datacenter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which the ring does not ` +
        `have (its datacenter${have.length > 1 ? 's' : ''}: ${have.join(', ') || 'none'}): Cassandra places no copy ` +
        `there, so the partitions get ${formatInt(figures.placed)} copies rather than the ${formatInt(figures.replicas)} asked for` +
        ' (none at all when every named datacenter is missing). Name the ring\'s datacenters, or change the ring.'}));
      // The keyspace's own datacenters as the ring's: one click (issue 40).
      const names = Object.keys(ks.replication.options ?? {});
      const use = h('button', {className: 'link-button', testid: 'ring-use-keyspace-dcs',
                               text: `Name the ring's datacenters ${names.join(', ')}`});
      use.type = 'button';
      use.addEventListener('click', () => {
        el.ringDcNames.value = names.join(', ');
        applyRing();
      });
      el.replication.append(use);
    }
  }

  function renderRingPart() {
    const view = state.view;
    if (!view) return;
    const cosmos = state.cosmos && view.cosmos ? view.cosmos : null;
    const sel = state.selected;
    const placement = currentPlacement(sel);
    const selected = sel ? {...sel, replicas: placement?.replicas ?? [], replica_vnodes: placement?.replica_vnodes ?? [],
                            physicalRange: physicalRangeOf(view, sel)} : null;
    try {
      renderRing(el.ringChart, {ring: view.ring, layout: view.layout, selected, cosmos, marked: state.batchMarks?.partitions ?? [],
                                label: cosmos ? 'Cosmos DB Cassandra API physical partitions' : 'Token ring',
                                onSelect: (p) => select({...p, generation: state.generation})});
    } catch (e) {
      el.ringChart.replaceChildren(h('p', {className: 'hint', text: `The ring could not be drawn: ${e.message}`}));
    }
    el.ringChart.dataset.mode = cosmos ? 'cosmos' : 'cassandra';
    el.ringCaption.textContent = cosmos
      ? 'The Cosmos DB Cassandra API model: the token range split evenly into physical partitions (each a replica set ' +
        `of ${cosmos.replicas}). Cosmos DB hashes keys with its own function into a larger internal ring, so which physical partition ` +
        'holds a key here is an illustration, not the service\'s assignment.'
      : 'The ring: each arc is a token range, coloured by the node that owns it; dots are the partitions of the table ' +
        'drawn, at their token. Click a dot (or a result row) to select its partition: the numbered markers show where ' +
        'the walk clockwise finds each replica (1 = primary).' +
        (state.batchMarks?.partitions.length
          ? ` Diamonds outside the ring: the ${plural(state.batchMarks.partitions.length, 'partition')} a batch wrote.`
          : '');
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
                      {label: 'tombstones', num: true}, {label: 'replicas (select)'}],
    parts.slice(0, TABLE_VIEW_ROWS).map((p) => {
      const button = h('button', {className: 'replica-button', text: p.replicas.map((n) => nodes[n]?.name ?? n).join(', ') || '–'});
      button.type = 'button';
      button.setAttribute('aria-label', `Select partition ${keyText(p.key)}`);
      button.addEventListener('click', () => select({token: p.token, key: p.key, replicas: p.replicas,
                                                     replica_vnodes: p.replica_vnodes, generation: state.generation}));
      return [p.token, keyText(p.key), formatInt(p.rows), formatBytes(p.bytes), formatInt(p.tombstones ?? 0), button];
    }), {caption: 'Partitions drawn on the ring, in token order'});
    table.querySelectorAll('tbody tr').forEach((tr, i) => { tr.dataset.token = parts[i].token; });
    byId('ring-partitions-note').textContent = !layout ? 'No table yet.'
      : `${plural(parts.length, 'partition')} listed of ${formatInt(layout.partition_count)}` +
        (layout.sample_every > 1 ? ` (every ${formatInt(layout.sample_every)}th)` : '') +
        (layout.partitions_scanned < layout.partition_count ? `, from the first ${formatInt(layout.partitions_scanned)} in token order` : '') +
        (parts.length > TABLE_VIEW_ROWS ? `; the first ${formatInt(TABLE_VIEW_ROWS)} are in the table` : '') + '.';

    renderLoad(view);
    v.renderCosmos(view);
  }

  function renderLoad(view) {
    const layout = view.layout;
    const loadTable = byTestId('load-table');
    const sel = state.selected;
    if (state.cosmos && view.cosmos) {
      el.loadHeading.textContent = 'Load per physical partition';
      el.loadHint.textContent = 'What each physical partition of the Cosmos DB model holds of the table drawn (each of its ' +
        `${view.cosmos.replicas} replicas holds all of it).`;
      const selectedRange = sel ? physicalRangeOf(view, sel) : null;
      const rows = view.cosmos.ranges.map((r) => ({label: `P${r.id}`, index: r.id, partitions: r.partitions, rows: r.rows, bytes: r.bytes,
                                                    highlighted: selectedRange?.id === r.id}));
      drawLoad(rows, 'Load per physical partition');
      fillTable(loadTable, [{label: 'physical partition'}, {label: 'partitions', num: true}, {label: 'rows', num: true},
                            {label: 'bytes', num: true}, {label: `of ${limitText(CASSANDRA_API_PHYSICAL)}`, num: true}],
      rows.map((r) => [r.label, formatInt(r.partitions), formatInt(r.rows), formatBytes(r.bytes),
                       share(r.bytes / view.cosmos.physical_partition_bytes)]),
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


  // -------------------------------------------------------------------------------------------
  // Ring controls.

  function ringFromControls() {
    const int = (input, min, max, what) => {
      const v = Number(input.value);
      if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${what} must be a whole number from ${min} to ${max}.`);
      return v;
    };
    const maxNodes = limitValue('cassandra_ring_max_nodes');
    // Names given set the datacenters (and their count); empty, they are datacenter1, 2, ...
    const names = el.ringDcNames.value.split(',').map((n) => n.trim()).filter((n) => n);
    if (names.some((n) => !/^[A-Za-z0-9_.-]+$/.test(n))) {
      throw new Error('A datacenter name is letters, digits, _ . and -, the names separated by commas.');
    }
    if (new Set(names).size !== names.length) throw new Error('Each datacenter name once.');
    if (names.length) el.ringDatacenters.value = String(names.length);
    const dcs = int(el.ringDatacenters, 1, limitValue('cassandra_ring_form_max_datacenters'), 'Datacenters');
    const nodes = int(el.ringNodes, 1, maxNodes, 'Nodes');
    const racks = int(el.ringRacks, 1, limitValue('cassandra_ring_form_max_racks'), 'Racks');
    const numTokens = int(el.ringVnodes, 1, limitValue('cassandra_ring_max_num_tokens'), 'Vnodes per node');
    const seed = int(el.ringSeed, 0, Number.MAX_SAFE_INTEGER, 'The seed');
    if (dcs * nodes > maxNodes) throw new Error(`A ring has at most ${formatInt(maxNodes)} nodes in all.`);
    const random = el.ringForm.querySelector('input[name="ring-tokens"]:checked')?.value === 'random';
    const ring = {nodes: dcs * nodes, num_tokens: numTokens, random_tokens: random, seed};
    if (dcs > 1 || racks > 1 || names.length) {
      ring.datacenters = Array.from({length: dcs}, (_, d) => ({name: names[d] ?? `datacenter${d + 1}`, nodes, racks}));
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
        if (state.results) v.renderResults();
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

  /** Sets the ring last sent (its JSON; '' forgets it, so the next applyRing sends the controls' ring). */
  const forgetRing = (ring = '') => { lastRing = ring; };
  const disconnect = () => {
    resizes.disconnect();
    cancelAnimationFrame(frame);
  };
  return {select, markBatch, acceptView, renderRingPart, renderLoad, renderTablesAndLoad, refreshView, applyRing, ringFromControls,
          forgetRing, currentReplicas, physicalRangeOf, keyspaceOf, disconnect};
}
