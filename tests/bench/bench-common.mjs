// The pieces every section of `make bench` shares (tests/bench/run-bench.mjs and
// many-partitions.mjs; profile-wasm.mjs uses the server and page): the paths, the figures'
// rounding, the failure type and the agreement check, the static server and the bench page.
import {createServer} from 'node:http';
import {createReadStream, statSync} from 'node:fs';
import {dirname, extname, join, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
export const BENCH_DIR = join(repo, 'tests/bench');
export const MIB = 1024 * 1024;

export const mbPerS = (bytes, seconds) => bytes / 1e6 / seconds;
export const round = (x, digits = 2) => (x == null || !Number.isFinite(x) ? x : Number(x.toFixed(digits)));
export const say = (line = '') => console.log(line);

export class BenchFailure extends Error {}

/** Compares named values; throws BenchFailure listing every mismatch. */
export function agree(what, checks) {
  const bad = checks.filter(([, a, b]) => a !== b);
  if (bad.length) {
    throw new BenchFailure(`${what} disagree:\n` +
      bad.map(([name, a, b]) => `  ${name}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`).join('\n'));
  }
}
// ---------------------------------------------------------------------------------------------
// A small static server: /site/ -> build/site, /bench/ -> tests/bench, /data/ -> bench-data.

const MIME = {'.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
              '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
              '.json': 'application/json', '.ndjson': 'application/x-ndjson',
              '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml'};

export async function startBenchServer(mounts) {
  const server = createServer((req, res) => {
    const fail = (status) => {
      res.writeHead(status, {'Content-Type': 'text/plain'});
      res.end(`${status}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405);
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return fail(400);
    }
    const [, mount, ...rest] = path.split('/');
    const root = mounts[mount];
    if (!root || rest.some((p) => p === '..' || p.includes('\0') || p.includes('\\'))) return fail(404);
    const file = join(root, ...rest);
    if (!file.startsWith(root + sep)) return fail(404);
    let info;
    try {
      info = statSync(file);
    } catch {
      return fail(404);
    }
    if (!info.isFile()) return fail(404);
    res.writeHead(200, {'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
                        'Content-Length': info.size, 'Cache-Control': 'no-store'});
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(file, {highWaterMark: 1 << 20});
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  return {server, url: `http://127.0.0.1:${server.address().port}`};
}

/** Launches Chromium and opens the bench page; resolves to {browser, page, close()}. */
export async function openBenchPage(baseUrl) {
  const {chromium} = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error(`  [page] ${m.text()}`);
  });
  page.on('crash', () => errors.push(new Error('the page crashed')));
  await page.goto(`${baseUrl}/bench/bench-page.html`);
  await page.waitForFunction(() => window.bench !== undefined);
  if (errors.length) throw errors[0];
  await page.evaluate(() => window.bench.init());
  return {browser, page, version: browser.version()};
}
