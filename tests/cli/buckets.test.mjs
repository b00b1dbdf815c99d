// The analysis past one machine on the command line (docs/cluster.md): parts written as figures
// and bucket files, buckets merged into summaries, summaries into the report: byte for byte one
// pass's report in every format; merges of merged partial states in any grouping; and every bad
// input (a bucket missing, a part's bucket file missing, a file of another run or key, a file cut
// short, another format version, files of the wrong kind) a located error naming the file, with
// no report written. Authored cases.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import {run} from './helpers.mjs';

// An export of three files: repeated keys, a few ids repeated across files, weights.
function exportFiles(dir) {
  const files = [];
  for (let f = 0; f < 3; ++f) {
    const lines = [];
    for (let i = f * 400; i < (f + 1) * 400; ++i) {
      const id = i % 97 === 0 && i > 400 ? i - 400 : i;  // an id of the file before
      lines.push(JSON.stringify({id: `i${id}`, userId: `u${(i * 37) % 150}`, n: (i % 13) / 4,
                                 pad: 'x'.repeat(i % 50)}));
    }
    const file = path.join(dir, `export-${f}.ndjson`);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    files.push(file);
  }
  const all = path.join(dir, 'all.ndjson');
  fs.writeFileSync(all, files.map((f) => fs.readFileSync(f, 'utf8')).join(''));
  return {files, all};
}

function ok(args) {
  const r = run(args);
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return r;
}

// Parts cut into `k` buckets, every bucket merged: the part directories and the summaries'.
function cluster(dir, files, k, key = ['--key', '/userId', '--weight', '/n']) {
  const parts = files.map((f, i) => path.join(dir, `k${k}`, 'parts', `${i}`));
  files.forEach((f, i) => ok(['analyze', ...key, '--partial-out', parts[i], '--buckets', `${k}`, f]));
  const sums = path.join(dir, `k${k}`, 'sums');
  fs.mkdirSync(sums, {recursive: true});
  for (let b = 0; b < k; ++b) {
    ok(['merge', '--bucket', `${b}`, '--summary-out', path.join(sums, `b${b}.sum`), ...parts]);
  }
  return {parts, sums};
}

function withExport(body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-buckets-'));
  try {
    body(dir, exportFiles(dir));
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

test('the report from bucket summaries is one pass\'s, in every format and for every K', () => {
  withExport((dir, {files, all}) => {
    for (const k of [1, 3, 16]) {
      const {parts, sums} = cluster(dir, files, k);
      for (const format of [[], ['--format', 'json'], ['--container', '--ru', '12000'],
                            ['--format', 'json', '--container', '--spread', 'zipf'],
                            ['--max-rows', '0']]) {
        const one = ok(['analyze', '--key', '/userId', '--weight', '/n', '--jobs', '1', ...format, all]);
        const merged = ok(['merge', '--summaries', sums, ...format, ...parts]);
        assert.equal(merged.stdout, one.stdout, `K ${k} ${format.join(' ')}`);
      }
    }
    // The parts say what they wrote, and write no report.
    const r = ok(['analyze', '--key', '/userId', '--partial-out', path.join(dir, 'x'), '--buckets',
                  '2', files[0]]);
    assert.match(r.stdout, /x: .*x\/figures.part and 2 bucket files of 400 items\n$/);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'x')).sort(),
                     ['bucket-0000.part', 'bucket-0001.part', 'figures.part']);
  });
});

test('merges of merged partial states give one pass\'s report in any grouping', () => {
  withExport((dir, {files, all}) => {
    const p = files.map((f, i) => {
      const part = path.join(dir, `${i}.part`);
      ok(['analyze', '--key', '/id', '--partial-out', part, '-o', '/dev/null', f]);
      return part;
    });
    const one = ok(['analyze', '--key', '/id', '--jobs', '1', '--format', 'json', all]).stdout;
    const ab = path.join(dir, 'ab.part');
    const bc = path.join(dir, 'bc.part');
    assert.match(ok(['merge', '--partial-out', ab, p[0], p[1]]).stdout,
                 /ab.part: the partial state of 2 parts merged \([\d,]+ bytes\)/);
    ok(['merge', '--partial-out', bc, p[1], p[2]]);
    assert.equal(ok(['merge', '--format', 'json', ab, p[2]]).stdout, one);
    assert.equal(ok(['merge', '--format', 'json', p[0], bc]).stdout, one);
    assert.equal(ok(['merge', '--format', 'json', ...p]).stdout, one);
    assert.match(one, /"duplicate_id":\{"count":[1-9]/);
  });
});

test('bad inputs are located errors naming the file, and no report is written', () => {
  withExport((dir, {files}) => {
    const {parts, sums} = cluster(dir, files, 4);
    const out = path.join(dir, 'report.json');
    const refused = (args, pattern) => {
      const r = run([...args, '-o', out]);
      assert.equal(r.status, 17, `${args.join(' ')}: ${r.stdout}${r.stderr}`);  // bad_partial
      assert.match(r.stderr, pattern);
      assert.equal(fs.existsSync(out), false);
    };
    // A bucket summary missing.
    const aside = path.join(dir, 'aside.sum');
    fs.renameSync(path.join(sums, 'b2.sum'), aside);
    refused(['merge', '--summaries', sums, ...parts],
            /no summary of bucket 2 \(of 4\) among the 3 given \(1 missing\)/);
    fs.renameSync(aside, path.join(sums, 'b2.sum'));
    // A part's bucket file missing: its merge says which file.
    const bucketFile = path.join(parts[1], 'bucket-0001.part');
    fs.renameSync(bucketFile, aside);
    const missing = run(['merge', '--bucket', '1', '--summary-out', path.join(dir, 'x.sum'), ...parts]);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /cannot open .*parts\/1\/bucket-0001.part/);
    fs.renameSync(aside, bucketFile);
    // A summary merged from a part left out.
    const partial = path.join(dir, 'partial.sum');
    ok(['merge', '--bucket', '1', '--summary-out', partial, parts[0], parts[2]]);
    fs.copyFileSync(path.join(sums, 'b1.sum'), aside);
    fs.copyFileSync(partial, path.join(sums, 'b1.sum'));
    refused(['merge', '--summaries', sums, ...parts],
            /b1.sum: bucket 1 was merged from 2 parts; the figures are of 3/);
    // A bucket of another run: the first file analysed again with another key path's values.
    const other = path.join(dir, 'other.ndjson');
    fs.writeFileSync(other, fs.readFileSync(files[0], 'utf8').replace('"u0"', '"u0b"'));
    const again = path.join(dir, 'again');
    ok(['analyze', '--key', '/userId', '--weight', '/n', '--partial-out', again, '--buckets', '4', other]);
    ok(['merge', '--bucket', '1', '--summary-out', path.join(sums, 'b1.sum'), again, parts[1], parts[2]]);
    refused(['merge', '--summaries', sums, ...parts],
            /b1.sum: bucket 1's part 1 is not the figures' part 1 \(a bucket file of another run/);
    fs.copyFileSync(aside, path.join(sums, 'b1.sum'));
    // Another key: a bucket merge of parts analysed by other paths names the file.
    const byId = path.join(dir, 'by-id');
    ok(['analyze', '--key', '/id', '--partial-out', byId, '--buckets', '4', files[1]]);
    refused(['merge', '--bucket', '0', '--summary-out', path.join(dir, 'y.sum'), parts[0], byId, parts[2]],
            /by-id\/bucket-0000.part: part 2 was analysed with other options than part 1/);
    // A file cut short, and one of another format version.
    const figures = path.join(parts[2], 'figures.part');
    const bytes = fs.readFileSync(figures);
    fs.writeFileSync(figures, bytes.subarray(0, bytes.length - 5));
    refused(['merge', '--summaries', sums, ...parts],
            /parts\/2\/figures.part: partial state: .*\(at byte \d+\)/);
    const version = Buffer.from(bytes);
    version[16] = 2;
    fs.writeFileSync(figures, version);
    refused(['merge', '--summaries', sums, ...parts],
            /figures.part: partial state: format version 2; this partplay reads version 3/);
    fs.writeFileSync(figures, bytes);
    const summary = fs.readFileSync(path.join(sums, 'b3.sum'));
    fs.writeFileSync(path.join(sums, 'b3.sum'), summary.subarray(0, 40));
    refused(['merge', '--summaries', sums, ...parts], /b3.sum: bucket summary: /);
    fs.writeFileSync(path.join(sums, 'b3.sum'), summary);
    // Files of the wrong kind.
    refused(['merge', ...parts.map((p) => path.join(p, 'bucket-0000.part'))],
            /bucket-0000.part is a file of a part cut into 4 buckets \(analyze --buckets\)/);
    fs.copyFileSync(path.join(parts[0], 'bucket-0001.part'), path.join(parts[0], 'bucket-0002.part'));
    refused(['merge', '--bucket', '2', '--summary-out', path.join(dir, 'z.sum'), ...parts],
            /parts\/1\/bucket-0002.part: part 2 is bucket 2 of 4 and part 1 is bucket 1 of 4/);
    // And the whole run still gives the report after the files are put back.
    ok(['analyze', '--key', '/userId', '--weight', '/n', '--partial-out', parts[0], '--buckets', '4', files[0]]);
    assert.equal(run(['merge', '--summaries', sums, ...parts]).status, 0);
  });
});

test('the options that go together', () => {
  for (const [args, message] of [
    [['analyze', '--key', '/a', '--buckets', '4', 'x'], /--buckets K cuts the --partial-out DIR: give both/],
    [['analyze', '--key', '/a', '--buckets', '0', '--partial-out', 'd', 'x'], /--buckets takes 1 to 4096/],
    [['merge', '--bucket', '1', 'd'], /--bucket B and --summary-out FILE go together/],
    [['merge', '--bucket', '1', '--summary-out', 's', '--summaries', 'S', 'd'], /one or the other/],
    [['merge', '--buckets', '2', 'd'], /--buckets is analyze's/],
    [['analyze', '--key', '/a', '--summaries', 'S', 'x'], /--bucket, --summary-out and --summaries are merge's/],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
  }
});
