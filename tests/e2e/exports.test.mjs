// Issue 40, "where the data cannot travel, offer an export": the report as Markdown, its logical
// partitions and findings as CSV and Markdown, the comparison's table as CSV and Markdown, each
// chart as a standalone SVG and a PNG. Each file is read back and checked against the page and
// against the partitions computed here from the example's items.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {TIMEOUT, analysisAfter, byTestId, exampleText, openPage, partitionsBySize, useBrowser} from './harness.mjs';

useBrowser();

async function downloaded(page, testid, nth = 0) {
  const [file] = await Promise.all([page.waitForEvent('download', {timeout: TIMEOUT}),
                                    page.locator(byTestId(testid)).nth(nth).click()]);
  return {name: file.suggestedFilename(), bytes: readFileSync(await file.path())};
}

/** RFC 4180 CSV into rows of fields. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field); rows.push(row); row = []; field = ''; i++;
    } else field += c;
  }
  return rows;
}

describe('exports', () => {
  test('the report, its partitions and findings, the comparison and every chart as files', {timeout: 3 * TIMEOUT}, async () => {
    const {page, problems, close} = await openPage({viewport: {width: 1366, height: 768}});
    try {
      assert.equal(await analysisAfter(page, () => page.selectOption(byTestId('example-select'), 'food')), 'ready');
      const expected = partitionsBySize(exampleText('food.json'), ['/foodGroup']);

      // The report as Markdown: the sections, figures and tables on screen.
      const md = await downloaded(page, 'export-report-md');
      assert.match(md.name, /^food-json-key-foodgroup\.md$/);
      const report = md.bytes.toString('utf8');
      assert.match(report, /^# Partition Playground: food\.json, key \/foodGroup\n/);
      const items = await page.textContent(byTestId('summary-items'));
      assert.match(report, new RegExp(`- items: \\*\\*${items.replace(/[.,]/g, '\\$&')}\\*\\*`));
      for (const h of ['3 · Summary', '4 · Findings: quotas and rules', '6 · Logical partitions, largest first',
                       '7 · Container: physical partitions']) {
        assert.ok(report.includes(`## ${h}\n`), h);
      }
      assert.match(report, new RegExp(`\\| 1 \\| "${expected[0].key[0]}" \\|`), 'the largest partition in its table');

      // The logical partitions as CSV: every partition of the report, the engine's numbers.
      const csv = parseCsv((await downloaded(page, 'export-partitions-csv')).bytes.toString('utf8'));
      assert.deepEqual(csv[0], ['rank', 'key (JSON)', 'items', 'bytes', 'largest item bytes', 'largest item index', 'EPK']);
      assert.equal(csv.length - 1, expected.length);
      expected.forEach((p, i) => {
        assert.equal(csv[i + 1][1], JSON.stringify(p.key), `row ${i + 1}`);
        assert.equal(Number(csv[i + 1][2]), p.items);
        assert.equal(Number(csv[i + 1][3]), p.bytes);
      });

      // The findings as CSV and Markdown: the codes the page lists.
      const codes = await page.$$eval(byTestId('finding'), (fs) => fs.map((f) => f.dataset.code));
      assert.ok(codes.length > 0);
      const findings = parseCsv((await downloaded(page, 'export-findings-csv')).bytes.toString('utf8'));
      assert.equal(findings[0][1], 'code');
      assert.deepEqual([...new Set(findings.slice(1).map((r) => r[1]))].sort(), [...new Set(codes)].sort());
      const findingsMd = (await downloaded(page, 'export-findings-md')).bytes.toString('utf8');
      for (const code of codes) assert.ok(findingsMd.includes(`| ${code} |`), code);

      // A chart as SVG: standalone (namespace, its styles), the same columns as on screen; and as PNG.
      const columns = await page.locator(`${byTestId('partition-map')} g.column`).count();
      const mapExports = page.locator(`${byTestId('partition-map')} + .chart-export`);
      assert.equal(await mapExports.count(), 1, 'the map has its downloads');
      const [svgFile] = await Promise.all([page.waitForEvent('download'), mapExports.locator(byTestId('export-svg')).click()]);
      const svg = readFileSync(await svgFile.path(), 'utf8');
      assert.match(svgFile.suggestedFilename(), /\.svg$/);
      assert.match(svg, /^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(svg, /<style>[^<]*\.chart/);
      assert.match(svg, /--[\w-]+: (#|rgb)/, 'its colours resolved');
      assert.equal((svg.match(/class="column[ "]/g) ?? []).length, columns);
      const width = await page.$eval(`${byTestId('partition-map')} svg`, (s) => Math.round(s.getBoundingClientRect().width));
      const [pngFile] = await Promise.all([page.waitForEvent('download'), mapExports.locator(byTestId('export-png')).click()]);
      const png = readFileSync(await pngFile.path());
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(png.readUInt32BE(16), 2 * width, 'twice the width on screen');
      // Every chart on show has its pair.
      const charts = await page.$$eval('.chart > svg', (ss) => ss.filter((s) => s.getClientRects().length).length);
      const bars = await page.$$eval('.chart-export', (bs) => bs.filter((b) => b.getClientRects().length).length);
      assert.equal(bars, charts);

      // The comparison's table: raw numbers in CSV, as shown in Markdown.
      for (const path of ['/foodGroup', '/id']) {
        await page.selectOption(byTestId('compare-kind'), 'path');
        await page.fill(byTestId('compare-paths'), path);
        await page.click(byTestId('compare-pin'));
      }
      await page.click(byTestId('compare-run'));
      await page.waitForFunction(() => document.querySelector('[data-testid="compare-root"]').dataset.state === 'ready', null, {timeout: TIMEOUT});
      const table = parseCsv((await downloaded(page, 'export-compare-csv')).bytes.toString('utf8'));
      const logical = table[0].indexOf('Logical partitions');
      const byKey = Object.fromEntries(table.slice(1).map((r) => [r[table[0].indexOf('Key')], Number(r[logical])]));
      assert.equal(byKey['/foodGroup'], expected.length);
      assert.equal(byKey['/id'], 400);
      const compareMd = (await downloaded(page, 'export-compare-md')).bytes.toString('utf8');
      assert.match(compareMd, /^# Key comparison\n\n.+\n\n\| Rank \| Key \|/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
