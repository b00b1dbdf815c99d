// The element's Cassandra chart: the token ring of the cluster with the partitions of the table
// drawn and the selected partition's replicas (CqlView, web/worker/protocol.js), with the tables
// of the selection's replicas and of each node's ownership.
import {formatInt, formatPercent} from '../common/format.js';
import {renderRing} from '../cassandra/ring-chart.js';
import {mountChartFigure} from './chart-figure.js';
import {h, table} from './element-dom.js';

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
