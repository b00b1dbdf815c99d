// scripts/lint-web-rules.mjs, the lint of `make test` that keeps the engine's rules out of web/:
// it passes on the files of the tree it was cleaned on, and fails when a quota, a threshold, a
// default or a byte-size constant is written into one of them (a copy of the file in a temporary
// tree, so the tree itself is never touched).
//
//   node --test tests/cli/lint-web-rules.test.mjs
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {codeOnly, engineTable, lintFiles, webFiles} from '../../scripts/lint-web-rules.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(repo, 'scripts', 'lint-web-rules.mjs');
// The Cosmos DB view, the page shell, the shared modules and the element: the files cleaned with
// the lint (web/cassandra, web/sizing and web/worker are cleaned by their own changes).
const CLEAN = webFiles().filter((f) => /^web\/(cosmos|common|embed)\/|^web\/(app|partition-playground)\.js$|^web\/index\.html$/.test(f));

/** A temporary copy of the repository's web/ and engine tables, with `edits` {file: text to append}. */
function treeWith(edits) {
  const root = mkdtempSync(join(tmpdir(), 'lint-web-rules-'));
  cpSync(join(repo, 'web'), join(root, 'web'), {recursive: true});
  for (const f of ['engine/src/core/limits.cpp', 'engine/include/partplay/core/limits.h', 'engine/include/partplay/core/defaults.h']) {
    cpSync(join(repo, f), join(root, f), {recursive: true});
  }
  for (const [file, text] of Object.entries(edits)) writeFileSync(join(root, file), readFileSync(join(root, file), 'utf8') + text);
  return root;
}

test('the engine table is read from the C++ sources', () => {
  const rows = engineTable();
  const value = (id) => rows.find((r) => r.id === id)?.value;
  assert.equal(value('cosmos_logical_partition_bytes'), 20 * 1073741824);
  assert.equal(value('cosmos_default_ru_per_second'), 400);
  assert.equal(value('storage_balance_warn'), 1.5);
  assert.equal(rows.find((r) => r.id === 'spread_even_max_gini')?.kind, 'threshold');
});

test('comments and string text are not code; template expressions are', () => {
  const code = codeOnly("const a = 'x > 0.6'; // gini >= 0.6\nconst b = `${g >= 0.6}` + /0.6/.source;");
  assert.ok(!code.includes("'x > 0.6'") && !code.includes('// gini'));
  assert.match(code, /g >= 0\.6/);
  assert.doesNotMatch(code, /\/0\.6\//);
});

test('the cleaned files pass', () => {
  assert.deepEqual(lintFiles(CLEAN), []);
  const run = spawnSync(process.execPath, [script, ...CLEAN], {cwd: repo, encoding: 'utf8'});
  assert.equal(run.status, 0, run.stderr);
});

for (const [what, line, rule] of [
  ['a quota', 'export const LIMIT = 20 * 2 ** 30;\n', 'size'],
  ['a threshold in a comparison', 'export const skewed = (gini) => gini >= 0.6;\n', 'compare'],
  ['a threshold of the table', 'export const BALANCE = 1.5;\n', 'table'],
  ['a default given by name', 'export const options = {ru_per_second: 400};\n', 'option'],
  ['a default given to an option', 'export const more = {top_per_range: 20};\n', 'option'],
]) {
  test(`it fails on ${what} added to a view`, () => {
    const root = treeWith({'web/cosmos/cosmos-view.js': line});
    try {
      const problems = lintFiles(['web/cosmos/cosmos-view.js'], {root});
      assert.ok(problems.some((p) => p.rule === rule), JSON.stringify(problems));
      const run = spawnSync(process.execPath, [script, join(root, 'web/cosmos/cosmos-view.js')], {cwd: root, encoding: 'utf8'});
      assert.equal(run.status, 1);
      assert.match(run.stderr, new RegExp(`\\[${rule}\\]`));
    } finally {
      rmSync(root, {recursive: true, force: true});
    }
  });
}

test('a quota in the page\'s markup fails, and a reasoned lint-ok passes', () => {
  const root = treeWith({
    'web/index.html': '<input type="number" value="400">\n',
    'web/common/format.js': 'export const PAD = 1.5;  // lint-ok: chart padding\n',
  });
  try {
    const problems = lintFiles(['web/index.html', 'web/common/format.js'], {root});
    assert.deepEqual(problems.map((p) => [p.file, p.rule]), [['web/index.html', 'table']]);
  } finally {
    rmSync(root, {recursive: true, force: true});
  }
});
