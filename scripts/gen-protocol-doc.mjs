// docs/protocol.md's generated block, from the worker protocol's one table (web/worker/protocol.js
// REQUESTS, rendered by web/worker/protocol-docs.js): the block between
//   <!-- generated: protocol table -->  and  <!-- end generated -->
// lists every request type; prose outside the block is hand-written.
//   node scripts/gen-protocol-doc.mjs             rewrite docs/protocol.md
//   node scripts/gen-protocol-doc.mjs --check     exit 1 if docs/protocol.md is not what the table says
// tests/cli/protocol-doc.test.mjs runs the check.
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {protocolMarkdown} from '../web/worker/protocol-docs.js';

export const DOC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs/protocol.md');
const BLOCK = /(<!-- generated: protocol table -->\n)[\s\S]*?(<!-- end generated -->)/;

/** `doc` with its generated block replaced by the table's Markdown. */
export function generate(doc) {
  if (!BLOCK.test(doc)) throw new Error('docs/protocol.md has no <!-- generated: protocol table --> block');
  return doc.replace(BLOCK, (_, open, close) => `${open}${protocolMarkdown()}${close}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = fs.readFileSync(DOC, 'utf8');
  const fresh = generate(doc);
  if (process.argv.includes('--check')) {
    if (fresh !== doc) {
      console.error('docs/protocol.md is stale: run node scripts/gen-protocol-doc.mjs');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(DOC, fresh);
  }
}
