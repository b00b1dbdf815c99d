// scripts/lint-throwing.sh, the lint of `make test` that keeps throwing standard calls and long
// double out of engine/ and wasm/: it passes on the tree, and fails on a copy of the engine with
// one such line appended (a temporary tree, so the repository is never touched). Authored.
//
//   node --test tests/cli/lint-throwing.test.mjs
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs the lint on a copy of engine/ and wasm/ with `line` appended to `file`. */
function lintWith(file, line) {
  const root = mkdtempSync(join(tmpdir(), 'lint-throwing-'));
  try {
    mkdirSync(join(root, 'scripts'));
    cpSync(join(repo, 'scripts', 'lint-throwing.sh'), join(root, 'scripts', 'lint-throwing.sh'));
    cpSync(join(repo, 'engine'), join(root, 'engine'), {recursive: true});
    cpSync(join(repo, 'wasm'), join(root, 'wasm'), {recursive: true});
    if (line) appendFileSync(join(root, file), line);
    return spawnSync('sh', [join(root, 'scripts', 'lint-throwing.sh')], {encoding: 'utf8'});
  } finally {
    rmSync(root, {recursive: true, force: true});
  }
}

test('the tree passes', () => {
  const run = lintWith(null, null);
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

for (const [what, file, line] of [
  ['std::stoi', 'engine/src/cosmos/container_capacity.cpp', 'int f(const std::string& s) { return std::stoi(s); }\n'],
  ['.at()', 'wasm/bindings.cpp', 'int g(const std::vector<int>& v) { return v.at(3); }\n'],
  ['long double', 'engine/src/core/limits.cpp', 'long double h() { return 1; }\n'],
]) {
  test(`it fails on ${what}`, () => {
    const run = lintWith(file, line);
    assert.equal(run.status, 1, run.stdout);
    assert.ok(run.stdout.includes(file), run.stdout);
  });
}

test('a comment naming long double is not code', () => {
  const run = lintWith('engine/src/core/limits.cpp', '// a long double would print nothing\n');
  assert.equal(run.status, 0, run.stdout);
});
