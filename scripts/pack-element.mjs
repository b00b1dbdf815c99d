#!/usr/bin/env node
// The <partition-playground> element as an npm package, from the site `make site` assembled:
//
//   node scripts/pack-element.mjs [--root build/site] [--out build/element-package]
//                                 [--no-examples] [--pack DIR]
//
// Writes --out (emptied first): package.json (partition-playground-element, the root
// package.json's version, "files": ["dist"]), README.md, and dist/ with exactly the files the
// element loads, in the site's layout, so every URL the element resolves from its own module
// (import.meta.url: the worker, the engine's .mjs and .wasm, D3, the chart styles, the examples)
// is found the same way under any path, e.g. /npm/partition-playground-element@0.1.0/dist/.
// With --pack DIR it then runs `npm pack` there and prints the tarball's path; docs/embedding.md
// "As a package", tests/e2e/pack.test.mjs.
//
// The set is read, not listed: the module graph from the element and its worker (static and
// dynamic imports, `new URL('x', import.meta.url)`), each .js/.mjs/.css with its source map. Only
// what the graph cannot show is named below (ASSETS, ENGINE_BUILDS, the examples' index files),
// each with the file that loads it, and the script fails when that file no longer names it.
import {execFileSync} from 'node:child_process';
import {copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {dirname, join, posix, relative, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let root = join(repo, 'build', 'site');
let out = join(repo, 'build', 'element-package');
let examples = true;
let packTo = null;
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--root') root = resolve(process.argv[++i]);
  else if (arg === '--out') out = resolve(process.argv[++i]);
  else if (arg === '--no-examples') examples = false;
  else if (arg === '--pack') packTo = resolve(process.argv[++i]);
  else {
    console.error(`pack-element.mjs: unknown argument ${arg}`);
    process.exit(2);
  }
}

const fail = (message) => {
  console.error(`pack-element.mjs: ${message}`);
  process.exit(1);
};

if (!existsSync(join(root, 'partition-playground.js'))) fail(`${root}/partition-playground.js is missing: run \`make site\` first`);
if ([repo, root, dirname(root)].includes(out) || root.startsWith(out + sep)) fail(`--out ${out} would remove the sources`);

const PACKAGE_NAME = 'partition-playground-element';
const ENTRY = 'partition-playground.js';

/** The modules the graph starts from, site-relative, with the file that starts each. */
const ROOTS = [
  {path: ENTRY, by: null},
  // PlaygroundClient's workerUrl: new URL(`./worker/worker.js?domain=...&size=small`, BASE).
  {path: 'worker/worker.js', by: ENTRY, names: './worker/worker.js'},
];

/** Files the element fetches by a URL the module graph does not show: {path, by, names}. */
const ASSETS = [
  {path: 'vendor/d3.min.js', by: 'embed/chart-kit.js', names: 'vendor/d3.min.js'},
  {path: 'charts.css', by: 'embed/chart-kit.js', names: 'charts.css'},
];

// engine/partplay-api.mjs imports each build on demand; the element's worker asks for size=small
// (worker/engines.js configureEngines: 'cosmos', 'cql-element', 'sizing') and, in a browser
// without wasm SIMD, 'nosimd'. The page's builds (partplay, -cosmos-fast, -cql) are left out.
const ENGINE_API = 'engine/partplay-api.mjs';
const ENGINE_BUILDS = ['partplay-cosmos.mjs', 'partplay-cql-element.mjs', 'partplay-sizing.mjs', 'partplay-nosimd.mjs'];

// The example= attribute's files: each index relative to the element's module, and the files
// its entries name (partition-playground.js exampleIndex and the fetches beside it).
const EXAMPLE_INDEXES = [
  {path: 'examples/index.json', dir: 'examples', by: ENTRY},
  {path: 'examples/cql/index.json', dir: 'examples/cql', by: ENTRY},
  {path: 'examples/cql/sizing.json', dir: 'examples/cql', by: ENTRY},
];

const siteText = (path) => readFileSync(join(root, path), 'utf8');

/** Checks that `by` (a site file) still names `names`. */
function expectNamed({path, by, names}) {
  if (by && !siteText(by).includes(names ?? path)) fail(`${by} no longer names ${names ?? path}: update pack-element.mjs`);
}

/** The relative specifiers a module names: imports, re-exports, import(), new URL(x, import.meta.url). */
function specifiers(text) {
  const found = new Set();
  const patterns = [
    /\b(?:from|import)\s*\(?\s*(["'])(\.{1,2}\/[^"'`\s]+)\1/g,
    /\bnew\s+URL\(\s*(["'])(\.{0,2}\/?[^"'`\s]+)\1\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const pattern of patterns) {
    // A folder (new URL('./', import.meta.url), the base the others resolve from) is no file.
    for (const m of text.matchAll(pattern)) if (!m[2].endsWith('/')) found.add(m[2].replace(/[?#].*$/, ''));
  }
  return [...found];
}

const files = new Set();
const queue = [];
const add = (path) => {
  if (files.has(path)) return;
  if (!existsSync(join(root, path)) || !statSync(join(root, path)).isFile()) fail(`${path} (named in the element's graph) is not in ${root}`);
  files.add(path);
  if (/\.(m?js)$/.test(path)) queue.push(path);
};

for (const r of ROOTS) {
  expectNamed(r);
  add(r.path);
}
while (queue.length) {
  const module = queue.shift();
  for (const spec of specifiers(siteText(module))) {
    const target = posix.normalize(posix.join(posix.dirname(module), spec));
    if (module === ENGINE_API && /^engine\/partplay[^/]*\.mjs$/.test(target) && !ENGINE_BUILDS.includes(posix.basename(target))) continue;
    add(target);
  }
}
for (const build of ENGINE_BUILDS) {
  if (!files.has(`engine/${build}`)) fail(`${ENGINE_API} no longer imports ${build}: update pack-element.mjs`);
}
for (const asset of ASSETS) {
  expectNamed(asset);
  add(asset.path);
}
if (examples) {
  for (const index of EXAMPLE_INDEXES) {
    expectNamed(index);
    add(index.path);
    for (const entry of JSON.parse(siteText(index.path))) add(posix.join(index.dir, entry.file));
  }
}
// Each module's and stylesheet's source map (the minified files name theirs).
for (const path of [...files]) {
  if (/\.(m?js|css)$/.test(path) && existsSync(join(root, `${path}.map`))) files.add(`${path}.map`);
}

// ---------------------------------------------------------------------------------------------
// The package.

const rootPackage = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const version = rootPackage.version;
const main = `dist/${ENTRY}`;
const manifest = {
  name: PACKAGE_NAME,
  version,
  description: `<partition-playground>: ${rootPackage.description} The custom element, its workers and its ` +
    'WebAssembly engine, loaded relative to the module.',
  type: 'module',
  main,
  module: main,
  browser: main,
  exports: {'.': `./${main}`, './dist/*': './dist/*', './package.json': './package.json'},
  files: ['dist'],
  sideEffects: true,
  keywords: ['custom-element', 'web-component', 'cosmos-db', 'cassandra', 'partition-key', 'webassembly'],
};

const readme = `# ${PACKAGE_NAME} ${version}

\`<partition-playground>\`, the custom element of Partition Playground: a live view of how data
partitions in Azure Cosmos DB and Apache Cassandra, for documentation pages. Each element runs
its own WebAssembly engine in a Web Worker, started when it scrolls into view.

\`dist/\` is the element with everything it loads, in the layout it expects: its worker and the
engine's modules and \`.wasm\` files are found relative to \`dist/partition-playground.js\`, so
the package works from any path, such as a CDN's \`/npm/${PACKAGE_NAME}@${version}/dist/\`:

\`\`\`html
<script type="module" src="https://YOUR-CDN/npm/${PACKAGE_NAME}@${version}/dist/partition-playground.js"></script>
<partition-playground mode="cosmos" key="/userId">
  <script type="application/json">[{"id": "1", "userId": "a"}, {"id": "2", "userId": "b"}]</script>
</partition-playground>
\`\`\`

The host of the files must send \`Access-Control-Allow-Origin\` and serve \`.wasm\` as
\`application/wasm\`. The attributes, the examples (\`example="orders"\`), theming and hosting are
in the project's docs/embedding.md.
`;

rmSync(out, {recursive: true, force: true});
mkdirSync(join(out, 'dist'), {recursive: true});
let bytes = 0;
for (const path of [...files].sort()) {
  const to = join(out, 'dist', ...path.split('/'));
  mkdirSync(dirname(to), {recursive: true});
  copyFileSync(join(root, path), to);
  bytes += statSync(to).size;
}
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(join(out, 'README.md'), readme);
console.log(`${PACKAGE_NAME}@${version}: ${relative(process.cwd(), out) || '.'} ` +
            `(${files.size} files in dist/, ${(bytes / 1024 / 1024).toFixed(1)} MiB)`);

if (packTo) {
  mkdirSync(packTo, {recursive: true});
  const result = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packTo], {
    cwd: out, encoding: 'utf8', env: {...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false'},
  }));
  const {filename, size, unpackedSize, entryCount} = result[0];
  console.log(`${join(packTo, filename)} (${entryCount} entries, ${(size / 1024 / 1024).toFixed(2)} MiB packed, ` +
              `${(unpackedSize / 1024 / 1024).toFixed(1)} MiB unpacked)`);
}
