// Small text helpers the Cassandra view's parts share: a share of the ring as a percentage, a
// partition key as cqlsh prints it, a counted noun, a keyspace's replication as CQL names it, and
// the engine's quorum figures in words.
import {formatInt, formatPercent, plural} from '../common/format.js';

/** A share as a percentage, tiny ones as "< 0.01%" rather than in exponent form. */
export const share = (x) => (x > 0 && x < 0.0001 ? '< 0.01%' : formatPercent(x)); // lint-ok: display rounding
/** A partition key: "k" for one component, "(a, b)" for several. */
export const keyText = (key) => ((key ?? []).length > 1 ? `(${key.join(', ')})` : String(key?.[0] ?? ''));
/** "1 copy", "3 copies". */
export {plural};

/** "SimpleStrategy, replication_factor 3" from a CqlView keyspace's replication. */
export function replicationText(replication) {
  if (!replication) return '';
  const options = Object.entries(replication.options ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');
  return `${replication.class || 'unknown strategy'}${options ? `, ${options}` : ''}`;
}

/** "QUORUM 2 of 3 replicas" and, per datacenter, "LOCAL_QUORUM dc1 2 of 3" (the engine's figures). */
export function quorumText(figures) {
  const local = figures.local_quorum === null
    ? figures.datacenters.map((dc) => `; LOCAL_QUORUM in ${dc.name} ${formatInt(dc.local_quorum)} of ${formatInt(dc.replicas)}`).join('')
    : `; LOCAL_QUORUM ${formatInt(figures.local_quorum)}`;
  return ` · QUORUM ${formatInt(figures.quorum)} of ${plural(figures.replicas, 'replica')}${local}`;
}
