// Help and usage errors: every command answers -h/--help on stdout with status 0; a bad option
// or value is named on stderr with status 2; README, docs/*.md and docs/cli.md agree with the help text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';

import {generate} from '../../scripts/cli-docs.mjs';
import {CLI, ROOT, commands, run} from './helpers.mjs';

const EXPECTED_COMMANDS = ['analyze', 'merge', 'compare', 'epk', 'token', 'cql', 'size', 'error-codes'];

/** The long options a command's help lists. */
function helpOptions(command) {
  const help = run([command, '--help']).stdout;
  return new Set([...help.split('\noptions:\n')[1].matchAll(/^ {2}(?:-\w, )?\s*(--[\w-]+)/gm)].map((m) => m[1]));
}

test('partplay --help lists the commands, on stdout, status 0', () => {
  assert.deepEqual(commands(), EXPECTED_COMMANDS);
  for (const args of [['--help'], ['-h'], ['help']]) {
    const r = run(args);
    assert.equal(r.status, 0, args.join(' '));
    assert.match(r.stdout, /^usage: partplay COMMAND/);
    assert.equal(r.stderr, '');
  }
});

test('partplay --version stays', () => {
  const r = run(['--version']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^partplay \d+\.\d+\.\d+/);
});

test('no command, an unknown command or option: usage on stderr, status 2', () => {
  const none = run([]);
  assert.equal(none.status, 2);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /usage: partplay COMMAND/);
  for (const [arg, said] of [['frobnicate', 'unknown command frobnicate'], ['--frob', 'unknown option --frob']]) {
    const r = run([arg]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^partplay: ${said}\nTry 'partplay --help'`));
  }
});

describe('every command: --help and -h', () => {
  for (const command of EXPECTED_COMMANDS) {
    test(command, () => {
      const long = run([command, '--help']);
      assert.equal(long.status, 0, long.stderr);
      assert.equal(long.stderr, '');
      assert.match(long.stdout, new RegExp(`^usage: partplay ${command}\\b`));
      assert.match(long.stdout, /\noptions:\n((.|\n)*\n)? {2}-h, --help +print this help and exit\n/);
      assert.match(long.stdout, /\nexit status: 0 on success, 2 for a bad command line, 130 when interrupted/);
      assert.deepEqual(run([command, '-h']), long);
      assert.deepEqual(run(['help', command]), long);
      // Help wins wherever it is, even after a bad option, and runs nothing (no input named).
      assert.deepEqual(run([command, '--no-such-option', '--help']), long);
      for (const line of long.stdout.split('\n')) assert.ok(line.length <= 90, `${command}: long line ${line}`);
    });
  }
});

test('an option value that looks like -h is a value, not a request for help', () => {
  const r = run(['analyze', '--key', '/id', '--separator', '-h', path.join(ROOT, 'examples/orders.ndjson')]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /partitions/);
});

describe('bad options and values name the option; status 2, nothing on stdout', () => {
  const cases = [
    [['analyze', '--key', '/id', '--bogus', 'x.json'], /^partplay analyze: unknown option --bogus\n/],
    [['analyze', '--key', '/id', '--format', 'xml', 'x.json'], /^partplay analyze: --format is json or table \(given: 'xml'\)/],
    [['analyze', '--key', '/id', '--format=xml', 'x.json'], /^partplay analyze: --format is json or table \(given: 'xml'\)/],
    [['analyze', '--key'], /^partplay analyze: --key needs a value \(--key PATH\)/],
    [['analyze', '--key', '/id', '--ru', 'many', 'x.json'], /^partplay analyze: --ru takes RU\/s \(1 or more\) \(given: 'many'\)/],
    [['analyze', '--key', '/id', '--no-id-check=yes', 'x.json'], /^partplay analyze: --no-id-check takes no value/],
    [['analyze', '--key', '/id', '--route', '[1', 'x.json'], /^partplay analyze: --route: .*\(given: '\[1'\)/],
    [['analyze', 'x.json'], /^partplay analyze: --key is required/],
    [['analyze', '--key', '/id'], /^partplay analyze: give an input FILE, or - for stdin/],
    [['analyze', '--key', '/id', 'a.json', 'b.json'], /^partplay analyze: give one input file/],
    [['epk', '--version', '3', '1'], /^partplay epk: --version is 1, 2 or multihash \(given: '3'\)/],
    [['epk', '--bogus', '1'], /^partplay epk: unknown option --bogus/],
    [['epk', '--version', '2'], /^partplay epk: give at least one VALUE/],
    [['token', '--bogus'], /^partplay token: unknown option --bogus/],
    [['token', '42'], /^partplay token: --types is required/],
    [['cql', '--nodes', '0', 'x.cql'], /^partplay cql: --nodes takes 1 to 1000 \(given: '0'\)/],
    [['cql', '--format', 'csv', 'x.cql'], /^partplay cql: --format is json, cqlsh or details \(given: 'csv'\)/],
    [['cql', '-x', 'x.cql'], /^partplay cql: unknown option -x/],
    [['cql'], /^partplay cql: give a script FILE, or - for stdin/],
    [['size', '--hash-buckets', '1'], /^partplay size: --hash-buckets takes a whole number of 2 or more \(given: '1'\)/],
    [['size', '--bogus'], /^partplay size: unknown option --bogus/],
    [['size', 'stray.cql'], /^partplay size: unexpected stray.cql/],
    [['size', '--data', 'x.json'], /^partplay size: --data needs --key PATH/],
    [['size', '--data', 'x.json', '--key', '/id', '--progress=1'], /^partplay size: --progress takes no value/],
    [['error-codes', 'extra'], /^partplay error-codes: unexpected extra/],
  ];
  for (const [args, message] of cases) {
    test(args.join(' '), () => {
      const r = run(args);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.match(r.stderr, new RegExp(`Try 'partplay ${args[0]} --help' for more information\\.\\n$`));
    });
  }
});

test('negative numbers and what follows -- are operands', () => {
  assert.equal(run(['epk', '--version', '2', '-0.5']).status, 0);
  assert.equal(run(['epk', '--version', '2', '--', '-0']).status, 0);
  const literal = run(['token', '--types', 'double', '-Infinity']);
  assert.equal(literal.status, 0, literal.stderr);
  assert.match(literal.stdout, /^-?\d+\n$/);
  assert.equal(run(['epk', '--version=2', '"a"']).stdout, run(['epk', '--version', '2', '"a"']).stdout);
});

test('the README shows the command list of partplay --help; README and docs/ use only options the commands have', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const help = run(['--help']).stdout;
  const list = help.split('commands:\n')[1].split('\n\n')[0] + '\n';
  assert.ok(readme.includes('```text\n' + list + '```'), 'README lists the commands as partplay --help does');
  const known = Object.fromEntries(EXPECTED_COMMANDS.map((c) => [c, helpOptions(c)]));
  const docs = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const command = new RegExp(`partplay (${EXPECTED_COMMANDS.join('|')})\\b(.*)`);
  let checked = 0;
  let tables = 0;
  for (const doc of docs) {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    // Every `partplay COMMAND ...` line (examples, with their continuation lines).
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; ++i) {
      const m = command.exec(lines[i]);
      if (!m) continue;
      let rest = m[2];
      for (let j = i; lines[j].endsWith('\\'); ++j) rest += ' ' + lines[j + 1];
      for (const [option] of rest.matchAll(/(?<![\w-])--[a-z][\w-]*/g)) {
        assert.ok(known[m[1]].has(option), `${doc} line ${i + 1}: partplay ${m[1]} has no ${option}`);
        ++checked;
      }
    }
    // The analyze option table (docs/cosmos-model.md) lists options of analyze.
    for (const table of text.split('| option | meaning |').slice(1).map((t) => t.split('\n\n')[0])) {
      ++tables;
      for (const [, option] of table.matchAll(/`(--[a-z][\w-]*)/g)) {
        assert.ok(known.analyze.has(option), `${doc}'s option table: analyze has no ${option}`);
        ++checked;
      }
    }
  }
  assert.ok(tables >= 1, 'no analyze option table in README or docs/');
  assert.ok(checked > 40, `only ${checked} options checked`);
});

test('docs/cli.md is what the CLI prints (node scripts/cli-docs.mjs rewrites it)', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
  assert.equal(doc, generate(CLI, doc));
  for (const command of EXPECTED_COMMANDS) {
    assert.ok(doc.includes(`<!-- generated: partplay ${command} --help -->`), `docs/cli.md has no ${command} section`);
  }
  for (const {code, name} of JSON.parse(run(['error-codes']).stdout)) {
    assert.ok(doc.includes(`| ${code} | \`${name}\` |`), `docs/cli.md lacks exit status ${code}`);
  }
});
