// The element's Cassandra chart: the token ring of the cluster with the partitions of the table
// drawn and the selected partition's replicas (CqlView, web/worker/protocol.js), with the tables
// of the selection's replicas, of each node's ownership and of the keyspace's replication (the
// engine's figures, as the page's Cassandra view shows them: cassandra/cql-ring-panel.js).
//
//   mountRing(root, view, {selected, onSelect});   // the figure with its table views
//   replicationTable(view);                        // the replication figures alone, or null
import {formatInt, formatPercent} from '../common/format.js';
import {renderRing} from '../cassandra/ring-chart.js';
import {quorumText} from '../cassandra/cql-text.js';
import {mountChartFigure} from './chart-figure.js';
import {h, table} from './element-dom.js';

/**
 * The keyspace's replication on the ring (view.ring.replication, the engine's): replicas asked
 * for and placed per datacenter, LOCAL_QUORUM, and in all with QUORUM; null without a keyspace.
 */
export function replicationTable(view) {
  const r = view?.ring?.replication;
  if (!r) return null;
  const rows = r.datacenters.map((dc) => [dc.name, {text: formatInt(dc.replicas), num: true}, {text: formatInt(dc.placed), num: true},
                                          {text: formatInt(dc.local_quorum), num: true}]);
  rows.push(['all', {text: formatInt(r.replicas), num: true}, {text: formatInt(r.placed), num: true},
             {text: r.local_quorum === null ? '' : formatInt(r.local_quorum), num: true}]);
  return table(`Replication of ${view.keyspace ?? 'the keyspace'}: ${r.strategy}${quorumText(r)}`,
               ['datacenter', {text: 'replicas', num: true}, {text: 'placed', num: true}, {text: 'LOCAL_QUORUM', num: true}],
               rows, {testid: 'ring-replication'});
}

/** The ring; `selected` is a partition of view.layout.partitions (or null); onSelect(partition). */
export function mountRing(root, view, {selected = null, onSelect} = {}) {
  if (!view?.ring) return null;
  const nodes = view.ring.nodes ?? [];
  const name = (i) => nodes[i]?.name ?? nodes[i]?.address ?? `#${i}`;
  const tokens = view.ring.tokens ?? [];
  const replicaRows = (selected?.replicas ?? []).map((n, i) => [
    {text: formatInt(i + 1), num: true}, name(n),
    {text: tokens[selected.replica_vnodes?.[i]]?.token ?? '', num: true, mono: true}]);
  const replicas = new Set(selected?.replicas ?? []);
  const tableNode = h('div', {}, [
    table(selected ? `Replicas of the partition at token ${selected.token} (1 = primary)` : 'No partition selected',
          [{text: 'rank', num: true}, 'node', {text: 'vnode token', num: true}], replicaRows, {testid: 'ring-replicas'}),
    table(`Ownership of the ring by node (${formatInt(nodes.length)} nodes)`,
          ['node', {text: 'vnodes', num: true}, {text: 'ownership', num: true}, 'replica of the selection'],
          nodes.map((n, i) => [name(i), {text: formatInt(tokens.filter((t) => t.node === i).length), num: true},
                               {text: formatPercent(n.ownership ?? 0), num: true}, replicas.has(i) ? 'yes' : '']),
          {testid: 'ring-nodes'}),
    ...[replicationTable(view)].filter(Boolean),
  ]);
  const label = `Token ring of ${formatInt(nodes.length)} nodes` +
    (selected ? `, the partition at token ${selected.token} on ${selected.replicas.map(name).join(', ')}` : '');
  return mountChartFigure(root, {
    testid: 'ring', label,
    caption: selected
      ? `The ring of ${view.table ?? 'the table'}: the selected partition's replicas, found clockwise from its token (1 = primary)`
      : `The ring of ${view.table ?? 'the cluster'}`,
    draw: (node) => renderRing(node, {ring: view.ring, layout: view.layout, selected, onSelect, label: 'Token ring'}),
    tableNode,
  });
}
