// docs/limits.md's table is what the engine's limits() answers (node scripts/gen-limits-doc.mjs
// rewrites it): a limit added, removed or changed in core/limits.h and not regenerated fails here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {generate, render} from '../../scripts/gen-limits-doc.mjs';
import {ROOT, loadEngine} from './helpers.mjs';

const DOC = path.join(ROOT, 'docs/limits.md');

test('docs/limits.md holds the engine\'s limits table as generated', async () => {
  const {engine} = await loadEngine();
  const limits = engine.limits();
  const doc = fs.readFileSync(DOC, 'utf8');
  assert.equal(doc, generate(limits, doc), 'docs/limits.md is stale: run node scripts/gen-limits-doc.mjs');
  for (const {id} of limits) assert.ok(doc.includes(`| \`${id}\` |`), `docs/limits.md lacks ${id}`);
});

test('the generated table changes with any limit, so a stale doc cannot pass', async () => {
  const {engine} = await loadEngine();
  const limits = engine.limits();
  const table = render(limits);
  const changed = [
    limits.map((l, i) => (i === 0 ? {...l, value: l.value + 1} : l)),
    limits.map((l, i) => (i === 1 ? {...l, label: `${l.label}!`} : l)),
    limits.map((l, i) => (i === 2 ? {...l, source: `${l.source}!`} : l)),
    limits.slice(1),
    [...limits, {...limits[0], id: 'a_new_limit'}],
  ];
  for (const other of changed) assert.notEqual(render(other), table);
});
