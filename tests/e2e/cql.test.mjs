// End-to-end tests of the page's Cassandra mode (the CQL console, the results grid, the token
// ring, the per-node load, loading JSON into a table and the Cosmos DB Cassandra API mode), in
// Debian's Chromium against build/site (run `make site` first).
//
//   node --test --test-concurrency=1 tests/e2e/
//
// Every expectation is computed here, independently of the engine: tokens with npm
// cassandra-driver's own Murmur3Tokenizer over its own encoder (plus Cassandra's Long.MIN_VALUE ->
// Long.MAX_VALUE rule, which the driver skips), row order by sorting in JS (partitions by token,
// rows by clustering key), replicas by walking the ring's token table clockwise, physical
// partitions by the published rule and an even split of the token range. The page must log no
// console error and fetch nothing off-origin (the harness records both).
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {compositeKey, driverToken, encode} from '../oracles/cassandra.mjs';
import {TIMEOUT, byTestId, cqlAfter, cqlRuns, examplesDir, openCassandra, openPage, repo, resultsDir, runScript,
        useBrowser} from './harness.mjs';
import {caretExcerpt} from '../../web/common/text-position.js';

const textToken = (s) => driverToken(encode(s, 'text'));
const compositeToken = (buffers) => driverToken(compositeKey(buffers));
const byToken = (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

useBrowser();

const panel = byTestId('cassandra-view');

/** The results on the page: [{kind, verb, columns, rows: [{cells, token, key, replicas}], error}]. */
async function results(page) {
  return page.$$eval(`${byTestId('cql-result')}`, (items) => items.map((li) => {
    const table = li.querySelector('table.cql-rows');
    const columns = table ? [...table.querySelectorAll('thead th[data-column]')].map((th) => th.dataset.column) : [];
    const rows = table ? [...table.querySelectorAll('tbody tr')].map((tr) => ({
      cells: [...tr.children].slice(0, columns.length).map((td) => td.textContent),
      token: tr.dataset.token ?? null,
      shownToken: tr.querySelector('[data-testid="cql-row-token"]')?.textContent ?? null,
      key: tr.dataset.key ? JSON.parse(tr.dataset.key) : null,
      replicas: tr.dataset.replicas ? JSON.parse(tr.dataset.replicas) : null,
    })) : [];
    const error = li.querySelector('[data-testid="cql-error"]');
    return {
      kind: li.dataset.kind, verb: li.dataset.verb, columns, rows,
      error: error ? {
        message: error.querySelector('[data-testid="cql-error-message"]').textContent,
        line: Number(error.querySelector('[data-testid="cql-error-line"]').dataset.value),
        column: Number(error.querySelector('[data-testid="cql-error-column"]').dataset.value),
        code: error.querySelector('[data-testid="cql-error-code"]').dataset.value,
      } : null,
    };
  }));
}

/** The rows INSERTed by a script of `insert into T (c1, c2, ...) values (v1, v2, ...)` lines (plain literals). */
function insertedRows(script) {
  const rows = [];
  for (const m of script.matchAll(/insert\s+into\s+\S+\s*\(([^)]*)\)\s*values\s*\(((?:'(?:[^']|'')*'|[^)'])*)\)/gi)) {
    const columns = m[1].split(',').map((c) => c.trim());
    const values = [...m[2].matchAll(/'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)|(true|false)/g)]
      .map((v) => (v[1] !== undefined ? v[1].replaceAll("''", "'") : v[2] !== undefined ? Number(v[2]) : v[3] === 'true'));
    rows.push(Object.fromEntries(columns.map((c, i) => [c, values[i]])));
  }
  return rows;
}

const ALLOW_FILTERING = 'Cannot execute this query as it might involve data filtering and thus may have unpredictable ' +
  'performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING';

/** The ring's vnode tokens from the table view: [{token, node (name)}], sorted. */
async function ringTokens(page) {
  return page.$$eval(`${byTestId('ring-ranges-table')} tbody tr`, (trs) => trs.map((tr) => ({
    token: tr.children[2].textContent, node: tr.children[3].textContent,
  })));
}

/**
 * SimpleStrategy's replicas of a token: the first `rf` distinct nodes walking clockwise from it,
 * and the vnode token at which the walk meets each of them (`at`).
 */
function simpleWalk(tokens, token, rf) {
  const t = BigInt(token);
  let start = tokens.findIndex((v) => BigInt(v.token) >= t);
  if (start < 0) start = 0;
  const nodes = [];
  const at = [];
  for (let k = 0; k < tokens.length && nodes.length < rf; k++) {
    const v = tokens[(start + k) % tokens.length];
    if (!nodes.includes(v.node)) {
      nodes.push(v.node);
      at.push(v.token);
    }
  }
  return {nodes, at};
}
const simpleReplicas = (tokens, token, rf) => simpleWalk(tokens, token, rf).nodes;

async function nodeNames(page) {
  return page.$$eval(`${byTestId('ownership-table')} tbody tr`, (trs) => trs.map((tr) => tr.children[0].textContent));
}

describe('Cassandra mode: the CQL console', {timeout: 10 * TIMEOUT}, () => {
  test('the compound-key example: rows in token order of their partitions, clustering order within, exact tokens',
       {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      assert.equal(await page.inputValue(byTestId('cql-example')), 'uprofile-compound-key');
      const script = readFileSync(join(examplesDir, 'cql', 'uprofile-compound-key.cql'), 'utf8');
      assert.equal(await page.inputValue(byTestId('cql-editor')), script, 'the example is in the editor');

      // What Cassandra returns, computed here: upserts by (user, id), partitions by token, ids ascending.
      const byKey = new Map();
      for (const row of insertedRows(script)) byKey.set(`${row.user}\u0000${row.id}`, row);
      const expected = [...byKey.values()]
        .map((r) => ({...r, token: textToken(r.user)}))
        .sort((a, b) => byToken(a.token, b.token) || a.id - b.id);
      assert.ok(new Set(expected.map((r) => r.user)).size >= 2, 'the example has several partitions');

      const all = await results(page);
      const selects = all.filter((r) => r.kind === 'rows');
      const full = selects[0];
      assert.deepEqual(full.columns, ['user', 'id', 'message']);
      assert.deepEqual(full.rows.map((r) => r.cells), expected.map((r) => [r.user, String(r.id), r.message]),
                       'SELECT * returns partitions in token order, rows in clustering order');
      for (const [i, row] of full.rows.entries()) {
        assert.equal(row.token, expected[i].token, `row ${i}: the token is the driver's`);
        assert.equal(row.shownToken, expected[i].token, `row ${i}: the token shown is the driver's`);
        assert.deepEqual(row.key, [expected[i].user], `row ${i}: its partition key`);
        assert.equal(row.replicas.length, 3, 'SimpleStrategy with replication_factor 3: three replicas');
        assert.equal(new Set(row.replicas).size, 3, 'three distinct nodes');
      }
      // One partition by its key, then the same partition in reverse clustering order.
      const theo = expected.filter((r) => r.user === 'theo');
      assert.deepEqual(selects[1].rows.map((r) => r.cells[1]), theo.map((r) => String(r.id)));
      assert.deepEqual(selects[2].rows.map((r) => r.cells[1]), theo.map((r) => String(r.id)).reverse(), 'ORDER BY id DESC');
      // The query without the partition key fails with Cassandra's message; ALLOW FILTERING scans.
      const errors = all.filter((r) => r.kind === 'error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0].error.message, ALLOW_FILTERING);
      assert.deepEqual(selects[3].rows.map((r) => r.cells[0]), expected.filter((r) => r.id === 1).map((r) => r.user),
                       'ALLOW FILTERING: the matching rows, partitions in token order');
      assert.match(await page.textContent(byTestId('cql-status')), /1 error/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a composite partition key hashes its components together, as the driver does', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const script = readFileSync(join(examplesDir, 'cql', 'uprofile-composite-key.cql'), 'utf8');
      await cqlAfter(page, () => page.selectOption(byTestId('cql-example'), 'uprofile-composite-key'));
      assert.equal(await page.inputValue(byTestId('cql-editor')), script);
      const byKey = new Map();
      for (const row of insertedRows(script)) byKey.set(`${row.firstname}\u0000${row.lastname}\u0000${row.id}`, row);
      const expected = [...byKey.values()]
        .map((r) => ({...r, token: compositeToken([encode(r.firstname, 'text'), encode(r.lastname, 'text')])}))
        .sort((a, b) => byToken(a.token, b.token) || a.id - b.id);
      const first = (await results(page)).find((r) => r.kind === 'rows');
      assert.deepEqual(first.rows.map((r) => [r.cells[0], r.cells[1], r.cells[2]]),
                       expected.map((r) => [r.firstname, r.lastname, String(r.id)]));
      // token(firstname, lastname) is selected too: the column and the extra token column agree with the driver.
      assert.deepEqual(first.rows.map((r) => r.cells[3]), expected.map((r) => r.token));
      assert.deepEqual(first.rows.map((r) => r.token), expected.map((r) => r.token));
      const error = (await results(page)).find((r) => r.kind === 'error');
      assert.match(error.error.message, /partition key parts are missing: lastname|ALLOW FILTERING/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('errors: Cassandra\'s ALLOW FILTERING message, and a syntax error with its line, column and statement selected',
       {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const script = [
        "CREATE KEYSPACE IF NOT EXISTS shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};",
        'USE shop;',
        'DROP TABLE IF EXISTS orders;',
        'CREATE TABLE orders (customer text, placed int, total int, PRIMARY KEY (customer, placed));',
        "INSERT INTO orders (customer, placed, total) VALUES ('ann', 1, 30);",
        'SELECT * FROM orders WHERE total = 30;',
        'SELECT * FROM orders',
        '  WHERE customer = \'ann\' ORDRE BY placed;',
        "SELECT total FROM orders WHERE customer = 'ann';",
        'DESCRIBE TABLE orders;',
      ].join('\n');
      assert.equal(await runScript(page, script), 'ready');
      const all = await results(page);
      const errors = all.filter((r) => r.kind === 'error');
      assert.equal(errors.length, 2, 'two statements fail; the others run');
      assert.equal(errors[0].error.message, ALLOW_FILTERING);
      assert.equal(errors[0].error.code, 'cql_invalid_request');
      // The syntax error: at ORDRE, line 8.
      const syntax = errors[1].error;
      assert.equal(syntax.code, 'cql_syntax');
      const lines = script.split('\n');
      assert.equal(syntax.line, 8);
      assert.equal(syntax.column, lines[7].indexOf('ORDRE') + 1);
      assert.match(syntax.message, /ORDRE/);
      // The statements after it still ran; DESCRIBE shows the table's CQL, a schema change its message.
      assert.deepEqual(all.at(-2).rows.map((r) => r.cells), [['30']]);
      assert.equal(all.at(-1).kind, 'describe');
      assert.match(await page.textContent(byTestId('cql-describe')), /CREATE TABLE shop\.orders \(/);
      assert.match(await page.locator(`${byTestId('cql-result')}[data-kind="schema_change"]`).last().textContent(),
                   /CREATED TABLE shop\.orders/);
      // The first failing statement is selected in the editor: its whole text, as the engine splits
      // the script (each result's source_begin/source_end).
      const filtering = script.indexOf('SELECT * FROM orders WHERE total = 30');
      const selection = await page.$eval(byTestId('cql-editor'), (t) => [t.selectionStart, t.selectionEnd]);
      assert.deepEqual(selection, [filtering, filtering + 'SELECT * FROM orders WHERE total = 30'.length]);
      // Its excerpt points at the column; the button selects the syntax error's statement.
      const excerpt = await page.locator(byTestId('cql-error-excerpt')).nth(1).textContent();
      assert.equal(excerpt, caretExcerpt(script, 8, syntax.column));
      await page.locator(`${byTestId('cql-error')} button`).nth(1).click();
      const start = script.indexOf('SELECT * FROM orders\n');
      const end = script.indexOf(' ORDRE BY placed;') + ' ORDRE BY placed'.length;
      assert.deepEqual(await page.$eval(byTestId('cql-editor'), (t) => [t.selectionStart, t.selectionEnd]), [start, end]);
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'cql-editor');
      // Ctrl+Enter runs too.
      await page.fill(byTestId('cql-editor'), "SELECT * FROM shop.orders WHERE customer = 'ann';");
      assert.equal(await cqlAfter(page, () => page.press(byTestId('cql-editor'), 'Control+Enter')), 'ready');
      assert.equal((await results(page))[0].rows.length, 1);
      // A fresh session forgets every keyspace: nothing to draw, nothing to load into.
      assert.equal(await cqlAfter(page, () => page.click(byTestId('cql-reset'))), 'ready');
      assert.ok(await page.isVisible(byTestId('cql-empty')));
      assert.equal(await page.locator(byTestId('cql-result')).count(), 0);
      assert.ok(await page.isDisabled(byTestId('cql-load-table')));
      assert.equal(await page.locator(`${byTestId('ring-chart')} circle.partition-dot`).count(), 0);
      assert.match(await page.textContent(byTestId('replication')), /No keyspace yet/);
      assert.equal((await results(page)).length, 0);
      assert.equal(await runScript(page, 'SELECT * FROM shop.orders;'), 'ready');
      assert.equal((await results(page))[0].error.message, "Keyspace 'shop' does not exist");
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('Cassandra mode: the ring, replicas and load', {timeout: 10 * TIMEOUT}, () => {
  test('ownership follows the number of nodes and the token assignment (it sums to 100%)', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const ownership = () => page.$$eval(`${byTestId('ownership-table')} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.ownership)));
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      let shares = await ownership();
      assert.equal(shares.length, 3, 'the default ring has 3 nodes');
      for (const s of shares) assert.ok(Math.abs(s - 1 / 3) < 1e-9, `even tokens: a third each (${s})`);

      for (const nodes of [4, 7]) {
        assert.equal(await cqlAfter(page, async () => {
          await page.fill(byTestId('ring-nodes'), String(nodes));
          await page.press(byTestId('ring-nodes'), 'Enter');
        }), 'ready');
        shares = await ownership();
        assert.equal(shares.length, nodes);
        assert.ok(Math.abs(sum(shares) - 1) < 1e-9, 'ownership sums to 100%');
        for (const s of shares) assert.ok(Math.abs(s - 1 / nodes) < 1e-6, `${nodes} nodes, even tokens: ${s}`);
        const texts = await page.$$eval(`${byTestId('ownership-table')} tbody tr`, (trs) => trs.map((tr) => tr.children[3].textContent));
        assert.equal(new Set(texts).size, 1, 'one share shown for all');
        assert.equal((await ringTokens(page)).length, nodes * 16, 'num_tokens vnodes per node');
      }
      // Random tokens: uneven shares, still 100% in all; the vnode ticks and ranges follow num_tokens.
      await cqlAfter(page, () => page.check(byTestId('ring-tokens-random')));
      assert.equal(await cqlAfter(page, async () => {
        await page.fill(byTestId('ring-vnodes'), '4');
        await page.press(byTestId('ring-vnodes'), 'Enter');
      }), 'ready');
      shares = await ownership();
      assert.ok(Math.abs(sum(shares) - 1) < 1e-9, 'random tokens: still 100%');
      assert.ok(Math.max(...shares) - Math.min(...shares) > 0.01, 'random tokens give uneven shares');
      const tokens = await ringTokens(page);
      assert.equal(tokens.length, 7 * 4);
      for (let i = 1; i < tokens.length; i++) assert.ok(BigInt(tokens[i - 1].token) < BigInt(tokens[i].token), 'sorted tokens');
      // Each range's share is its width over 2^64, and every node's arcs sum to its ownership.
      const names = await nodeNames(page);
      const perNode = new Map();
      for (let i = 0; i < tokens.length; i++) {
        const prev = BigInt(tokens[(i - 1 + tokens.length) % tokens.length].token);
        let size = BigInt(tokens[i].token) - prev;
        if (size <= 0n) size += 2n ** 64n;
        perNode.set(tokens[i].node, (perNode.get(tokens[i].node) ?? 0) + Number(size) / 2 ** 64);
      }
      names.forEach((name, i) => assert.ok(Math.abs(perNode.get(name) - shares[i]) < 1e-9, `${name} owns its ranges`));
      assert.equal(await page.locator(`${byTestId('ring-chart')} path.vnode-arc`).count(), 7 * 4, 'one arc per vnode range');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('a clicked row shows its replicas: RF distinct nodes, the walk clockwise from its token', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      // Five nodes, so three replicas are a real choice.
      await cqlAfter(page, async () => {
        await page.fill(byTestId('ring-nodes'), '5');
        await page.press(byTestId('ring-nodes'), 'Enter');
      });
      assert.equal(await cqlAfter(page, () => page.click(byTestId('cql-run'))), 'ready', 'the example runs on the new ring');
      assert.match(await page.textContent(byTestId('replication')), /SimpleStrategy, replication_factor 3/);
      const tokens = await ringTokens(page);
      const names = await nodeNames(page);
      const rows = page.locator(`${byTestId('cql-result')}[data-kind="rows"]`).first().locator(byTestId('cql-row'));
      for (const i of [0, (await rows.count()) - 1]) {
        await rows.nth(i).click();
        const token = await rows.nth(i).getAttribute('data-token');
        const replicas = JSON.parse(await rows.nth(i).getAttribute('data-replicas'));
        const expected = simpleReplicas(tokens, token, 3);
        assert.deepEqual(replicas.map((n) => names[n]), expected, 'SimpleStrategy: the next 3 distinct nodes clockwise');
        assert.equal(await rows.nth(i).getAttribute('class'), 'selected');
        // The selection lists them, the ring marks them (1 = primary), the tables highlight them.
        assert.equal(await page.getAttribute(byTestId('ring-selection'), 'data-token'), token);
        const listed = await page.$$eval(`${byTestId('selection-replicas')} li`, (lis) => lis.map((li) => Number(li.dataset.node)));
        assert.deepEqual(listed, replicas);
        const markers = await page.$$eval(`${byTestId('ring-chart')} g.replica-marker`,
                                          (gs) => gs.map((g) => [Number(g.dataset.node), Number(g.dataset.rank), g.dataset.token]));
        assert.deepEqual(markers, replicas.map((n, k) => [n, k + 1, simpleWalk(tokens, token, 3).at[k]]),
                         'one marker per replica, in order, at the vnode where the walk meets it');
        const highlighted = await page.$$eval(`${byTestId('ownership-table')} tbody tr.replica`, (trs) => trs.map((tr) => Number(tr.dataset.node)));
        assert.deepEqual(highlighted.sort(), [...replicas].sort());
        const arcs = await page.$$eval(`${byTestId('ring-chart')} path.vnode-arc.replica`, (ps) => [...new Set(ps.map((p) => Number(p.dataset.node)))]);
        assert.deepEqual(arcs.sort(), [...replicas].sort(), 'the replicas\' arcs stand out');
        assert.equal(await page.locator(`${byTestId('ring-chart')} circle.partition-dot.selected`).count(), 1);
      }
      // A dot selects its partition too.
      const dot = page.locator(`${byTestId('ring-chart')} circle.partition-dot`).first();
      const dotToken = await dot.getAttribute('data-token');
      await dot.click({force: true});
      assert.equal(await page.getAttribute(byTestId('ring-selection'), 'data-token'), dotToken);
      // Per-node load: each partition counted on each of its replicas.
      const load = await page.$$eval(`${byTestId('load-table')} tbody tr`, (trs) => trs.map((tr) => ({
        partitions: Number(tr.dataset.partitions), rows: Number(tr.dataset.rows)})));
      const total = (await page.$$eval(`${byTestId('ring-partitions-table')} tbody tr`, (trs) => trs.length));
      assert.equal(load.reduce((s, l) => s + l.partitions, 0), 3 * total, 'every partition on 3 nodes');
      assert.equal(await page.locator(`${byTestId('load-chart')} g.load-bar`).count(), 3 * 5, 'three measures per node');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('NetworkTopologyStrategy over two datacenters with racks: replicas per datacenter on distinct racks',
       {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      await cqlAfter(page, async () => {
        await page.fill(byTestId('ring-datacenters'), '2');
        await page.fill(byTestId('ring-racks'), '3');
        await page.fill(byTestId('ring-nodes'), '4');
        await page.press(byTestId('ring-nodes'), 'Enter');
      });
      await page.waitForFunction((s) => document.querySelectorAll(`${s} tbody tr`).length === 8,
                                 byTestId('ownership-table'), {timeout: TIMEOUT});
      const script = [
        "CREATE KEYSPACE IF NOT EXISTS geo WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3, 'datacenter2': 2};",
        'CREATE TABLE IF NOT EXISTS geo.visits (site text, at int, PRIMARY KEY (site, at));',
        "INSERT INTO geo.visits (site, at) VALUES ('a', 1);",
        "INSERT INTO geo.visits (site, at) VALUES ('b', 1);",
        "INSERT INTO geo.visits (site, at) VALUES ('c', 1);",
        'SELECT * FROM geo.visits ALLOW FILTERING;',
      ].join('\n');
      assert.equal(await runScript(page, script), 'ready');
      assert.match(await page.textContent(byTestId('replication')), /NetworkTopologyStrategy/);
      const owners = await page.$$eval(`${byTestId('ownership-table')} tbody tr`, (trs) => trs.map((tr) => {
        const [dc, rack] = tr.children[1].textContent.split(' / ');
        return {dc, rack};
      }));
      assert.equal(owners.length, 8);
      const rows = await page.$$eval(`${byTestId('cql-result')}[data-kind="rows"] ${byTestId('cql-row')}`,
                                     (trs) => trs.map((tr) => JSON.parse(tr.dataset.replicas)));
      assert.equal(rows.length, 3);
      for (const replicas of rows) {
        const dc1 = replicas.filter((n) => owners[n].dc === 'datacenter1');
        const dc2 = replicas.filter((n) => owners[n].dc === 'datacenter2');
        assert.equal(dc1.length, 3, 'three in datacenter1');
        assert.equal(dc2.length, 2, 'two in datacenter2');
        assert.equal(new Set(dc1.map((n) => owners[n].rack)).size, 3, 'on three distinct racks');
        assert.equal(new Set(dc2.map((n) => owners[n].rack)).size, 2, 'on two distinct racks');
      }
      const effective = await page.$$eval(`${byTestId('ownership-table')} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.effective)));
      assert.ok(Math.abs(effective.reduce((a, b) => a + b, 0) - 5) < 1e-6, 'effective ownership sums to the 5 copies');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('loading JSON files into a table: NDJSON and an array, with located errors', {timeout: 2 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-cql-'));
    const {page, problems, close} = await openCassandra();
    try {
      const users = 40;
      const rows = [];
      for (let i = 0; i < 2000; i++) rows.push({user: `u${i % users}`, id: Math.floor(i / users), message: `m${i} ✓`});
      const ndjson = join(dir, 'messages.ndjson');
      writeFileSync(ndjson, rows.slice(0, 1500).map((r) => JSON.stringify(r)).join('\n') + '\n');
      const array = join(dir, 'more.json');
      writeFileSync(array, JSON.stringify(rows.slice(1500), null, 2));

      assert.equal(await page.inputValue(byTestId('cql-load-table')), 'uprofile.user');
      assert.equal(await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), ndjson)), 'ready');
      assert.equal(await page.getAttribute(byTestId('cql-load-status'), 'data-rows'), '1500');
      assert.equal(await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), array)), 'ready');
      assert.equal(await page.getAttribute(byTestId('cql-load-status'), 'data-rows'), '500');

      // The table holds the example's rows and the loaded ones; one user's rows in clustering order.
      const script = readFileSync(join(examplesDir, 'cql', 'uprofile-compound-key.cql'), 'utf8');
      const exampleRows = insertedRows(script);
      const load = await page.$$eval(`${byTestId('load-table')} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.rows)));
      const distinct = new Set([...exampleRows, ...rows].map((r) => `${r.user}\u0000${r.id}`)).size;
      assert.equal(load.reduce((a, b) => a + b, 0), 3 * distinct, 'every row on its 3 replicas');
      assert.equal(await page.locator(`${byTestId('ring-chart')} circle.partition-dot`).count(),
                   new Set([...exampleRows, ...rows].map((r) => r.user)).size, 'one dot per partition');
      assert.equal(await runScript(page, "SELECT id, message FROM uprofile.user WHERE user = 'u7';"), 'ready');
      const got = (await results(page))[0].rows.map((r) => r.cells);
      const expected = rows.filter((r) => r.user === 'u7').sort((a, b) => a.id - b.id).map((r) => [String(r.id), r.message]);
      assert.deepEqual(got, expected);
      assert.equal((await results(page))[0].rows[0].token, textToken('u7'));

      // A bad line: the rows before it stay, the error names its line.
      const bad = join(dir, 'bad.ndjson');
      writeFileSync(bad, '{"user": "z", "id": 1, "message": "ok"}\n{"user": "z", "id": 2, "message": "ok"}\n{"user": "z", "id": "two"}\n');
      assert.equal(await cqlAfter(page, () => page.setInputFiles(byTestId('cql-load-input'), bad)), 'error');
      const status = await page.textContent(byTestId('cql-load-status'));
      assert.match(status, /line 3/, status);
      assert.match(status, /2 rows were loaded/, status);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a million rows load in the worker with progress while the page stays responsive', {timeout: 5 * TIMEOUT}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-cql-big-'));
    const {page, problems, close} = await openCassandra();
    try {
      const ROWS = 1_000_000;
      const SENSORS = 1000;
      const file = join(dir, 'readings.ndjson');
      const lines = [];
      for (let i = 0; i < ROWS; i++) lines.push(`{"sensor":"s${i % SENSORS}","at":${Math.floor(i / SENSORS)},"value":${i % 97}}`);
      writeFileSync(file, lines.join('\n') + '\n');
      assert.equal(await runScript(page, [
        "CREATE KEYSPACE IF NOT EXISTS iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
        'DROP TABLE IF EXISTS iot.readings;',
        'CREATE TABLE iot.readings (sensor text, at int, value int, PRIMARY KEY (sensor, at));',
      ].join('\n')), 'ready');
      await page.selectOption(byTestId('cql-load-table'), 'iot.readings');
      // Cancelled half-way: the rows loaded so far stay, the page says so.
      const before = await cqlRuns(page);
      await page.setInputFiles(byTestId('cql-load-input'), file);
      await page.waitForSelector(`${byTestId('cql-progress')}:not([hidden])`, {timeout: TIMEOUT});
      await page.click(byTestId('cql-load-cancel'));
      await page.waitForFunction(({selector, n}) => Number(document.querySelector(selector).dataset.cqlRuns) > n &&
        document.querySelector(selector).dataset.cqlPending === '0', {selector: panel, n: before}, {timeout: TIMEOUT});
      assert.match(await page.textContent(byTestId('cql-load-status')), /cancelled/);
      const partial = await page.$$eval(`${byTestId('load-table')} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.rows)));
      assert.ok(partial.reduce((a, b) => a + b, 0) < 3 * ROWS, 'stopped before the end');
      const runs = await cqlRuns(page);
      await page.setInputFiles(byTestId('cql-load-input'), file);
      await page.waitForSelector(`${byTestId('cql-progress')}:not([hidden])`, {timeout: TIMEOUT});
      // The main thread answers while the worker loads: the panel is busy, not blocked.
      const started = Date.now();
      assert.equal(await page.$eval(panel, (node) => node.dataset.cqlState), 'busy');
      assert.ok(Date.now() - started < 1000, 'the page answers at once');
      await page.waitForFunction(({selector, n}) => Number(document.querySelector(selector).dataset.cqlRuns) > n,
                                 {selector: panel, n: runs}, {timeout: 4 * TIMEOUT});
      assert.equal(await page.$eval(panel, (node) => node.dataset.cqlState), 'ready');
      assert.equal(await page.getAttribute(byTestId('cql-load-status'), 'data-rows'), String(ROWS));
      const load = await page.$$eval(`${byTestId('load-table')} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.rows)));
      assert.equal(load.reduce((a, b) => a + b, 0), 3 * ROWS);
      assert.ok(await page.isHidden(byTestId('cql-progress')), 'the progress bar goes away');
      assert.deepEqual(problems, []);
    } finally {
      await close();
      rmSync(dir, {recursive: true, force: true});
    }
  });
});

describe('Cassandra mode: Cosmos DB Cassandra API, mode switch, picture', {timeout: 6 * TIMEOUT}, () => {
  test('the Cosmos DB Cassandra API mode: replication 4, quorum 3, physical partitions instead of nodes',
       {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      await page.check(byTestId('cosmos-api-toggle'));
      assert.ok(await page.isVisible(byTestId('cosmos-api-panel')));
      assert.equal(await page.getAttribute(byTestId('cosmos-replicas'), 'data-value'), '4');
      assert.equal(await page.getAttribute(byTestId('cosmos-quorum'), 'data-value'), '3');
      assert.equal(Number(await page.getAttribute(byTestId('cosmos-physical-limit'), 'data-value')), 30 * 2 ** 30);
      assert.equal(Number(await page.getAttribute(byTestId('cosmos-logical-limit'), 'data-value')), 20 * 2 ** 30);
      // max(ceil(bytes / 30 GB), ceil(RU/s / 6,000), 1), a table created with that manual throughput (the
      // scaling best-practices doc's creation rule): the tiny example needs what the throughput needs.
      for (const ru of [40000, 100000, 400]) {
        if (Number(await page.inputValue(byTestId('cosmos-ru'))) !== ru) {
          await cqlAfter(page, async () => {
            await page.fill(byTestId('cosmos-ru'), String(ru));
            await page.press(byTestId('cosmos-ru'), 'Enter');
          });
        }
        const expected = Math.max(1, Math.ceil(ru / 6000));
        assert.equal(Number(await page.getAttribute(byTestId('cosmos-physical'), 'data-value')), expected, `${ru} RU/s`);
        assert.equal(await page.locator(`${byTestId('ring-chart')} path.vnode-arc`).count(), expected, 'one arc per physical partition');
        assert.equal(await page.locator(`${byTestId('load-table')} tbody tr`).count(), expected);
      }
      await cqlAfter(page, async () => {
        await page.fill(byTestId('cosmos-ru'), '60000');
        await page.press(byTestId('cosmos-ru'), 'Enter');
      });
      // A selected row sits in the physical partition whose even slice of the token range holds its token.
      const row = page.locator(`${byTestId('cql-result')}[data-kind="rows"]`).first().locator(byTestId('cql-row')).first();
      await row.click();
      const token = BigInt(await row.getAttribute('data-token'));
      const width = (2n ** 64n - 1n) / 10n + 1n;  // 60,000 RU/s: 10 physical partitions
      const expected = Number((token + 2n ** 63n) / width);
      assert.equal(await page.getAttribute(byTestId('ring-selection'), 'data-physical'), String(expected));
      assert.match(await page.textContent(byTestId('selection-physical')), /4 replicas.*3 of them/);
      assert.equal(await page.locator(`${byTestId('ring-chart')} g.replica-marker`).count(), 4, 'a replica set of 4');
      assert.match(await page.textContent(byTestId('cosmos-compare')), /always 4/);
      // Off again: the nodes are back.
      await page.uncheck(byTestId('cosmos-api-toggle'));
      assert.ok(await page.isHidden(byTestId('cosmos-api-panel')));
      assert.equal(await page.locator(`${byTestId('ring-chart')} path.vnode-arc`).count(), 3 * 16);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the mode switch works from the keyboard and keeps both modes\' state', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      assert.equal(await page.getAttribute(byTestId('mode-cosmos'), 'aria-selected'), 'true');
      assert.ok(await page.isHidden(panel));
      await page.fill(byTestId('key-input'), '/status');
      await page.focus(byTestId('mode-cosmos'));
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'mode-cassandra');
      assert.equal(await page.getAttribute(byTestId('mode-cassandra'), 'aria-selected'), 'true');
      assert.ok(await page.isVisible(panel));
      assert.ok(await page.isHidden(byTestId('cosmos-view')));
      await page.waitForFunction((s) => Number(document.querySelector(s).dataset.cqlRuns) >= 1 &&
        document.querySelector(s).dataset.cqlState !== 'busy', panel, {timeout: TIMEOUT});
      assert.match(page.url(), /#cassandra$/);
      await cqlAfter(page, () => page.click(byTestId('cql-run')));
      await page.fill(byTestId('cql-editor'), 'SELECT * FROM uprofile.user;');
      await page.keyboard.press('Home');
      await page.focus(byTestId('mode-cassandra'));
      await page.keyboard.press('Home');
      assert.equal(await page.getAttribute(byTestId('mode-cosmos'), 'aria-selected'), 'true');
      assert.equal(await page.inputValue(byTestId('key-input')), '/status', 'the Cosmos DB side kept its state');
      assert.ok(await page.isVisible(byTestId('summary')));
      await page.keyboard.press('End');
      assert.equal(await page.inputValue(byTestId('cql-editor')), 'SELECT * FROM uprofile.user;', 'the console kept its text');
      assert.ok((await results(page)).length > 0, 'and its results');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('the view in light and dark, with a partition selected (screenshot)', {timeout: TIMEOUT}, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const {page, problems, close} = await openCassandra({colorScheme});
      try {
        await cqlAfter(page, async () => {
          await page.fill(byTestId('ring-nodes'), '6');
          await page.press(byTestId('ring-nodes'), 'Enter');
        });
        await cqlAfter(page, () => page.selectOption(byTestId('cql-example'), 'hotel-availability'));
        await page.locator(`${byTestId('cql-result')}[data-kind="rows"]`).first().locator(byTestId('cql-row')).first().click();
        assert.equal(await page.locator(`${byTestId('ring-chart')} g.replica-marker`).count(), 3, 'NetworkTopologyStrategy, 3 in datacenter1');
        mkdirSync(resultsDir, {recursive: true});
        await page.screenshot({path: join(resultsDir, colorScheme === 'light' ? 'cql-view.png' : 'cql-view-dark.png'), fullPage: true});
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    }
  });
});

describe('web/text-position.js and the CQL protocol (no browser)', () => {
  test('CQL requests are validated on both sides of the worker', async () => {
    const protocol = await import('../../web/worker/protocol.js');
    const {Request, request, validateRequest} = protocol;
    const ok = [
      request(1, Request.CQL, {script: 'SELECT 1;'}),
      request(2, Request.CQL, {script: '', table: 'ks.t', ru: 400, maxPartitions: 100}),
      request(3, Request.RING, {ring: {nodes: 6, num_tokens: 16, random_tokens: true, seed: 7}}),
      request(4, Request.RING, {ring: {datacenters: [{name: 'dc1', nodes: 3, racks: 3}, {name: 'dc2', nodes: 2, racks: 1}]}}),
      request(5, Request.CQL_VIEW, {table: 'ks.t'}),
      request(6, Request.CQL_LOAD, {table: 'ks.t', source: {kind: 'text', text: '{"k": 1}'}}),
      request(7, Request.CQL_RESET, {}),
    ];
    for (const m of ok) assert.equal(validateRequest(m), m);
    const bad = [
      request(1, Request.CQL, {}),
      request(1, Request.CQL, {script: 5}),
      request(1, Request.CQL, {script: '', ru: '400'}),  // ru < 0: the engine's (protocol-wiring.test.mjs)
      request(1, Request.RING, {}),
      request(1, Request.RING, {ring: {nodes: '3'}}),
      request(1, Request.RING, {ring: {random_tokens: 1}}),
      request(1, Request.RING, {ring: {datacenters: [{nodes: 1}]}}),
      request(1, Request.RING, {ring: {datacenters: {name: 'a', nodes: 1}}}),
      request(1, Request.CQL_LOAD, {source: {kind: 'text', text: ''}}),
      request(1, Request.CQL_LOAD, {table: 'ks.t', source: {kind: 'text'}}),
      request(1, Request.CQL_VIEW, {table: 5}),
    ];
    for (const m of bad) assert.throws(() => validateRequest(m), TypeError, JSON.stringify(m));
  });

  test('an excerpt points at a column counted in UTF-8 bytes', () => {
    // Columns count UTF-8 bytes: x is column 6 (é takes two).
    assert.equal(caretExcerpt('a\n  é x', 2, 6), '2 |   é x\n        ^');
  });
});
