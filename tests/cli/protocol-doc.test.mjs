// docs/protocol.md's table is the worker protocol's one table (web/worker/protocol.js REQUESTS) as
// scripts/gen-protocol-doc.mjs writes it: a request added or changed and not regenerated fails here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {test} from 'node:test';

import {DOC, generate} from '../../scripts/gen-protocol-doc.mjs';
import {REQUESTS} from '../../web/worker/protocol.js';

test('docs/protocol.md holds the protocol table as generated', () => {
  const doc = fs.readFileSync(DOC, 'utf8');
  assert.equal(doc, generate(doc), 'docs/protocol.md is stale: run node scripts/gen-protocol-doc.mjs');
  for (const {type, doc: sentence} of REQUESTS) {
    assert.ok(doc.includes(`| \`${type}\` |`), `docs/protocol.md lacks ${type}`);
    assert.ok(doc.includes(sentence), `docs/protocol.md lacks the doc of ${type}`);
  }
});

test('a doc whose table is missing a request is not what the table generates', () => {
  const doc = fs.readFileSync(DOC, 'utf8');
  const first = REQUESTS[0].type;
  const cut = doc.split('\n').filter((line) => !line.startsWith(`| \`${first}\` |`)).join('\n');
  assert.notEqual(generate(cut), cut);
});
