// Issue 40, friction 2 (examples, theme): /examples/ was a 404 and examples/embed.html was linked
// from nowhere; the element followed the OS colour scheme, with no theme attribute. The page's footer links /examples/, which lists the embedding page and every example's
// file (from examples/index.json and examples/cql/index.json), each link answering 200.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {TIMEOUT, byTestId, examplesDir, openPage, useBrowser} from './harness.mjs';

useBrowser();

describe('the examples index', () => {
  test('the footer links /examples/, which lists the embedding page and each example file', {timeout: TIMEOUT}, async () => {
    const {page, problems, close} = await openPage();
    try {
      await Promise.all([page.waitForNavigation(), page.click(byTestId('examples-link'))]);
      assert.match(page.url(), /\/examples\/$/);
      assert.equal(await page.title(), 'Partition Playground examples');
      const links = await page.$$eval('main a', (as) => as.map((a) => ({href: a.href, text: a.textContent})));
      const datasets = JSON.parse(readFileSync(join(examplesDir, 'index.json'), 'utf8'));
      const scripts = JSON.parse(readFileSync(join(examplesDir, 'cql', 'index.json'), 'utf8'));
      const expected = ['embed.html', ...datasets.map((e) => e.file), ...scripts.map((e) => `cql/${e.file}`)];
      for (const file of expected) {
        const link = links.find((l) => l.href === new URL(file, page.url()).href);
        assert.ok(link, `a link to ${file}`);
        const status = await page.evaluate(async (href) => { const r = await fetch(href); await r.arrayBuffer(); return r.status; }, link.href);
        assert.equal(status, 200, file);
      }
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  // Issue 40, friction 2 (theme): the element followed the OS colour scheme, not the host page's.
  test('the element takes the host page\'s scheme from theme="light" or "dark"', {timeout: TIMEOUT}, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const {page, problems, close} = await openPage({colorScheme});
      try {
        await page.setContent('<!doctype html><html lang="en"><head><script type="module" src="/partition-playground.js"></script></head><body>' +
          '<partition-playground id="auto" mode="cassandra"></partition-playground>' +
          '<partition-playground id="light" theme="light" mode="cassandra"></partition-playground>' +
          '<partition-playground id="dark" theme="dark" mode="cassandra"></partition-playground></body></html>');
        await page.waitForFunction(() => customElements.get('partition-playground'));
        const bg = (id) => page.$eval(`#${id}`, (el) => getComputedStyle(el).backgroundColor);
        const [white, dark] = ['rgb(255, 255, 255)', 'rgb(22, 25, 29)'];
        assert.equal(await bg('light'), white, `theme="light" on a ${colorScheme} system`);
        assert.equal(await bg('dark'), dark, `theme="dark" on a ${colorScheme} system`);
        assert.equal(await bg('auto'), colorScheme === 'dark' ? dark : white, 'no theme: the system\'s');
        assert.deepEqual(problems.filter((p) => !/off-origin|request failed/.test(p)), []);
      } finally {
        await close();
      }
    }
  });
});
