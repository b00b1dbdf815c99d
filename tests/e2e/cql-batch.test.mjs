// End-to-end: a BATCH, GROUP BY and lightweight transactions in the page's CQL console, in Debian's Chromium against
// build/site. The
// batch's block names the partitions it wrote with the tokens npm cassandra-driver computes, the
// ring marks them, Cassandra's warning for an unlogged batch over more than 10 partitions is
// shown, and a batch that fails leaves nothing written (the next SELECT shows only the rows
// before it). A GROUP BY query shows a row per group, each with its partition's token, and
// Cassandra's warning for an aggregate over more than one partition. Conditional statements show
// the [applied] row cqlsh shows: true, or false with the current values of the IF columns.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {driverToken, encode} from '../oracles/cassandra.mjs';
import {TIMEOUT, byTestId, openCassandra, resultsDir, runScript, useBrowser} from './harness.mjs';

useBrowser();

const intToken = (k) => driverToken(encode(k, 'int'));
const byToken = (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** Each result's kind, verb, batch block (type, partitions [{table, key, token}]), warnings and error. */
async function results(page) {
  return page.$$eval(byTestId('cql-result'), (items) => items.map((li) => {
    const batch = li.querySelector('[data-testid="cql-batch"]');
    return {
      kind: li.dataset.kind, verb: li.dataset.verb,
      batch: batch ? {
        type: batch.dataset.type, mutations: Number(batch.dataset.mutations), size: Number(batch.dataset.size),
        summary: batch.querySelector('[data-testid="cql-batch-summary"]').textContent,
        partitions: [...batch.querySelectorAll('[data-testid="cql-batch-partition"]')].map((tr) => ({
          table: tr.dataset.table, key: JSON.parse(tr.dataset.key), token: tr.dataset.token,
          shownToken: tr.children[2].textContent})),
      } : null,
      warnings: [...li.querySelectorAll('.cql-warning')].map((p) => p.textContent),
      error: li.querySelector('[data-testid="cql-error-message"]')?.textContent ?? null,
      rows: [...li.querySelectorAll('[data-testid="cql-row"]')].map((tr) => tr.children[0].textContent),
    };
  }));
}

const SCHEMA = [
  "CREATE KEYSPACE IF NOT EXISTS bank WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
  'USE bank;',
  'DROP TABLE IF EXISTS accounts;',
  'CREATE TABLE accounts (id int, entry int, amount int, PRIMARY KEY (id, entry));',
];

describe('BATCH in the CQL console', () => {
  test('a batch\'s partitions with the driver\'s tokens, marked on the ring; warnings; a failed batch writes nothing',
       {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({viewport: {width: 1366, height: 768}});
    try {
      const unlogged = Array.from({length: 11}, (_, i) => `  INSERT INTO accounts (id, entry, amount) VALUES (${100 + i}, 1, 5);`);
      const script = [
        ...SCHEMA,
        'BEGIN BATCH',
        '  INSERT INTO accounts (id, entry, amount) VALUES (1, 1, -50);',
        '  INSERT INTO accounts (id, entry, amount) VALUES (2, 1, 50);',
        'APPLY BATCH;',
        'BEGIN UNLOGGED BATCH', ...unlogged, 'APPLY BATCH;',
        'BEGIN BATCH',
        '  INSERT INTO accounts (id, entry, amount) VALUES (3, 1, -10);',
        "  INSERT INTO accounts (id, entry, amount) VALUES (4, 1, 'ten');",
        'APPLY BATCH;',
        'SELECT id FROM accounts WHERE id IN (1, 2, 3, 4);',
        'BEGIN BATCH',
        '  UPDATE accounts SET amount = 7 WHERE id = 1 AND entry = 2;',
        '  UPDATE accounts SET amount = 9 WHERE id = 1 AND entry = 2;',
        'APPLY BATCH;',
      ].join('\n');
      await runScript(page, script);
      const all = await results(page);
      const batches = all.filter((r) => r.verb === 'BATCH');
      assert.equal(batches.length, 4);

      const [logged, wide, failed, single] = batches;
      assert.equal(logged.kind, 'void');
      assert.equal(logged.batch.type, 'LOGGED');
      assert.equal(logged.batch.mutations, 2);
      const expected = [1, 2].map((k) => ({table: 'bank.accounts', key: [String(k)], token: intToken(k)})).sort((a, b) => byToken(a.token, b.token));
      assert.deepEqual(logged.batch.partitions.map(({table, key, token}) => ({table, key, token})), expected);
      assert.deepEqual(logged.batch.partitions.map((p) => p.shownToken), expected.map((p) => p.token));
      assert.deepEqual(logged.warnings, []);

      assert.equal(wide.batch.type, 'UNLOGGED');
      assert.deepEqual(wide.batch.partitions.map((p) => p.token).sort(byToken),
                       unlogged.map((_, i) => intToken(100 + i)).sort(byToken));
      assert.deepEqual(wide.warnings, ['Warning: Unlogged batch covering 11 partitions detected against table [bank.accounts]. ' +
        'You should use a logged batch for atomicity, or asynchronous writes for performance.']);

      assert.equal(failed.kind, 'error');
      assert.equal(failed.error, 'Invalid STRING constant (ten) for "amount" of type int');
      const select = all.find((r) => r.kind === 'rows');
      assert.deepEqual(select.rows.sort(), ['1', '2'], 'the failed batch wrote neither 3 nor 4');

      // One partition: one mutation; the greater of two values written at the batch's one timestamp.
      assert.equal(single.batch.mutations, 1);
      await runScript(page, 'SELECT amount FROM bank.accounts WHERE id = 1 AND entry = 2;');
      assert.deepEqual((await results(page))[0].rows, ['9']);

      // The last batch of a run is marked on the ring; another batch's button marks that one.
      await runScript(page, script.replace('DROP TABLE IF EXISTS accounts;\n', '').replace(/CREATE TABLE accounts[^\n]*\n/, ''));
      const ring = byTestId('ring-chart');
      const marks = () => page.$$eval(`${ring} g.batch-mark`, (gs) => gs.map((g) => g.dataset.token).sort());
      assert.deepEqual(await marks(), [intToken(1)]);
      assert.match(await page.textContent('#ring-caption'), /Diamonds outside the ring: the 1 partition a batch wrote\./);
      await page.locator(byTestId('cql-batch')).nth(1).locator(byTestId('cql-batch-ring')).click();
      assert.deepEqual(await marks(), wide.batch.partitions.map((p) => p.token).sort());
      assert.match(await page.textContent('#ring-caption'), /the 11 partitions a batch wrote\./);
      // A partition's replicas button selects it on the ring.
      await page.locator(byTestId('cql-batch')).first().locator(`${byTestId('cql-batch-partition')} button`).first().click();
      assert.equal(await page.textContent(byTestId('selection-token')), expected[0].token);
      assert.equal(await page.locator(`${ring} g.replica-marker`).count(), 3);

      mkdirSync(resultsDir, {recursive: true});
      await page.locator(byTestId('cql-batch')).first().scrollIntoViewIfNeeded();
      await page.screenshot({path: join(resultsDir, 'cql-batch.png')});
      await page.setViewportSize({width: 390, height: 844});
      await page.locator(byTestId('cql-batch')).first().scrollIntoViewIfNeeded();
      await page.screenshot({path: join(resultsDir, 'cql-batch-narrow.png')});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('GROUP BY: a row per group with its partition, sums as Cassandra computes them, and the warning',
       {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const script = [
        ...SCHEMA,
        ...[[1, 1, 10], [1, 2, 20], [1, 3, 2147483647], [2, 1, 5], [3, 1, -7], [3, 2, 7]]
          .map(([id, entry, amount]) => `INSERT INTO accounts (id, entry, amount) VALUES (${id}, ${entry}, ${amount});`),
        'SELECT id, count(*), sum(amount), max(amount) FROM accounts GROUP BY id;',
        'SELECT id, entry, avg(amount) FROM accounts WHERE id = 3 GROUP BY id;',
      ].join('\n');
      await runScript(page, script);
      const rows = (await results(page)).filter((r) => r.kind === 'rows');
      const cells = await page.$$eval(`${byTestId('cql-result')}[data-kind="rows"]`, (items) => items.map((li) =>
        [...li.querySelectorAll('[data-testid="cql-row"]')].map((tr) => ({
          cells: [...tr.children].slice(0, 4).map((td) => td.textContent), token: tr.dataset.token}))));
      // Groups in token order of their partitions; an int sum wraps as Java's does (10 + 20 + 2^31 - 1).
      const expected = [[1, '3', '-2147483619', '2147483647'], [2, '1', '5', '5'], [3, '2', '0', '7']]
        .sort((a, b) => byToken(intToken(a[0]), intToken(b[0])));
      assert.deepEqual(cells[0].map((r) => r.cells), expected.map(([id, ...rest]) => [String(id), ...rest]));
      assert.deepEqual(cells[0].map((r) => r.token), expected.map(([id]) => intToken(id)));
      assert.deepEqual(rows[0].warnings, ['Warning: Aggregation query used without partition key']);
      assert.deepEqual(cells[1].map((r) => r.cells.slice(0, 3)), [['3', '1', '0']]);
      assert.deepEqual(rows[1].warnings, []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('lightweight transactions: the [applied] row, with the current values when not applied', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const script = [
        ...SCHEMA,
        'INSERT INTO accounts (id, entry, amount) VALUES (1, 1, 10) IF NOT EXISTS;',
        'INSERT INTO accounts (id, entry, amount) VALUES (1, 1, 99) IF NOT EXISTS;',
        'UPDATE accounts SET amount = 20 WHERE id = 1 AND entry = 1 IF amount = 15;',
        'UPDATE accounts SET amount = 20 WHERE id = 1 AND entry = 1 IF amount = 10;',
        'BEGIN BATCH',
        '  UPDATE accounts SET amount = 30 WHERE id = 1 AND entry = 1 IF amount = 20;',
        '  INSERT INTO accounts (id, entry, amount) VALUES (1, 2, 5) IF NOT EXISTS;',
        'APPLY BATCH;',
        'SELECT entry, amount FROM accounts WHERE id = 1;',
      ].join('\n');
      await runScript(page, script);
      const tables = await page.$$eval(`${byTestId('cql-result')}[data-kind="rows"]`, (items) => items.map((li) => ({
        verb: li.dataset.verb,
        columns: [...li.querySelectorAll('thead th[data-column]')].map((th) => th.dataset.column),
        rows: [...li.querySelectorAll('[data-testid="cql-row"]')].map((tr) =>
          [...tr.children].slice(0, li.querySelectorAll('thead th[data-column]').length).map((td) => td.textContent)),
      })));
      assert.deepEqual(tables.map((t) => t.verb), ['INSERT', 'INSERT', 'UPDATE', 'UPDATE', 'BATCH', 'SELECT']);
      assert.deepEqual(tables[0], {verb: 'INSERT', columns: ['[applied]'], rows: [['True']]});
      assert.deepEqual(tables[1].columns, ['[applied]', 'id', 'entry', 'amount']);
      assert.deepEqual(tables[1].rows, [['False', '1', '1', '10']]);
      assert.deepEqual(tables[2], {verb: 'UPDATE', columns: ['[applied]', 'amount'], rows: [['False', '10']]});
      assert.deepEqual(tables[3].rows, [['True']]);
      assert.deepEqual(tables[4].rows, [['True']]);
      assert.deepEqual(tables[5].rows, [['1', '30'], ['2', '5']]);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
