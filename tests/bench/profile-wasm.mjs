#!/usr/bin/env node
// Where the wasm engine's time goes: one wasm run of the benchmark page under Chromium's sampling
// profiler (CDP), self time per function, largest first. Function names need a build linked with
// --profiling-funcs, outside the tree, e.g.
//
//   NODE_PATH=/usr/share/nodejs emcmake cmake -S . -B /tmp/wasm-prof -DCMAKE_BUILD_TYPE=Release \
//       -DBUILD_TESTING=OFF -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs
//   cmake --build /tmp/wasm-prof
//   mkdir -p /tmp/prof-site/engine /tmp/prof-site/common && cp wasm/partplay-api.mjs \
//       /tmp/wasm-prof/partplay.{mjs,wasm} /tmp/prof-site/engine/ && cp web/common/errors.js /tmp/prof-site/common/
//   node tests/bench/profile-wasm.mjs --site /tmp/prof-site [--items N] [--discover N] [--top N]
//
// Not part of `make bench`; a diagnostic only.
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {DEFAULT_DIR, ensureNdjson} from './gen-ndjson.mjs';
import {openBenchPage, startBenchServer} from './bench-common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = {site: join(here, '..', '..', 'build', 'site'), items: 1_000_000, discover: 10000, top: 30};
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--site') opt.site = resolve(args[++i]);
  else if (a === '--items') opt.items = Number(args[++i]);
  else if (a === '--discover') opt.discover = Number(args[++i]);
  else if (a === '--top') opt.top = Number(args[++i]);
  else throw new Error(`unknown argument ${a}`);
}

const data = await ensureNdjson({items: opt.items, log: (m) => console.log(m)});
const {server, url} = await startBenchServer({site: opt.site, bench: here,
                                              data: DEFAULT_DIR});
const {browser, page} = await openBenchPage(url);
try {
  await page.evaluate((u) => window.bench.load(u),
                      `${url}/data/${encodeURIComponent(data.file.slice(DEFAULT_DIR.length + 1))}`);
  const o = {keyPaths: ['/userId'], discoverItems: opt.discover};
  const warm = await page.evaluate((x) => window.bench.wasm(x), o);  // tiers up the wasm code
  console.log(`warm-up run: ${warm.ms.toFixed(0)} ms`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', {interval: 200});
  await cdp.send('Profiler.start');
  const run = await page.evaluate((x) => window.bench.wasm(x), o);
  const {profile} = await cdp.send('Profiler.stop');
  console.log(`profiled run: ${run.ms.toFixed(0)} ms (feed ${run.feed_ms.toFixed(0)}, finish ` +
              `${run.finish_ms.toFixed(0)}), ${(data.file_bytes / 1e3 / run.ms).toFixed(1)} MB/s`);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const f = node.callFrame;
    const name = f.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)') continue;
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, opt.top);
  console.log(`self time, ${(total / 1000).toFixed(0)} ms sampled:`);
  for (const [name, us] of rows) {
    console.log(`${(100 * us / total).toFixed(1).padStart(6)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ` +
                `${name.length > 150 ? name.slice(0, 147) + '...' : name}`);
  }
} finally {
  await browser.close();
  server.close();
}
