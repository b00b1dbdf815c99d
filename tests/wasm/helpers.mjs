// Shared by the wasm tests: loads the built module (build/site/engine) the way Node can — with
// the wasm bytes handed over, since Debian's Emscripten 3.1.6 output cannot fetch a file: URL —
// and runs the native CLI.
import {execFileSync, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'build/native/partplay');
const ENGINE_DIR = path.join(ROOT, 'build/site/engine');

/** The module with every domain, or with `domain` ('cosmos' | 'cql' | 'sizing'): the page's. */
export async function loadEngine(domain = 'all') {
  const api = await import(pathToFileURL(path.join(ENGINE_DIR, 'partplay-api.mjs')).href);
  const file = domain === 'all' ? 'partplay.wasm' : `partplay-${domain}.wasm`;
  const engine = await api.createEngine({wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, file))}, {domain});
  return {api, engine};
}

/** Runs `partplay analyze --format json`; returns {status, report, error}. */
export function cliAnalyze(file, keyPaths, extra = []) {
  const args = ['analyze', '--format', 'json', ...keyPaths.flatMap((k) => ['--key', k]), ...extra, file];
  const r = spawnSync(CLI, args, {encoding: 'utf8', maxBuffer: 1 << 28});
  return {
    status: r.status,
    report: r.status === 0 ? JSON.parse(r.stdout) : null,
    error: r.status !== 0 && r.stderr.startsWith('{') ? JSON.parse(r.stderr).error : null,
    stderr: r.stderr,
  };
}

export function cliErrorCodes() {
  return JSON.parse(execFileSync(CLI, ['error-codes'], {encoding: 'utf8'}));
}

/**
 * The Cosmos DB examples the wasm module reads as they are: a gzipped one (cosmos-export.json.gz)
 * is decompressed by the page's worker and the CLI, not by the module; gzip-input.test.mjs
 * covers it.
 */
export function examples() {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/index.json'), 'utf8')).filter((e) => !e.file.endsWith('.gz'));
}

/**
 * Every CQL example (examples/cql/index.json) run in a fresh session of `engine` on a fixed
 * 5-node ring: [{id, results, keyspaces, ring, layout}] (layout: the last table's, 4,000
 * partitions at 40,000 RU/s), to compare two modules.
 */
export function cqlExampleOutcomes(engine) {
  const dir = path.join(ROOT, 'examples', 'cql');
  return JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).map((e) => {
    const session = engine.createCqlSession();
    try {
      session.configureRing({nodes: 5, num_tokens: 8, random_tokens: false, seed: 1});
      const {results} = session.execute(fs.readFileSync(path.join(dir, e.file), 'utf8'));
      const keyspaces = session.keyspaces();
      const table = results.map((r) => r.table).filter(Boolean).at(-1);
      return {id: e.id, results, keyspaces, ring: session.ring(keyspaces[0]?.name ?? ''),
              layout: table ? session.tableLayout(table, {scan_partitions: 50000, max_partitions: 4000, ru_per_second: 40000})
                : null};
    } finally {
      session.dispose();
    }
  });
}
