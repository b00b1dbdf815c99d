#!/usr/bin/env node
// The peer a data engineer with an NDJSON export would run instead of us: DuckDB (npm
// @duckdb/node-api, its JSON functions built in), grouping the file's items by a key with item
// counts and byte sums, in a process of its own (run-bench.mjs spawns one per measurement).
//
//   node tests/bench/duckdb-peer.mjs FILE KEY THREADS [--reader csv|json]
//
// KEY is a JSON Pointer of one plain field ('/userId', '/id'). Timed: the query alone (DuckDB
// started and connected beforehand, untimed): CREATE TEMP TABLE ... AS SELECT key, count(*),
// sum(bytes) ... GROUP BY key, the whole partition table materialised in DuckDB's memory (not
// sent to JS, which would cost DuckDB's side time ours does not pay). Then, untimed, the checks:
// partitions, items and item bytes (each line's length without its newline, the CLI's `bytes`).
// The reader: `json` (the default) reads each line with read_ndjson_objects; `csv` reads each line
// as one VARCHAR column with read_csv (no quote, no escape, a delimiter absent from the data).
// Both then extract with json_extract_string. `make bench` runs both for /userId (duck*_csv): json
// was the faster at 1 and 2 threads on a quiet machine (535 against 507 MB/s, 855 against 722).
// Prints one JSON line: {seconds, partitions, items, bytes, threads, reader, duckdb_version}.
import {DuckDBInstance} from '@duckdb/node-api';

const [file, key, threadsArg, ...rest] = process.argv.slice(2);
const threads = Number(threadsArg);
const readerAt = rest.indexOf('--reader');
const reader = readerAt >= 0 ? rest[readerAt + 1] : 'json';
if (!file || !/^\/[A-Za-z_][A-Za-z0-9_]*$/.test(key ?? '') || !Number.isInteger(threads) || threads < 1 ||
    !['csv', 'json'].includes(reader)) {
  console.error('usage: duckdb-peer.mjs FILE /field THREADS [--reader csv|json]');
  process.exit(2);
}
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const field = key.slice(1);
const source = reader === 'csv'
  ? `(SELECT line FROM read_csv(${quote(file)}, columns = {'line': 'VARCHAR'}, header = false, ` +
    `delim = E'\\x01', quote = '', escape = '', auto_detect = false, max_line_size = 16777216))`
  : `(SELECT json::VARCHAR AS line FROM read_ndjson_objects(${quote(file)}))`;

const instance = await DuckDBInstance.create(':memory:', {threads: String(threads)});
const connection = await instance.connect();
const version = (await connection.runAndReadAll('SELECT version() AS v')).getRowObjects()[0].v;
const started = process.hrtime.bigint();
await connection.run(`CREATE TEMP TABLE partitions AS SELECT json_extract_string(line, ${quote('$.' + field)}) AS k, ` +
                     `count(*) AS n, sum(strlen(line)) AS b FROM ${source} GROUP BY k`);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const check = (await connection.runAndReadAll(
  'SELECT count(*)::BIGINT AS partitions, sum(n)::BIGINT AS items, sum(b)::BIGINT AS bytes FROM partitions')).getRowObjects()[0];
console.log(JSON.stringify({seconds, partitions: Number(check.partitions), items: Number(check.items),
                            bytes: Number(check.bytes), threads, reader, duckdb_version: version}));
