// docs/cli.md's generated blocks, from the CLI itself: each block between
//   <!-- generated: partplay ARGS -->  and  <!-- end generated -->
// holds what `build/native/partplay ARGS` prints (a text block), or for `error-codes` the table
// of codes. Prose outside the blocks is hand-written.
//   node scripts/cli-docs.mjs           rewrite docs/cli.md
//   node scripts/cli-docs.mjs --check   exit 1 if docs/cli.md is not what the CLI prints
// tests/cli/help.test.mjs runs the check.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DOC = path.join(ROOT, 'docs/cli.md');
const BLOCK = /(<!-- generated: partplay ([^>]*?) -->\n)[\s\S]*?(<!-- end generated -->)/g;

/** What a generated block holds for `partplay ARGS`. */
function blockBody(cli, args) {
  const out = execFileSync(cli, args.split(' '), {encoding: 'utf8'});
  if (args === 'error-codes') {
    const rows = JSON.parse(out).map((c) => `| ${c.code} | \`${c.name}\` | ${c.description} |`);
    return ['| exit status | name | meaning |', '| --- | --- | --- |', ...rows].join('\n') + '\n';
  }
  return '```text\n' + out + '```\n';
}

/** docs/cli.md with every generated block rewritten from the CLI at `cli`. */
export function generate(cli, text = fs.readFileSync(DOC, 'utf8')) {
  return text.replace(BLOCK, (_, open, args, close) => open + blockBody(cli, args) + close);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cli = path.join(ROOT, 'build/native/partplay');
  const current = fs.readFileSync(DOC, 'utf8');
  const wanted = generate(cli, current);
  if (process.argv.includes('--check')) {
    if (wanted !== current) {
      console.error('docs/cli.md differs from the CLI\'s help: run node scripts/cli-docs.mjs');
      process.exit(1);
    }
  } else if (wanted !== current) {
    fs.writeFileSync(DOC, wanted);
    console.log('docs/cli.md updated');
  }
}
