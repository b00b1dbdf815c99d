// Short explanations of the units and terms the page uses (RU/s, EPK, Gini, Zipf's s, hash
// versions, t_avg, Nv, St), opened inline by a "?" button next to a term's first use: reachable
// by keyboard and readable without hovering. The markup names the term:
//
//   <button type="button" class="term-help" data-term="ru"></button>
//   wireGlossary(root);   // labels each button, and toggles its explanation just after it
//
// A quota in an explanation is written {limit-id} and read from the engine's table when the
// explanation is first opened (glossaryText), so the page states no quota of its own.
import {h} from './dom.js';
import {limitText} from './limits.js';

export const GLOSSARY = {
  ru: ['RU/s', 'Request units per second: Cosmos DB\'s currency for throughput. A 1 KB point read costs 1 RU, ' +
       'a 1 KB write about 5; the RU/s you provision are shared evenly by the physical partitions, each serving at ' +
       'most {cosmos_physical_partition_ru_per_second}.'],
  epk: ['EPK', 'Effective partition key: the hash of a key value (MurmurHash3; V1 and V2 differ) that decides which ' +
        'physical partition holds it. Each physical partition owns a contiguous range of EPKs.'],
  gini: ['Gini', 'A measure of inequality of the partition sizes: 0 when every logical partition holds the same, ' +
         'towards 1 when one partition holds almost everything.'],
  zipf: ['Zipf\'s s', 'The exponent of a Zipf spread: the n-th largest key gets requests in proportion to 1/nˢ. ' +
         's = 1 is a typical "few keys are very popular" workload; larger s concentrates more.'],
  hash: ['hash version', 'How Cosmos DB hashes keys: V1 (older containers, key values cut at 100 characters), V2 ' +
         '(new containers, the whole value) and MultiHash (hierarchical keys: each level hashed, so a prefix maps to ' +
         'a range of EPKs).'],
  tavg: ['t_avg', 'Bytes of metadata Cassandra stores per value (timestamp, TTL, flags): the guide\'s t_avg, {sizing_default_t_avg_bytes} ' +
         'by default here.'],
  nv: ['Nv', 'Values (cells) per partition: Nr rows × (columns − partition key − static columns) + static columns. ' +
       'Cassandra refuses a partition past {cassandra_cells_per_partition}; the guide recommends staying under ' +
       '{cassandra_recommended_values_per_partition}.'],
  st: ['St', 'Bytes per partition on disk, one replica, before compression: the key, the static and regular ' +
       'columns of every row, plus Nv × t_avg of metadata. The guide recommends staying under ' +
       '{cassandra_recommended_partition_bytes}.'],
};

/** An explanation's text with each {limit-id} read from the engine's table ("10,000 RU/s"). */
export function glossaryText(text) {
  return text.replace(/\{([a-z0-9_]+)\}/g, (_, id) => limitText(id));
}

/** Wires every `.term-help[data-term]` under `root`. Returns the number wired. */
export function wireGlossary(root) {
  let wired = 0;
  for (const button of root.querySelectorAll('.term-help[data-term]')) {
    const entry = GLOSSARY[button.dataset.term];
    if (!entry || button.dataset.wired) continue;
    const [term, text] = entry;
    const def = h('span', {className: 'term-def'});
    def.id = `term-def-${button.dataset.term}-${wired}`;
    def.setAttribute('role', 'note');
    def.hidden = true;
    button.textContent = '?';
    button.setAttribute('aria-label', `What is ${term}?`);
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-controls', def.id);
    button.title = `What is ${term}?`;
    button.addEventListener('click', (event) => {
      event.preventDefault();
      event.stopPropagation();
      if (!def.textContent) def.textContent = `${term}: ${glossaryText(text)}`;  // the engine's table is loaded by now
      def.hidden = !def.hidden;
      button.setAttribute('aria-expanded', String(!def.hidden));
    });
    button.after(def);
    button.dataset.wired = 'true';
    wired++;
  }
  return wired;
}
