// The Cassandra and Sizing modes show the engine's judgements, not their own (issue 36): the
// replication figures of a keyspace on the ring (replicas asked for and placed, QUORUM,
// LOCAL_QUORUM, datacenters the ring lacks), the Cosmos DB Cassandra API's fixed replica set and
// quorum and its verdict on the largest partition, the ring form's defaults, and each sizing case's
// failed checks and the limits table, read from the page in Debian's Chromium (build/site) and
// compared with the same engine run here in Node (engine/partplay-cql.mjs, partplay-sizing.mjs).
import {before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  TIMEOUT, byTestId, cqlAfter, examplesDir, openCassandra, openPage, runScript, siteRoot, useBrowser,
} from './harness.mjs';

useBrowser();

let cqlEngine;
let sizingEngine;
let limits;

before(async () => {
  const api = await import(join(siteRoot, 'engine', 'partplay-api.mjs'));
  const load = (domain) => api.createEngine({wasmBinary: readFileSync(join(siteRoot, 'engine', `partplay-${domain}.wasm`))}, {domain});
  [cqlEngine, sizingEngine] = await Promise.all([load('cql'), load('sizing')]);
  limits = new Map(cqlEngine.limits().map((l) => [l.id, l]));
});

const GEO = [
  "CREATE KEYSPACE IF NOT EXISTS geo WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3, 'dc2': 2};",
  'CREATE TABLE IF NOT EXISTS geo.visits (site text, at int, PRIMARY KEY (site, at));',
  "INSERT INTO geo.visits (site, at) VALUES ('a', 1);",
  "INSERT INTO geo.visits (site, at) VALUES ('b', 1);",
  'SELECT * FROM geo.visits;',
].join('\n');

/** The engine's own view of `script` on the default ring: the keyspace's ring JSON and the layout. */
function engineView(script, keyspace, table, ru) {
  const session = cqlEngine.createCqlSession();
  try {
    session.configureRing({nodes: limits.get('cassandra_default_ring_nodes').value,
                           num_tokens: limits.get('cassandra_default_num_tokens').value});
    session.execute(script);
    return {ring: session.ring(keyspace), layout: session.tableLayout(table, {ru_per_second: ru})};
  } finally {
    session.dispose();
  }
}

describe('the Cassandra mode shows the engine\'s replication figures', () => {
  test('the ring form starts from the engine\'s defaults and bounds', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const field = (id) => page.$eval(byTestId(id), (input) => ({value: Number(input.value), max: Number(input.max)}));
      assert.deepEqual(await field('ring-nodes'), {value: limits.get('cassandra_default_ring_nodes').value,
                                                   max: limits.get('cassandra_ring_max_nodes').value});
      assert.deepEqual(await field('ring-vnodes'), {value: limits.get('cassandra_default_num_tokens').value,
                                                    max: limits.get('cassandra_ring_max_num_tokens').value});
      assert.deepEqual(await field('cosmos-ru'), {value: limits.get('cosmos_cassandra_api_default_ru_per_second').value,
                                                  max: limits.get('cosmos_cassandra_api_max_ru_per_second').value});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('replicas, placed copies, QUORUM, LOCAL_QUORUM and missing datacenters equal the engine\'s', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      assert.equal(await runScript(page, GEO), 'ready');
      const shown = await page.$eval(byTestId('replication'), (p) => ({...p.dataset}));
      const {ring} = engineView(GEO, 'geo', 'geo.visits', limits.get('cosmos_cassandra_api_default_ru_per_second').value);
      const r = ring.replication;
      assert.equal(r.strategy, 'NetworkTopologyStrategy');
      assert.deepEqual(r.missing_datacenters, ['dc2'], 'the default ring has only datacenter1');
      assert.equal(Number(shown.replicas), r.replicas);
      assert.equal(Number(shown.placed), r.placed);
      assert.equal(Number(shown.quorum), r.quorum);
      assert.equal(shown.localQuorum, r.datacenters.map((dc) => `${dc.name}:${dc.local_quorum}`).join(','));
      assert.equal(shown.missingDatacenters, r.missing_datacenters.join(','));
      const words = await page.textContent(byTestId('replication-quorum'));
      assert.ok(words.includes(`QUORUM ${r.quorum} of ${r.replicas} replicas`), words);
      for (const dc of r.datacenters) assert.ok(words.includes(`LOCAL_QUORUM in ${dc.name} ${dc.local_quorum} of ${dc.replicas}`), words);
      assert.match(await page.textContent(byTestId('replication-missing-dc')),
                   new RegExp(`get ${r.placed} copies rather than the ${r.replicas} asked for`));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // Issue 40, friction 9: "Nodes" meant nodes per datacenter, and the ring's datacenter names could
  // not be set; now the label says it, names are a field, and a keyspace naming datacenters the
  // ring lacks offers to name the ring's after them.
  test('the ring\'s datacenters can be named, after the keyspace\'s in one click', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      assert.equal(await runScript(page, GEO), 'ready');
      const label = await page.$eval(byTestId('ring-nodes'), (input) => input.closest('label').textContent.trim());
      assert.equal(label, 'Nodes per datacenter');
      assert.equal(await page.getAttribute(byTestId('replication'), 'data-missing-datacenters'), 'dc2');
      await cqlAfter(page, () => page.click(byTestId('ring-use-keyspace-dcs')));
      assert.equal(await page.inputValue(byTestId('ring-dc-names')), 'datacenter1, dc2');
      assert.equal(await page.inputValue(byTestId('ring-datacenters')), '2');
      const shown = await page.$eval(byTestId('replication'), (p) => ({...p.dataset}));
      assert.equal(shown.missingDatacenters, '');
      assert.equal(Number(shown.placed), 5, 'every copy placed: 3 in datacenter1, 2 in dc2');
      assert.ok(await page.isHidden(byTestId('replication-missing-dc')));
      // Names typed set the count; a bad one is said.
      await page.fill(byTestId('ring-dc-names'), 'east, west, north');
      await cqlAfter(page, () => page.press(byTestId('ring-dc-names'), 'Enter'));
      assert.equal(await page.inputValue(byTestId('ring-datacenters')), '3');
      await page.fill(byTestId('ring-dc-names'), 'east west');
      await page.press(byTestId('ring-dc-names'), 'Enter');
      assert.match(await page.textContent('#ring-form-error'), /A datacenter name is letters, digits/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the Cassandra API panel shows the engine\'s replica set, quorum and verdict', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      assert.equal(await runScript(page, GEO), 'ready');
      await page.check(byTestId('cosmos-api-toggle'));
      const ru = Number(await page.inputValue(byTestId('cosmos-ru')));
      const {layout} = engineView(GEO, 'geo', 'geo.visits', ru);
      const value = (id) => page.$eval(byTestId(id), (node) => Number(node.dataset.value));
      assert.equal(await value('cosmos-replicas'), layout.cosmos.replicas);
      assert.equal(await value('cosmos-quorum'), layout.cosmos.quorum);
      assert.equal(layout.cosmos.replicas, limits.get('cosmos_cassandra_api_replicas').value, 'the limits row is the model\'s');
      assert.equal(layout.cosmos.quorum, limits.get('cosmos_cassandra_api_quorum').value);
      assert.equal(await value('cosmos-physical'), layout.cosmos.physical_partitions);
      assert.equal(await page.$eval(byTestId('cosmos-largest'), (node) => node.dataset.overLimit),
                   String(layout.cosmos.largest_partition_over_limit));
      assert.equal(await page.locator(`${byTestId('ring-chart')} g.ring-centre`).textContent().then(
        (t) => t.includes(`${layout.cosmos.replicas} replicas each, quorum ${layout.cosmos.quorum}`)), true);
      // A new throughput: the engine's new placement, the same fixed replica set.
      await cqlAfter(page, async () => {
        await page.fill(byTestId('cosmos-ru'), String(ru * 3));
        await page.press(byTestId('cosmos-ru'), 'Enter');
      });
      const more = engineView(GEO, 'geo', 'geo.visits', ru * 3).layout;
      assert.equal(await value('cosmos-physical'), more.cosmos.physical_partitions);
      assert.equal(await value('cosmos-replicas'), more.cosmos.replicas);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('the Sizing mode shows the engine\'s checks', () => {
  const sizingView = byTestId('sizing-view');

  /** The example `id` as the page computes it, and the engine's report of the same request. */
  async function pageAndEngine(page, id) {
    const runs = await page.$eval(sizingView, (v) => Number(v.dataset.sizingRuns ?? 0));
    await page.selectOption(byTestId('sizing-example'), id);
    await page.waitForFunction(({selector, r}) => {
      const v = document.querySelector(selector);
      return Number(v.dataset.sizingRuns) > r && v.dataset.sizingState === 'ready';
    }, {selector: sizingView, r: runs}, {timeout: TIMEOUT});
    const entries = JSON.parse(readFileSync(join(examplesDir, 'cql', 'sizing.json'), 'utf8'));
    const {id: _id, title: _t, file, description: _d, ...rest} = entries.find((e) => e.id === id);
    return sizingEngine.sizeTable({cql: readFileSync(join(examplesDir, 'cql', file), 'utf8'), ...rest});
  }

  test('each case\'s failed checks, the figures\' levels and the limits table equal the report\'s', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await page.click(byTestId('mode-sizing'));
      await page.waitForFunction((s) => Number(document.querySelector(s).dataset.sizingRuns) > 0, sizingView, {timeout: TIMEOUT});
      let failing = 0;
      for (const id of ['hotel', 'sensor']) {
        const report = await pageAndEngine(page, id);
        assert.deepEqual(report.checks.map((c) => c.code), report.average.checks.map((c) => c.code), 'one table');
        const cases = [report.average, report.worst_case, report.grown].filter(Boolean);
        const shown = await page.$$eval(`${byTestId('sizing-result')} ${byTestId('sizing-case')}`,
                                        (cards) => cards.map((c) => ({name: c.dataset.case, failed: c.dataset.failedChecks})));
        assert.deepEqual(shown, cases.map((c) => ({name: c.name, failed: c.checks.filter((x) => !x.pass).map((x) => x.code).join(',')})),
                         `${id}: the failed checks of each case`);
        for (const c of cases) {
          failing += c.checks.filter((x) => !x.pass).length;
          // A failed check is a finding and a finding a failed check.
          assert.deepEqual(c.findings.map((f) => f.code).sort(), c.checks.filter((x) => !x.pass).map((x) => x.code).sort());
        }
        // The average case's Nv figure takes the level of its failed checks on Nv.
        const failedNv = report.average.checks.filter((x) => !x.pass && x.measure === 'nv');
        const level = failedNv.some((x) => x.severity === 'error') ? 'bad' : failedNv.length ? 'warn' : '';
        const classes = await page.$eval(`${byTestId('sizing-result')} ${byTestId('sizing-nv')}`, (n) => n.closest('.figure').className);
        assert.equal(['bad', 'warn'].find((l) => classes.split(' ').includes(l)) ?? '', level, `${id}: the Nv figure's level`);
        const rows = await page.$$eval(`${byTestId('sizing-limits')} tbody tr`, (trs) => trs.map((tr) =>
          [...tr.children].map((td) => td.textContent)));
        assert.deepEqual(rows.map((r) => [r[0], r[1], r[3]]), report.checks.map((c) => [c.label, c.severity, c.source]));
      }
      assert.ok(failing > 0, 'the sensor example breaks a limit: the comparison covers a failed check');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
