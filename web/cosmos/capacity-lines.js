// The service's throughput rules applied to one container, as lines of text from the engine's
// figures (report.container.before: change, instant maximum, minimum, autoscale billing, burst;
// report.container.ru_needed). The page's container section and the element's capacity view
// both show them. Presents only: every figure and judgement is the engine's.
import {formatBytes, formatDecimal, formatInt, formatPercent, formatRu, plural} from '../common/format.js';
import {limitText} from '../common/limits.js';

const RU_PER_PHYSICAL = 'cosmos_physical_partition_ru_per_second';

const MINIMUM_RULES = {
  least: 'the least any container may have',
  storage: 'for the data it stores',
  highest: 'for the highest throughput it was ever set to',
};

/** One line per rule that applies, in the engine's figures: [{testid, text}]. */
export function capacityLines(c) {
  const v = c.before;
  const lines = [];
  const add = (testid, text) => lines.push({testid, text});
  if (v.throughput_mode === 'serverless') {
    add('capacity-serverless', `Serverless: ${plural(v.ranges.length, 'physical partition')} for ${formatBytes(v.storage_bytes)}, ` +
      `${formatRu(v.ru_per_second)} RU/s in all (the service sets a serverless container's capacity by its storage).`);
  }
  const ch = v.change;
  if (ch && ch.kind === 'splits') {
    let text = `Raised from ${formatRu(ch.from_ru_per_second)} to ${formatRu(ch.to_ru_per_second)} RU/s, past the ` +
      `instant maximum of ${formatRu(ch.instant_maximum_ru_per_second)} RU/s: ${plural(ch.splits, 'split')}, ` +
      `${formatInt(ch.partitions_before)} → ${plural(ch.partitions_after, 'physical partition')} (asynchronous: hours, not seconds).`;
    if (ch.uneven) {
      text += ` The keyspace is now uneven (the split partitions hold less of it than the others); to split every ` +
        `partition evenly, raise to ${formatRu(ch.even_split_ru_per_second)} RU/s first, then lower to ` +
        `${formatRu(ch.to_ru_per_second)}.`;
    }
    add('capacity-change', text);
  } else if (ch && ch.kind === 'instant') {
    add('capacity-change', `Raised from ${formatRu(ch.from_ru_per_second)} to ${formatRu(ch.to_ru_per_second)} RU/s: ` +
      `instant, no split (up to ${formatRu(ch.instant_maximum_ru_per_second)} RU/s the partitions it was created with serve it).`);
  } else if (ch && ch.kind === 'down') {
    add('capacity-change', `Lowered from ${formatRu(ch.from_ru_per_second)} to ${formatRu(ch.to_ru_per_second)} RU/s: ` +
      `instant, the same ${plural(ch.partitions_after, 'physical partition')} with less RU/s each.`);
  }
  if (v.throughput_mode !== 'serverless') {
    add('capacity-instant', `Instant maximum: ${formatRu(v.instant_maximum_ru_per_second)} RU/s ` +
      `(${plural(v.ranges.length, 'physical partition')} × ${limitText(RU_PER_PHYSICAL)}); above it the service splits partitions.`);
    const floor = Math.ceil(v.minimum_ru_per_second);
    add('capacity-minimum', `Lowest throughput it can be set to: ${formatRu(floor)} RU/s` +
      `${v.throughput_mode === 'autoscale' ? ' as the autoscale maximum' : ''} (${MINIMUM_RULES[v.minimum_rule] ?? v.minimum_rule}).`);
  }
  if (v.autoscale_billed_ru_per_second > 0) {
    add('capacity-autoscale', `Autoscale billing for this workload, per hour: ${formatRu(v.autoscale_billed_ru_per_second)} RU/s ` +
      `(every partition scaled to the busiest one's need), ${formatRu(v.autoscale_dynamic_billed_ru_per_second)} RU/s ` +
      'with dynamic scaling (each partition on its own).');
  }
  const bursting = v.ranges.filter((r) => r.burst_eligible && r.burst_seconds > 0);
  if (bursting.length) {
    const r = bursting.reduce((a, b) => (b.demand_ru > a.demand_ru ? b : a));
    add('capacity-burst', `Burst capacity: P${r.id} banks ${formatRu(r.burst_bank_ru)} RU of idle throughput and absorbs its ` +
      `${formatRu(r.demand_ru)} RU/s for ${formatDecimal(r.burst_seconds)} s before throttling starts` +
      `${bursting.length > 1 ? ` (${formatInt(bursting.length - 1)} more partition${bursting.length > 2 ? 's' : ''} can burst too)` : ''}.`);
  }
  const need = c.ru_needed;
  if (need?.judged) add('capacity-needed', `RU/s needed so that no physical partition throttles: ${need.reason}`);
  const red = c.redistribution;
  if (red?.judged) add('capacity-redistribution', `Throughput redistribution: ${red.reason}`);
  if (c.merge?.judged) add('capacity-merge', `Merging partitions: ${c.merge.reason}`);
  const shared = c.shared_database;
  if (shared?.judged) {
    add('capacity-shared', `Shared-throughput database: ${shared.reason} ` + shared.containers
      .map((x) => `${x.name}: ${formatRu(x.demand_ru)} RU/s asked, ${formatPercent(x.throttled_fraction)} throttled`).join('; ') + '.');
  }
  return lines;
}

