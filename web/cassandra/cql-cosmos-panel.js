// The Cassandra view's Cosmos DB Cassandra API panel: the same table placed by Azure Cosmos DB (a
// replica set of 4 per physical partition, quorum 3, its storage and throughput quotas, all from
// the engine: the layout's `cosmos` object, or the limits table before a table exists), the
// provisioned RU/s, and Cassandra and the Cassandra API side by side. Part of the Cassandra view
// (cql-view.js): `v` is the view's context.
import {h, setFigure} from '../common/dom.js';
import {formatBytes, formatInt, formatPercent} from '../common/format.js';
import {limitText, limitValue} from '../common/limits.js';
import {plural, replicationText} from './cql-text.js';

/** The typing pause before a new RU/s is modelled. */
const SETTLE_MS = 500; // lint-ok: typing pause

/**
 * The Cassandra API figures the panel shows: the engine's layout.cosmos for the table drawn, else
 * the limits table's rows (no table yet): {replicas, quorum, physical_partition_bytes,
 * logical_partition_bytes, ru_per_physical_partition, initial_ru_per_physical_partition}.
 */
export function cosmosFigures(view) {
  return view?.layout?.cosmos ?? {
    replicas: limitValue('cosmos_cassandra_api_replicas'),
    quorum: limitValue('cosmos_cassandra_api_quorum'),
    physical_partition_bytes: limitValue('cosmos_cassandra_physical_partition_bytes'),
    logical_partition_bytes: limitValue('cosmos_logical_partition_bytes'),
    ru_per_physical_partition: limitValue('cosmos_physical_partition_ru_per_second'),
    initial_ru_per_physical_partition: limitValue('cosmos_manual_initial_ru_per_partition'),
  };
}

/** The Cosmos DB panel part: {renderCosmos, ru}; wires the toggle and the RU/s field. */
export function cosmosPanelPart(v) {
  const {el, state, byTestId} = v;

  /** The RU/s typed (at most the engine's bound), or the engine's default. */
  function ru() {
    const value = Number(el.cosmosRu.value);
    return Number.isFinite(value) && value >= 0
      ? Math.round(Math.min(value, limitValue('cosmos_cassandra_api_max_ru_per_second')))
      : limitValue('cosmos_cassandra_api_default_ru_per_second');
  }

  function renderCosmos(view) {
    el.cosmosPanel.hidden = !state.cosmos;
    if (!state.cosmos) return;
    const c = cosmosFigures(view);
    const model = view.cosmos;
    setFigure(byTestId('cosmos-replicas'), formatInt(c.replicas), c.replicas);
    setFigure(byTestId('cosmos-quorum'), formatInt(c.quorum), c.quorum);
    setFigure(byTestId('cosmos-physical-limit'), formatBytes(c.physical_partition_bytes), c.physical_partition_bytes);
    setFigure(byTestId('cosmos-logical-limit'), formatBytes(c.logical_partition_bytes), c.logical_partition_bytes);
    const largest = view.layout?.largest_partition_bytes ?? 0;
    const over = view.layout?.cosmos?.largest_partition_over_limit === true;  // the engine's verdict
    byTestId('cosmos-largest').textContent = view.layout
      ? `largest partition of ${view.layout.table}: ${formatBytes(largest)} (${formatPercent(largest / c.logical_partition_bytes)})` +
        (over ? ' — over the limit' : '') : '';
    byTestId('cosmos-largest').closest('.figure').classList.toggle('bad', over);
    byTestId('cosmos-largest').dataset.overLimit = String(over);
    if (model) {
      setFigure(byTestId('cosmos-physical'), formatInt(model.physical_partitions), model.physical_partitions);
      byTestId('cosmos-physical-sub').textContent = `${formatInt(model.for_throughput)} for throughput, ${formatInt(model.for_storage)} for storage`;
      el.cosmosExplain.textContent = `A table created with ${formatInt(model.ru_per_second)} RU/s (manual) needs ` +
        `${plural(model.for_throughput, 'physical partition')} (${formatInt(model.initial_ru_per_physical_partition)} RU/s each ` +
        `at creation; ${formatInt(model.ru_per_physical_partition)} RU/s each at most); ${formatBytes(view.layout.bytes)} needs ` +
        `${formatInt(model.for_storage)} (${formatBytes(c.physical_partition_bytes)} each). So the table has ` +
        `${plural(model.physical_partitions, 'physical partition')}, each a replica set of ${c.replicas} that commits a write ` +
        `once ${c.quorum} replicas have it.`;
    } else {
      setFigure(byTestId('cosmos-physical'), '–', 0);
      byTestId('cosmos-physical-sub').textContent = 'create a table first';
      el.cosmosExplain.textContent = 'Run a script that creates a table to see its physical partitions.';
    }
    const ks = v.keyspaceOf(view);
    const copies = ks ? ks.copies : 0;
    const rows = [
      ['Copies of each partition', ks ? `${plural(copies, 'copy', 'copies')}: ${replicationText(ks.replication)} (a replication factor of 1 is allowed)`
        : 'set per keyspace (replication factor, even 1)', `always ${c.replicas} (a replica set per physical partition), quorum ${c.quorum}`],
      ['Where partitions live', `${plural(view.ring.nodes.length, 'node')}, each owning ${formatInt(view.ring.num_tokens)} vnode token ranges`,
        model ? `${plural(model.physical_partitions, 'physical partition')}, managed (moved, split) by the service` : 'physical partitions managed by the service'],
      ['Partition size', `about ${limitText('cassandra_recommended_partition_bytes')} per partition recommended`,
        `up to ${formatBytes(c.logical_partition_bytes)} per logical partition, ${formatBytes(c.physical_partition_bytes)} per physical partition`],
      ['Capacity', 'the nodes\' cores, memory and disks', `request units: up to ${formatInt(c.ru_per_physical_partition)} RU/s per physical partition`],
      ['Token range', '−2⁶³ … 2⁶³−1 (Murmur3)', 'the same range shown to clients; internally another hash and a larger ring'],
    ];
    el.cosmosCompare.replaceChildren(...rows.map(([what, cassandra, cosmos]) => {
      const th = h('th', {text: what});
      th.scope = 'row';
      return h('tr', {}, [th, h('td', {text: cassandra}), h('td', {text: cosmos})]);
    }));
  }

  el.cosmosToggle.addEventListener('change', () => {
    state.cosmos = el.cosmosToggle.checked;
    el.panel.dataset.cosmos = String(state.cosmos);
    if (state.view) {
      v.renderRingPart();
      v.renderTablesAndLoad();
    }
  });
  let ruSettle = 0;
  const ruChanged = () => {
    clearTimeout(ruSettle);
    if (state.view?.table && ru() !== state.viewRu) v.refreshView();
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


  return {renderCosmos, ru};
}
