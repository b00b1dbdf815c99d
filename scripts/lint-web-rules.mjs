#!/usr/bin/env node
// Fails when web/ writes a rule of its own: a quota, threshold or default number that belongs to
// the engine (engine/src/core/limits.cpp, core/limits.h, core/defaults.h). The page reads those
// from the engine (web/common/limits.js: limitValue, engineDefault, engineEnum), so a number of
// the engine's table in web/ is a copy that can drift. Run by `make test`.
//
//   node scripts/lint-web-rules.mjs                 # every web/**/*.js and web/index.html
//   node scripts/lint-web-rules.mjs web/a.js ...    # just these files
//
// What it flags, in code (comments and string text are not read, template `${...}` parts are):
//   table    a numeric literal equal to a quota, recommendation, default or threshold of the
//            engine's limits table (kind "input", the engine's own parsing bounds, aside), unless
//            the value is a small layout-sized number (under 100, but fractions other than 0.5
//            count) or a unit factor (100, 1000, 1024);
//   size     a byte-size constant: 2 ** 10..40, 1 << 10..39, 1024 ** 2.., 1024 * 1024;
//   compare  a fractional literal in a comparison (`gini >= 0.6`, `balance > 1.5`): a threshold;
//   option   a number given to an engine option by name (`{ru_per_second: 400}`, `x.query_ru = 3`),
//            the names being those of the engine's options JSON (docs/report.md "Options").
// In web/index.html and in views' templates (JS with <input> markup): a numeric value=, min=, max=
// or placeholder= equal to a table value >= 100.
// A line ending in `// lint-ok: <reason>` is allowed (layout, geometry, timing, formatting).
// web/common/limits.js, the engine-fed module, is not checked.
import {readFileSync, readdirSync, statSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXEMPT = new Set(['web/common/limits.js']);
/** Numbers that convert units (percent, milliseconds, binary prefixes), not rules. */
const UNIT_FACTORS = new Set([100, 1000, 1024]);
const RULE_KINDS = new Set(['quota', 'recommendation', 'default', 'threshold']);
const OPTION_NAMES = [
  'ru_per_second', 'grown_ru_per_second', 'created_ru_per_second', 'top_per_range', 'query_ru', 'read_factor', 'write_factor',
  'zipf_exponent', 'buckets', 'point_reads_per_second', 'writes_per_second', 'queries_per_second',
  'growth', 'max_partitions', 'discover_items',
];

/** The engine's constants (name -> value) from the C++ headers: `inline constexpr T kName = expr;`. */
function engineConstants() {
  const values = new Map();
  const files = ['engine/include/partplay/core/limits.h', 'engine/include/partplay/core/defaults.h'];
  for (const file of files) {
    let text;
    try {
      text = readFileSync(join(repo, file), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/inline\s+constexpr\s+[\w:]+\s+(k\w+)\s*=\s*([^;]+);/g)) {
      let expr = m[2].replace(/\/\/.*$/gm, '');
      for (const [name, v] of values) expr = expr.replace(new RegExp(`\\b${name}\\b`, 'g'), `(${v})`);
      if (!/^[\d\s.*+\-/()eE]+$/.test(expr)) continue;
      values.set(m[1], Function(`"use strict"; return (${expr});`)());
    }
  }
  return values;
}

/** The limits table's rows: [{id, value, kind}] (engine/src/core/limits.cpp). */
export function engineTable() {
  const constants = engineConstants();
  const text = readFileSync(join(repo, 'engine/src/core/limits.cpp'), 'utf8');
  const rows = [];
  for (const m of text.matchAll(/\{\s*"(\w+)",\s*(k\w+),\s*"[^"]*",\s*"(\w+)"/g)) {
    if (constants.has(m[2])) rows.push({id: m[1], value: constants.get(m[2]), kind: m[3]});
  }
  if (rows.length === 0) throw new Error('lint-web-rules: read no rows from engine/src/core/limits.cpp');
  return rows;
}

/**
 * `source` with comments and the text of strings blanked (same length, newlines kept), so that
 * only code is matched; `${...}` inside template literals stays code.
 */
export function codeOnly(source) {
  const out = source.split('');
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const templateDepth = [];  // brace depth at which each open template's ${ started
  let braces = 0;
  let i = 0;
  let lastCode = '';
  const n = source.length;
  const inTemplate = () => {
    // Reads template text from i until ` (closes) or ${ (code); blanks the text.
    const start = i;
    while (i < n) {
      if (source[i] === '\\') { i += 2; continue; }
      if (source[i] === '`') { blank(start, i); i++; return; }
      if (source[i] === '$' && source[i + 1] === '{') {
        blank(start, i);
        i += 2;
        templateDepth.push(braces);
        braces++;
        return;
      }
      i++;
    }
    blank(start, n);
  };
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      blank(i, end < 0 ? n : end);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      blank(i, end < 0 ? n : end + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      lastCode = c;
      continue;
    }
    if (c === '`') {
      i++;
      inTemplate();
      lastCode = '`';
      continue;
    }
    if (c === '/' && (lastCode === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastCode))) {
      // A regular expression literal: its text is not code.
      let j = i + 1;
      let cls = false;
      while (j < n && source[j] !== '\n') {
        if (source[j] === '\\') { j += 2; continue; }
        if (source[j] === '[') cls = true;
        else if (source[j] === ']') cls = false;
        else if (source[j] === '/' && !cls) break;
        j++;
      }
      blank(i + 1, j);
      i = j + 1;
      lastCode = '/';
      continue;
    }
    if (c === '{') braces++;
    if (c === '}') {
      braces--;
      if (templateDepth.length && templateDepth[templateDepth.length - 1] === braces) {
        templateDepth.pop();
        i++;
        inTemplate();
        lastCode = '`';
        continue;
      }
    }
    if (!/\s/.test(c)) lastCode = c;
    // A keyword such as `return` ends in a letter: a following / divides, unless it is `return`.
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < n && /[\w$.]/.test(source[j])) j++;
      const word = source.slice(i, j);
      lastCode = /^(return|typeof|case|in|of)$/.test(word) ? '(' : 'a';
      i = j;
      continue;
    }
    i++;
  }
  return out.join('');
}

const NUMBER = String.raw`(?<![\w$.])(?:\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)(?![\w$])`;

function numberValue(text) {
  return Number(text.replace(/_/g, ''));
}

/** Problems in one JS file's text: [{line, rule, text}]. */
export function lintScript(text, rows) {
  const tableValues = new Set(rows.filter((r) => RULE_KINDS.has(r.kind)).map((r) => r.value)
    .filter((v) => ((!Number.isInteger(v) && v !== 0.5) || v >= 100) && !UNIT_FACTORS.has(v)));
  const code = codeOnly(text);
  const rawLines = text.split('\n');
  const problems = [];
  code.split('\n').forEach((line, k) => {
    if (/\/\/\s*lint-ok:\s*\S/.test(rawLines[k])) return;
    const add = (rule, what) => problems.push({line: k + 1, rule, text: `${what}: ${rawLines[k].trim()}`});
    for (const m of line.matchAll(new RegExp(NUMBER, 'g'))) {
      if (tableValues.has(numberValue(m[0]))) add('table', `${m[0]} is a value of the engine's limits table`);
    }
    if (/\b2\s*\*\*\s*(?:[1-3]\d|40)\b|\b1\s*<<\s*(?:[1-3]\d)\b|\b1024\s*\*\*\s*[2-9]\b|\b1024\s*\*\s*1024\b/.test(line)) {
      add('size', 'a byte-size constant');
    }
    const fraction = String.raw`-?(?:\d+\.\d+|\.\d+)`;
    if (new RegExp(String.raw`(?:[<>]=?|[!=]==?)\s*${fraction}(?![\w.])|(?<![\w.])${fraction}\s*(?:[<>]=?|[!=]==?)(?!>)`).test(line)) {
      add('compare', 'a fractional threshold in a comparison');
    }
    const names = OPTION_NAMES.join('|');
    const value = String.raw`\s*-?[\d.]+\s*(?:[,;})]|$)`;
    const property = new RegExp(String.raw`(?:^\s*|[{,]\s*)(?:${names})\s*:${value}`);
    const assignment = new RegExp(String.raw`(?:^\s*|[{,.]\s*)(?:${names})\s*=(?!=)${value}`);
    if (property.test(line) || assignment.test(line)) add('option', 'a number given to an engine option by name');
  });
  return problems;
}

/** Problems in web/index.html: numeric attribute values equal to a table value >= 100. */
export function lintHtml(text, rows) {
  const values = new Set(rows.filter((r) => RULE_KINDS.has(r.kind)).map((r) => r.value)
    .filter((v) => v >= 100 && !UNIT_FACTORS.has(v)));
  const problems = [];
  text.split('\n').forEach((line, k) => {
    if (/lint-ok:\s*\S/.test(line)) return;
    for (const m of line.matchAll(/\b(value|min|max|placeholder)="(-?[\d.]+)"/g)) {
      if (values.has(Number(m[2]))) {
        problems.push({line: k + 1, rule: 'table', text: `${m[1]}="${m[2]}" is a value of the engine's limits table: ${line.trim()}`});
      }
    }
  });
  return problems;
}

/** Every web/**\/*.js file and web/index.html, relative to the repository. */
export function webFiles(root = repo) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (path.endsWith('.js') || path === 'web/index.html') found.push(path);
    }
  };
  walk('web');
  return found;
}

/** Problems in `files` (paths relative to `root`): [{file, line, rule, text}]. */
export function lintFiles(files, {root = repo, rows = engineTable()} = {}) {
  const problems = [];
  for (const file of files) {
    const rel = relative(root, resolve(root, file));
    if (EXEMPT.has(rel)) continue;
    const text = readFileSync(resolve(root, file), 'utf8');
    // A view's template (markup inside a JS string) is read as HTML too.
    const found = rel.endsWith('.html') ? lintHtml(text, rows)
      : [...lintScript(text, rows), ...(/<input\b/.test(text) ? lintHtml(text, rows) : [])];
    for (const p of found) problems.push({file: rel, ...p});
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const problems = lintFiles(args.length ? args : webFiles());
  for (const p of problems) console.error(`${p.file}:${p.line}: [${p.rule}] ${p.text}`);
  if (problems.length) {
    console.error(`lint-web-rules: ${problems.length} rule number(s) in web/; read them from the engine ` +
      '(web/common/limits.js) or mark a layout number with `// lint-ok: <reason>`.');
    process.exit(1);
  }
  console.log('lint-web-rules: no quota, threshold or default number in web/');
}
