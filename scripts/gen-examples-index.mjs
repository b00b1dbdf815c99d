#!/usr/bin/env node
// Writes <site>/examples/index.html: the examples the page offers (datasets and CQL scripts, from
// examples/index.json and examples/cql/index.json) with their files, and the embedding page,
// so /examples/ is a page rather than a 404 (issue 40). Static HTML: no script.
//
//   node scripts/gen-examples-index.mjs --root build/site
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--root');
const root = at >= 0 ? args[at + 1] : 'build/site';
const dir = join(root, 'examples');

const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'})[c]);
const read = (file) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const item = (href, title, description) =>
  `    <li><a href="${escape(href)}">${escape(title)}</a>${description ? `<p>${escape(description)}</p>` : ''}</li>`;

const datasets = read('index.json').map((e) => item(e.file, e.title ?? e.id, e.description));
const scripts = read('cql/index.json').map((e) => item(`cql/${e.file}`, e.title ?? e.id, e.description));

const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>Partition Playground examples</title>
  <link rel="icon" href="../favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="embed.css">
</head>
<body>
<main>
  <h1>Partition Playground examples</h1>
  <p class="lede">The files behind the playground's example menus, to download or to read, and a page that embeds the
    <code>&lt;partition-playground&gt;</code> element the way a documentation page would.
    <a href="../">Back to the playground</a>.</p>
  <h2 id="embedding">Embedding</h2>
  <ul data-testid="examples-embedding">
${item('embed.html', 'Partition keys, live: an article with embedded playgrounds', 'Every attribute of the element at work; view its source for the snippets.')}
  </ul>
  <h2 id="datasets">Datasets (Cosmos DB mode)</h2>
  <ul data-testid="examples-datasets">
${datasets.join('\n')}
  </ul>
  <h2 id="cql">CQL scripts (Cassandra mode)</h2>
  <ul data-testid="examples-cql">
${scripts.join('\n')}
  </ul>
</main>
</body>
</html>
`;
writeFileSync(join(dir, 'index.html'), html);
