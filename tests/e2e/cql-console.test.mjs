// End-to-end: cqlsh's own commands in the page's CQL console, in Debian's Chromium against
// build/site. CONSISTENCY, TRACING and PAGING reply as cqlsh does; with TRACING ON a write shows
// the replicas it went to (the replicas npm cassandra-driver's token map gives for the token) and
// a scan shows every node; a level needing more replicas than the ring holds is Cassandra's
// Unavailable error; PAGING OFF lets IN with ORDER BY run, sorted across partitions, and a result
// longer than a page says how many requests a paging client makes. A TTL expires when ADVANCE
// CLOCK moves the session's clock past it, and WRITETIME reads a cell's timestamp.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {driverToken, encode} from '../oracles/cassandra.mjs';
import {TIMEOUT, byTestId, examplesDir, openCassandra, resultsDir, runScript, useBrowser} from './harness.mjs';

useBrowser();

/** Each result's kind, verb, shell reply, error, first-column cells, trace and paging note. */
async function results(page) {
  return page.$$eval(byTestId('cql-result'), (items) => items.map((li) => {
    const trace = li.querySelector('[data-testid="cql-trace"]');
    return {
      kind: li.dataset.kind, verb: li.dataset.verb,
      shell: li.querySelector('[data-testid="cql-shell"]')?.textContent ?? null,
      error: li.querySelector('[data-testid="cql-error-message"]')?.textContent ?? null,
      rows: [...li.querySelectorAll('[data-testid="cql-row"]')].map((tr) => tr.children[0].textContent),
      pages: li.querySelector('[data-testid="cql-pages"]')?.textContent ?? null,
      trace: trace ? {
        consistency: trace.dataset.consistency, scan: trace.dataset.scan === 'true',
        head: trace.querySelector('.cql-trace-head').textContent,
        steps: [...trace.querySelectorAll('[data-testid="cql-trace-step"]')].map((s) => ({
          text: s.textContent, replicas: JSON.parse(s.dataset.replicas)})),
      } : null,
    };
  }));
}

describe('cqlsh commands in the CQL console', () => {
  test('CONSISTENCY, TRACING and PAGING: replies, traced replicas, Unavailable, unpaged ORDER BY',
       {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({viewport: {width: 1366, height: 768}});
    try {
      const script = [
        "CREATE KEYSPACE IF NOT EXISTS shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
        'USE shop;',
        'DROP TABLE IF EXISTS carts;',
        'CREATE TABLE carts (user int, item int, qty int, PRIMARY KEY (user, item));',
        'CONSISTENCY QUORUM',
        'TRACING ON',
        'INSERT INTO carts (user, item, qty) VALUES (7, 1, 2);',
        'SELECT * FROM carts;',
        'TRACING OFF',
        'CONSISTENCY ALL',
        ...Array.from({length: 6}, (_, i) => `INSERT INTO carts (user, item, qty) VALUES (${i % 2 ? 8 : 9}, ${10 + i}, 1);`),
        'CONSISTENCY ONE',
        'SELECT item FROM carts WHERE user IN (8, 9) ORDER BY item DESC;',
        'PAGING OFF',
        'SELECT item FROM carts WHERE user IN (8, 9) ORDER BY item DESC;',
        'PAGING 3',
        'SELECT item FROM carts;',
      ].join('\n');
      await runScript(page, script);
      const all = await results(page);
      const shells = all.filter((r) => r.kind === 'shell').map((r) => r.shell);
      assert.deepEqual(shells, ['Consistency level set to QUORUM.', 'Now Tracing is enabled', 'Disabled Tracing.',
                                'Consistency level set to ALL.', 'Consistency level set to ONE.',
                                'Disabled Query paging.', 'Page size: 3']);

      // The write went to the partition's three replicas (the driver's token), two had to answer.
      const insert = all.find((r) => r.verb === 'INSERT' && r.trace);
      assert.equal(insert.trace.consistency, 'QUORUM');
      assert.equal(insert.trace.steps.length, 1);
      assert.match(insert.trace.steps[0].text, new RegExp(`^writes token ${driverToken(encode(7, 'int'))}: .+ \\(2 must answer\\)$`));
      assert.equal(insert.trace.steps[0].replicas.length, 3);
      const scan = all.find((r) => r.kind === 'rows' && r.trace);
      assert.equal(scan.trace.scan, true);
      assert.deepEqual(scan.trace.steps[0].replicas, [0, 1, 2], 'a scan reads from every node');

      // RF 3 on the page's ring of three nodes: ALL finds its three replicas.
      const all3 = all.filter((r) => r.verb === 'INSERT' && !r.trace);
      assert.ok(all3.every((r) => r.kind !== 'error'), JSON.stringify(all3));

      const [paged, unpaged, pagedBy3] = all.filter((r) => r.verb === 'SELECT' && !r.trace);
      assert.match(paged.error, /^Cannot page queries with both ORDER BY and a IN restriction on the partition key/);
      assert.deepEqual(unpaged.rows, ['15', '14', '13', '12', '11', '10']);
      assert.equal(pagedBy3.pages, 'A paging client (cqlsh, the drivers) fetches these 7 rows in 3 requests of up to 3 (PAGING sets the page size).');

      // A level the ring cannot meet: RF 5 on three nodes, and ALL asks for five.
      await runScript(page, [
        "CREATE KEYSPACE IF NOT EXISTS wide WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 5};",
        'CREATE TABLE IF NOT EXISTS wide.t (k int PRIMARY KEY);',
        'CONSISTENCY ALL',
        'INSERT INTO wide.t (k) VALUES (1);',
        'CONSISTENCY MOST',
      ].join('\n'));
      const after = await results(page);
      const unavailable = after.find((r) => r.verb === 'INSERT');
      assert.equal(unavailable.kind, 'error');
      assert.equal(unavailable.error, 'Cannot achieve consistency level ALL');
      assert.equal(after.at(-1).error, 'Improper CONSISTENCY command.');

      mkdirSync(resultsDir, {recursive: true});
      await runScript(page, script);
      await page.locator(byTestId('cql-trace')).first().scrollIntoViewIfNeeded();
      await page.screenshot({path: join(resultsDir, 'cql-console-trace.png')});
      await page.setViewportSize({width: 390, height: 844});
      await page.locator(byTestId('cql-trace')).first().scrollIntoViewIfNeeded();
      await page.screenshot({path: join(resultsDir, 'cql-console-trace-narrow.png')});
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // Issue 40, friction 10: at 390 px a result table showed one character per line; a value without
  // spaces now keeps one line and the table scrolls inside its card, not the page.
  test('at 390 px a result table keeps each value on a line and scrolls in its card', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({viewport: {width: 390, height: 844}});
    try {
      await runScript(page, [
        "CREATE KEYSPACE IF NOT EXISTS shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
        'CREATE TABLE IF NOT EXISTS shop.devices (owner uuid, id timeuuid, model text, PRIMARY KEY (owner, id));',
        "INSERT INTO shop.devices (owner, id, model) VALUES (5132b130-ae79-11e4-ab27-0800200c9a66, now(), 'thermostat-9000');",
        'SELECT * FROM shop.devices;',
      ].join('\n'));
      const cells = await page.$$eval(`${byTestId('cql-result')}[data-kind="rows"] tbody td`, (tds) => tds.map((td) => {
        const style = getComputedStyle(td);
        const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
        const range = document.createRange();
        range.selectNodeContents(td);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return {text: td.textContent, lines, line};
      }));
      const single = cells.filter((c) => c.text && !/\s/.test(c.text));
      assert.ok(single.length >= 4, JSON.stringify(cells));
      for (const c of single) assert.equal(c.lines, 1, `${c.text} on ${c.lines} lines`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'the page does not scroll sideways');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // Issue 40, friction 9: the example selector kept its title after the script was replaced.
  test('typing over an example: the selector and its description stop naming it', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      const selected = () => page.$eval(byTestId('cql-example'), (s) => s.selectedOptions[0]?.textContent);
      assert.notEqual(await selected(), 'Your own script', 'the page opens on an example');
      assert.notEqual(await page.textContent(byTestId('cql-example-description')), '');
      await page.fill(byTestId('cql-editor'), 'SELECT * FROM system.local;');
      assert.equal(await selected(), 'Your own script');
      assert.equal(await page.textContent(byTestId('cql-example-description')), '');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // Issue 40, friction 9: the first example ran as the mode opened, so its keyspace existed before
  // the user ran anything (DESCRIBE, the ring and a script of their own all showed it).
  test('the session starts empty: the example waits in the editor until Run', {timeout: 2 * TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra({run: false});
    try {
      const example = readFileSync(join(examplesDir, 'cql', 'uprofile-compound-key.cql'), 'utf8');
      assert.equal(await page.inputValue(byTestId('cql-editor')), example, 'the example is in the editor');
      assert.equal(await page.$$eval(byTestId('cql-result'), (items) => items.length), 0, 'no result before Run');
      assert.match(await page.textContent(byTestId('cql-status')), /not run yet/i);
      assert.match(await page.textContent(byTestId('replication')), /No keyspace yet/);
      assert.deepEqual(await page.$$eval(`${byTestId('cql-table')} option`, (os) => os.map((o) => o.value)), [''],
                       'no table to draw');

      // The user's own first statements see an empty cluster.
      await runScript(page, 'DESCRIBE KEYSPACES;\nSELECT * FROM uprofile.user;');
      const before = await results(page);
      assert.equal(before.length, 2);
      const keyspaces = await page.textContent(`${byTestId('cql-result')} ${byTestId('cql-describe')}`);
      assert.equal(before[0].kind, 'describe');
      assert.doesNotMatch(keyspaces, /uprofile/, 'the example\'s keyspace does not exist');
      assert.equal(before[1].kind, 'error');
      assert.match(before[1].error, /uprofile/);

      // Once the example runs, its keyspace and table exist.
      await runScript(page, example);
      await runScript(page, 'DESCRIBE KEYSPACES;\nSELECT user FROM uprofile.user;');
      const after = await results(page);
      assert.match(await page.textContent(`${byTestId('cql-result')} ${byTestId('cql-describe')}`), /uprofile/);
      assert.equal(after[1].kind, 'rows');
      assert.deepEqual(after[1].rows.length, 4);
      assert.match(await page.textContent(byTestId('replication')), /Keyspace uprofile/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // Issue 40, friction 9: a statement refused as it is read was shown as "(does not parse)".
  test('a statement refused as it is read shows its text and verb', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      await runScript(page, "ALTER MATERIALIZED VIEW v WITH comment = 'x';\nSELEC * FROM t;");
      const heads = await page.$$eval(byTestId('cql-result'), (items) => items.map((li) => ({
        verb: li.querySelector('.badge.verb').textContent, text: li.querySelector('.stmt-text').textContent})));
      assert.deepEqual(heads, [{verb: 'ALTER', text: "ALTER MATERIALIZED VIEW v WITH comment = 'x'"},
                               {verb: 'ERROR', text: 'SELEC * FROM t'}]);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  test('TTL, WRITETIME and ADVANCE CLOCK: a cell expires when the clock passes its TTL; the partition counts it',
       {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openCassandra();
    try {
      await runScript(page, [
        "CREATE KEYSPACE IF NOT EXISTS shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};",
        'USE shop;',
        'DROP TABLE IF EXISTS sessions;',
        'CREATE TABLE sessions (user int, id int, secret text, PRIMARY KEY (user, id));',
        "INSERT INTO sessions (user, id, secret) VALUES (1, 1, 'a') USING TTL 3600;",
        "INSERT INTO sessions (user, id, secret) VALUES (1, 2, 'b') USING TIMESTAMP 1000;",
        'SELECT id, TTL(secret), WRITETIME(secret) FROM sessions WHERE user = 1;',
        'ADVANCE CLOCK 2h',
        'SELECT id FROM sessions WHERE user = 1;',
      ].join('\n'));
      const all = await results(page);
      const [before, after] = all.filter((r) => r.kind === 'rows');
      const cells = await page.$$eval(`${byTestId('cql-result')}[data-kind="rows"]`, (items) =>
        [...items[0].querySelectorAll('[data-testid="cql-row"]')].map((tr) => [...tr.children].slice(0, 3).map((td) => td.textContent)));
      assert.deepEqual(cells, [['1', '3600', cells[0][2]], ['2', 'null', '1000']]);
      assert.ok(Number(cells[0][2]) > 1e15, 'the write clock counts microseconds');
      assert.equal(before.rows.length, 2);
      assert.match(all.find((r) => r.verb === 'ADVANCE').shell, /^Clock advanced by 2h to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z\.$/);
      assert.deepEqual(after.rows, ['2']);
      const headers = await page.$$eval(`${byTestId('ring-partitions-table')} th`, (ths) => ths.map((th) => th.textContent));
      assert.ok(headers.includes('tombstones'), headers.join(', '));
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
