// docs/limits.md's generated block, from the engine itself: the block between
//   <!-- generated: limits() -->  and  <!-- end generated -->
// holds the table the wasm module's limits() answers (core/limits.h, LimitsToJson), one table per
// kind of limit. Prose outside the block is hand-written.
//   node scripts/gen-limits-doc.mjs                 rewrite docs/limits.md
//   node scripts/gen-limits-doc.mjs --check         exit 1 if docs/limits.md is not what the engine says
//   ... --build DIR                                 the wasm build to ask (default build/wasm-cmake)
// tests/wasm/limits-doc.test.mjs runs the check against the module the page loads.
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DOC = path.join(ROOT, 'docs/limits.md');
const BLOCK = /(<!-- generated: limits\(\) -->\n)[\s\S]*?(<!-- end generated -->)/;

/** What each kind of limit is, in the order the tables come; a kind not listed here comes after them. */
const KINDS = [
  ['quota', 'Quotas', 'what the service (or Cassandra) refuses past, or the largest it stores'],
  ['recommendation', 'Recommendations', 'rules of thumb (past them a design still works, but badly)'],
  ['input', "Bounds on what the engine parses", 'the engine\'s own, so that no input can exhaust its stack, memory or time; each is a located error'],
];

/** The limits table of the wasm build in `buildDir`: [{id, value, unit, kind, label, source}]. */
export async function loadLimits(buildDir = path.join(ROOT, 'build/wasm-cmake')) {
  const {default: createPartplay} = await import(pathToFileURL(path.join(buildDir, 'partplay.mjs')).href);
  const module = await createPartplay({wasmBinary: fs.readFileSync(path.join(buildDir, 'partplay.wasm'))});
  const answer = module.limits();
  if (!answer.ok) throw new Error(`limits() failed: ${answer.error?.message}`);
  return JSON.parse(answer.json).limits;
}

const cell = (text) => String(text).replaceAll('|', '\\|');

/** A limit's value as written in the table: every digit of an integer, then its unit. */
function valueText({value, unit}) {
  const number = Number.isInteger(value) ? BigInt(value).toLocaleString('en-US') : String(value);
  return `${number} ${unit}`;
}

/** The generated block's body for `limits`. */
export function render(limits) {
  const kinds = [...KINDS];
  for (const {kind} of limits) {
    if (!kinds.some(([k]) => k === kind)) kinds.push([kind, `Kind \`${kind}\``, '']);
  }
  const sections = [];
  for (const [kind, title, meaning] of kinds) {
    const rows = limits.filter((l) => l.kind === kind);
    if (rows.length === 0) continue;
    sections.push([
      `### ${title}`, '',
      ...(meaning ? [`Kind \`${kind}\`: ${meaning}.`, ''] : []),
      '| id | value | label | source |',
      '| --- | --- | --- | --- |',
      ...rows.map((l) => `| \`${l.id}\` | ${cell(valueText(l))} | ${cell(l.label)} | ${cell(l.source)} |`),
    ].join('\n'));
  }
  return sections.join('\n\n') + '\n';
}

/** docs/limits.md with its generated block rewritten from `limits`. */
export function generate(limits, text = fs.readFileSync(DOC, 'utf8')) {
  if (!BLOCK.test(text)) throw new Error('docs/limits.md has no <!-- generated: limits() --> block');
  return text.replace(BLOCK, (_, open, close) => open + render(limits) + close);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--build');
  const buildDir = at > 0 ? path.resolve(process.argv[at + 1]) : undefined;
  const current = fs.readFileSync(DOC, 'utf8');
  const wanted = generate(await loadLimits(buildDir), current);
  if (process.argv.includes('--check')) {
    if (wanted !== current) {
      console.error('docs/limits.md differs from the engine\'s limits(): run node scripts/gen-limits-doc.mjs');
      process.exit(1);
    }
  } else if (wanted !== current) {
    fs.writeFileSync(DOC, wanted);
    console.log('docs/limits.md updated');
  }
}
