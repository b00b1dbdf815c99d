// Every repository path the docs name exists: README.md, HACKING.md and docs/*.md (all of their
// text, code blocks and links included) and the leading comment block of each engine, wasm and
// web source file. A path is
//   - a token rooted at a top-level folder of the repository (`engine/...`, `web/...`, `wasm/...`,
//     `tests/...`, `docs/...`, `examples/...`, `scripts/...`, `.ci/...`); a glob or a placeholder
//     (`tests/fuzz/*_fuzz.cpp`, `corpus/<target>/`) counts up to its first wildcard;
//   - an engine header or source named from its domain folder (`core/limits.h`,
//     `src/ingest/json_scan.h`, `include/partplay/cosmos/container.h`), found under
//     engine/include/partplay/ or engine/src/; a page module named from its folder
//     (`worker/client.js`, `cosmos/cosmos-view.js`), found under web/;
//   - a bare source file name (`limits.h`, `client.js`, `report.md`), which some file of the
//     repository must carry, unless the build makes it or it is a dependency's (listed below);
//   - an absolute path into the folders around the checkout (`/work/shared/...`): always reported;
//   - a relative link of a Markdown file, or a `./` / `../` import path in a comment, resolved
//     against the file's folder, which must stay inside the repository.
// build/, bench-data/ and test-results/ paths are outputs and are not checked.
// A section named with its document (README "Browsers", HACKING.md "Fuzzing", docs/embedding.md
// "Hosting"), anywhere in the docs or in any source, test or script, must be a heading of that
// document (a heading that starts with the name).
// Every missing path or section is reported as FILE:LINE.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {ROOT} from './helpers.mjs';

const SKIP_DIRS = new Set(['.git', 'build', 'node_modules', 'bench-data', 'test-results']);

/** Every file and folder of the tree, relative to ROOT with '/' separators (folders end in '/'). */
function walk(dir = '', out = new Set()) {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), {withFileTypes: true})) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const rel = dir + entry.name;
    if (entry.isDirectory()) {
      out.add(rel + '/');
      walk(rel + '/', out);
    } else {
      out.add(rel);
    }
  }
  return out;
}

const TREE = walk();
const BASENAMES = new Set([...TREE].filter((p) => !p.endsWith('/')).map((p) => p.split('/').at(-1)));

/** Bare names that are no file of the repository on purpose: what the build writes, and dependencies' headers. */
const NOT_IN_TREE = new Map([
  ['partplay.mjs', 'the wasm build writes it (build/wasm-cmake)'],
  ['d3.min.js', 'make site copies it from node_modules/d3'],
  ['xxhash.h', 'Debian libxxhash-dev'],
  ['val.h', "Emscripten's Embind"],
  ['bind.h', "Emscripten's Embind"],
  ['simdjson.h', 'npm @nozbe/simdjson'],
]);
const BUILT = /^partplay-[\w-]+\.(?:mjs|wasm)$/;  // partplay-cosmos.mjs, ...: one wasm module per domain

const TOP = '(?:engine|web|wasm|tests|docs|examples|scripts|\\.ci)';
const CHARS = "[\\w.@+~-]";
const ROOTED = new RegExp(`(?<![\\w./~-])${TOP}/(?:${CHARS}+/)*${CHARS}*`, 'g');
const ENGINE_REL = new RegExp(`(?<![\\w./-])(?:include/partplay/|src/)?(?:core|ingest|cosmos|cassandra|sizing|report)/[\\w-]+\\.(?:h|cpp)\\b`, 'g');
const WEB_REL = /(?<![\w./-])(?:worker|common|cosmos|cassandra|sizing|embed)\/[\w-]+\.js\b/g;
const BARE = /(?<![\w./~@<>*{}-])[\w-]+\.(?:h|cpp|js|mjs|md)(?![\w/-])/g;
// An absolute path into the machine's folders around the checkout (/work/shared/...): it names
// nothing a reader of the repository has.
const MACHINE = new RegExp(`(?<![\\w.~:/-])/${ROOT.split(path.sep)[1]}(?:/[\\w.-]+)+/?`, 'g');
const RELATIVE = /(?<![\w.-])\.{1,2}\/[\w./-]*[\w/]/g;
const MD_LINK = /\]\(([^)\s]+)\)/g;

/** `rel` trimmed of a trailing '.', checked against the tree (a file, or a folder with or without its '/'). */
function exists(rel) {
  const clean = rel.replace(/\.+$/, '');
  return TREE.has(clean) || TREE.has(clean.replace(/\/?$/, '/'));
}

/** Resolves `target` against the folder of `file`: the repository path, or null when it leaves the repository. */
function resolveFrom(file, target) {
  const abs = path.resolve(ROOT, path.dirname(file), target);
  const rel = path.relative(ROOT, abs).split(path.sep).join('/');
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel;
}

/** The problems with the paths named in `text` (the lines of `file` from `firstLine`). */
function checkText(file, text, {markdown}) {
  const problems = [];
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const seen = new Set();
    const report = (token, why) => problems.push(`${where}: ${token} ${why}`);
    const covered = [];  // spans already judged, so a bare name inside a longer path is not judged twice
    const judge = (regex, fn) => {
      for (const m of line.matchAll(regex)) {
        const span = [m.index, m.index + m[0].length];
        if (covered.some(([a, b]) => span[0] >= a && span[1] <= b)) continue;
        covered.push(span);
        fn(m[0], m);
      }
    };
    if (markdown) {
      for (const [, target] of line.matchAll(MD_LINK)) {
        if (/^(?:[a-z]+:|#)/i.test(target)) continue;
        const rel = resolveFrom(file, target.split('#')[0]);
        if (rel === null) report(target, 'is outside the repository');
        else if (!exists(rel)) report(target, 'does not exist');
        seen.add(target);
      }
    }
    judge(MACHINE, (token) => report(token, 'is outside the repository (an absolute path on one machine)'));
    judge(ROOTED, (token) => {
      if (!exists(token)) report(token, 'does not exist');
    });
    judge(ENGINE_REL, (token) => {
      const rel = token.replace(/^include\/partplay\//, '').replace(/^src\//, '');
      const candidates = token.startsWith('src/') ? [`engine/src/${rel}`]
        : token.startsWith('include/') ? [`engine/include/partplay/${rel}`]
        : [`engine/include/partplay/${rel}`, `engine/src/${rel}`];
      if (!candidates.some(exists)) report(token, `is in neither ${candidates.join(' nor ')}`);
    });
    judge(WEB_REL, (token) => {
      if (!exists(`web/${token}`)) report(token, 'is not under web/');
    });
    judge(RELATIVE, (token) => {
      if (seen.has(token)) return;
      const rel = resolveFrom(file, token);
      if (rel === null) report(token, 'is outside the repository');
      else if (!exists(rel)) report(token, `does not exist (${rel})`);
    });
    judge(BARE, (token) => {
      if (BASENAMES.has(token) || NOT_IN_TREE.has(token) || BUILT.test(token)) return;
      report(token, 'is the name of no file in the repository');
    });
  });
  return problems;
}

/** The leading comment block of a source file: its first lines up to the first that is code. */
export function headerComment(text) {
  const lines = text.split('\n');
  const out = [];
  let inBlock = false;
  for (const line of lines) {
    const t = line.trim();
    if (inBlock) {
      out.push(line);
      if (t.includes('*/')) inBlock = false;
    } else if (t.startsWith('//') || t === '') {
      out.push(line);
    } else if (t.startsWith('/*')) {
      out.push(line);
      inBlock = !t.includes('*/', 2);
    } else {
      break;
    }
  }
  return out.join('\n');
}

const DOCS = ['README.md', 'HACKING.md', ...[...TREE].filter((p) => /^docs\/[^/]+\.md$/.test(p)).sort()];
const SOURCES = [...TREE].filter((p) =>
  /^engine\/include\/.*\.h$/.test(p) || /^engine\/(?:src|cli)\/.*\.(?:h|cpp)$/.test(p) ||
  /^wasm\/[^/]+\.(?:h|cpp|mjs|js)$/.test(p) || /^web\/.*\.js$/.test(p)).sort();

const SECTION_REF = /\b(README|HACKING|docs\/[\w-]+)(?:\.md)?,? ["“]([^"”]+)["”]/g;

/** The headings of a Markdown file (not a code block's `#` lines), lower-cased, without their #s and backticks. */
function headings(file) {
  let code = false;
  return fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').filter((l) => {
    if (l.startsWith('```')) code = !code;
    return !code && /^#{1,6} /.test(l);
  }).map((l) => l.replace(/^#+ /, '').replaceAll('`', '').toLowerCase());
}

/** The problems with the sections named in `text` (README "Browsers" ...), as FILE:LINE. */
function checkSections(file, text) {
  const problems = [];
  text.split('\n').forEach((line, i) => {
    for (const [ref, doc, section] of line.matchAll(SECTION_REF)) {
      const target = `${doc}.md`;
      if (!TREE.has(target)) {
        problems.push(`${file}:${i + 1}: ${ref} names ${target}, which does not exist`);
      } else if (!headings(target).some((h) => h.startsWith(section.toLowerCase()))) {
        problems.push(`${file}:${i + 1}: ${ref}: ${target} has no such heading`);
      }
    }
  });
  return problems;
}

test('the checker finds what it is meant to find', () => {
  const found = checkText('docs/x.md', [
    'see `engine/include/partplay/core/limits.h` and `core/limits.h`',  // both exist
    'see `engine/src/nothing.cpp`, `sizing/sizing.h` and `advisor.h`',   // three missing
    'see [the report](report.md) and [outside](../../elsewhere/)',        // one exists, one outside
    'loads `worker/client.js` and `web/app-cosmos.js`',                   // one missing
    `the <module>_test.cpp of each, cut at /id and /address/city, ${ROOT}/docs/cli.md`,  // one absolute
  ].join('\n'), {markdown: true});
  assert.deepEqual(found, [
    'docs/x.md:2: engine/src/nothing.cpp does not exist',
    'docs/x.md:2: sizing/sizing.h is in neither engine/include/partplay/sizing/sizing.h nor engine/src/sizing/sizing.h',
    'docs/x.md:2: advisor.h is the name of no file in the repository',
    'docs/x.md:3: ../../elsewhere/ is outside the repository',
    'docs/x.md:4: web/app-cosmos.js does not exist',
    `docs/x.md:5: ${ROOT}/docs/cli.md is outside the repository (an absolute path on one machine)`,
  ]);
  assert.equal(headerComment('// a\n// b\n#pragma once\n// c\n'), '// a\n// b');
  assert.deepEqual(checkSections('x.cpp', '// see HACKING.md "Testing" and README "No such section"\n'),
                   ['x.cpp:1: README "No such section": README.md has no such heading']);
  assert.equal(headerComment('/**\n * a\n */\nimport x from "y";\n'), '/**\n * a\n */');
});

test('every path README, HACKING and docs/ name exists', () => {
  assert.ok(DOCS.length >= 8, `only ${DOCS.length} docs found`);
  const problems = DOCS.flatMap((file) => checkText(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), {markdown: true}));
  assert.deepEqual(problems, []);
});

test('every path a source file\'s header comment names exists', () => {
  assert.ok(SOURCES.length > 150, `only ${SOURCES.length} sources found`);
  const problems = SOURCES.flatMap((file) =>
    checkText(file, headerComment(fs.readFileSync(path.join(ROOT, file), 'utf8')), {markdown: false}));
  assert.deepEqual(problems, []);
});

test('every section a doc, source, test or script names in another doc is one of its headings', () => {
  const files = [...DOCS, 'CMakeLists.txt', 'Makefile', ...[...TREE].filter((p) =>
    /^(?:engine|wasm|web|scripts|tests)\/.*\.(?:h|cpp|js|mjs|sh)$/.test(p) && !p.startsWith('tests/fuzz/corpus/') &&
    p !== 'tests/cli/doc-paths.test.mjs')].sort();  // this file's own examples are wrong on purpose
  assert.ok(files.length > 300, `only ${files.length} files found`);
  const problems = files.flatMap((file) => checkSections(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
  assert.deepEqual(problems, []);
});
