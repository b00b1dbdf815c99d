// The starting seeds of the fuzz targets (tests/fuzz/*_fuzz.cpp), from examples/ and the inputs
// the engine tests use, written as one file per seed into OUT/<target>/. The checked-in corpora
// (tests/fuzz/corpus/<target>/) are these seeds after fuzzing, minimized with libFuzzer's -merge=1
// (HACKING.md "Fuzzing"); run this only to start the corpora afresh.
//
//   node tests/fuzz/seed-corpora.mjs OUT
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = process.argv[2];
if (!out) {
  console.error('usage: node tests/fuzz/seed-corpora.mjs OUT');
  process.exit(2);
}
const example = (name) => readFileSync(join(root, 'examples', name), 'utf8');

function write(target, seeds) {
  const dir = join(out, target);
  mkdirSync(dir, { recursive: true });
  for (const seed of seeds) {
    const bytes = Buffer.isBuffer(seed) ? seed : Buffer.from(seed, 'utf8');
    const name = createHash('sha1').update(bytes).digest('hex');
    writeFileSync(join(dir, name), bytes);
  }
  console.log(`${target}: ${seeds.length} seeds`);
}

// A few whole items of an NDJSON example, or of a JSON array example, kept small.
function firstLines(text, count) {
  return text.split('\n').slice(0, count).join('\n') + '\n';
}
function firstElements(text, count) {
  return JSON.stringify(JSON.parse(text).slice(0, count), null, 1);
}

// --- ingest: JSON bytes, then the 6-byte trailer [options, container/chunking, seed x4].
const trailer = (options, flags, seed) =>
  Buffer.from([options, flags, seed & 255, (seed >> 8) & 255, (seed >> 16) & 255, seed >> 24]);
const jsonInputs = [
  firstLines(example('orders.ndjson'), 4),
  firstLines(example('vehicles.ndjson'), 6),
  firstElements(example('food.json'), 1),
  example('single-device.json'),
  '{"id":"a","a":1,"b":"x"}\n{"id":"a","a":1,"b":"x"}\n{"id":"b","a":[1],"b":{}}\n',
  '[{"id":"1","a":"x"},{"id":"2","a":"y"}]',
  '{"id":"1","a":9007199254740993,"b":-0,"c":1e400,"w":"x"}',
  '{"id":"\\ud83d\\ude00","a":"\\u00e9","b":null,"c":{"d":true}}',
  '{"a":1}{"a":2} {"a":3}\r\n\t{"a":4}',
  '[1,2',
  '{"a":"\\ud800"}',
  '{"a":"\xff"}',
  '{"a":[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}',
  '{"id":"1","customer":{"id":"c"},"date":"2024","x/y":3,"userId":"u","deviceId":"d"}',
];
write(
  'ingest_fuzz',
  jsonInputs.flatMap((json, i) => [
    Buffer.concat([Buffer.from(json, 'utf8'), trailer(i % 10, (i * 37) & 255, 1000 + i)]),
    Buffer.concat([Buffer.from(json, 'utf8'), trailer((i + 3) % 10, 8 * (i % 4), 7 * i)]),
  ]),
);

// --- cql: whole scripts.
const cqlDir = join(root, 'examples', 'cql');
const scripts = readdirSync(cqlDir)
  .filter((f) => f.endsWith('.cql'))
  .map((f) => readFileSync(join(cqlDir, f), 'utf8'));
const ks = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}; USE ks;";
write('cql_fuzz', [
  ...scripts,
  `${ks} CREATE TABLE t (a int, b text, c timestamp, d list<int>, e map<text, frozen<set<uuid>>>, PRIMARY KEY ((a, b), c)) WITH CLUSTERING ORDER BY (c DESC);
INSERT INTO t (a, b, c, d) VALUES (1, 'x', '2024-01-01', [1, 2]) USING TTL 60;
INSERT INTO t JSON '{"a": 2, "b": "y", "c": 0}';
UPDATE t SET d = d + [3] WHERE a = 1 AND b = 'x' AND c = '2024-01-01';
SELECT a, b, token(a, b), writetime(d) FROM t WHERE a IN (1, 2) AND b = 'x';
SELECT JSON * FROM t WHERE a = 1 AND b = 'x' AND c > '2023-01-01' LIMIT 3;
DELETE FROM t WHERE a = 1 AND b = 'x'; DESCRIBE TABLE t; TRUNCATE t; DROP TABLE t;`,
  `${ks} CREATE TABLE v (k varint PRIMARY KEY, d decimal, f float, g double, i inet, u timeuuid, dt date, tm time, du duration, bl blob, tu frozen<tuple<int, text>>);
INSERT INTO v (k, d, f, g, i, u, dt, tm, du, bl, tu) VALUES (-12345678901234567890, 1.5e10, NaN, -Infinity, '::1', now(), '2024-02-29', '12:00:00.5', 1h2m, 0xCAFE, (1, 'a'));
SELECT * FROM v; SELECT toJson(d), totimestamp(u), blobasint(0x00000001) FROM v;
CREATE TYPE addr (street text, zip int); CREATE TABLE w (k int PRIMARY KEY, a frozen<addr>);
INSERT INTO w (k, a) VALUES (1, {street: 'x', zip: 5}) IF NOT EXISTS; SELECT * FROM w WHERE k = 1;`,
  "SELECT * FROM nowhere; CREATE KEYSPACE k2 WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 1}; USE k2; CREATE TABLE x (k text PRIMARY KEY) WITH default_time_to_live = 10;",
  "SELECT 'unterminated; /* comment */ -- line\n\"Quoted\"\"Id\" $$dollar$$",
]);

// --- options: the four readers' JSON.
write('options_fuzz', [
  '{"key_paths":["/date"],"synthetic":{"kind":"hash_suffix","suffix_path":"/vin","buckets":400}}',
  '{"key_paths":["/a","/b"],"discover_items":-1,"weight_path":"/w","check_ids":false}',
  '{"synthetic":{"kind":"concat","paths":["/a","/b"],"separator":"|"}}',
  '{"synthetic":{"kind":"random_suffix","buckets":10,"seed":7}}',
  '{"hash_version":"multihash","ru_per_second":18000,"autoscale":true,"growth":10,"grown_ru_per_second":40000,"top_per_range":3}',
  '{"hash_version":"1","large_partition_keys":false,"route":["x"]}',
  '{"workload":{"point_reads_per_second":100,"writes_per_second":10,"queries_per_second":1,"spread":"zipf","zipf_exponent":1.2,"read_factor":1,"write_factor":5,"query_ru":3}}',
  '{"workload":{"spread":"field"},"route":[]}',
  '{"nodes":6,"num_tokens":8,"random_tokens":true,"seed":3}',
  '{"datacenters":[{"name":"dc1","nodes":3,"racks":2},{"name":"dc2","nodes":2,"racks":1}],"num_tokens":4}',
  '{"scan_partitions":10,"max_partitions":3,"ru_per_second":40000}',
  '{}',
]);

// --- sizing: the request JSON as the form sends it, and schema scripts alone.
const sizing = JSON.parse(readFileSync(join(cqlDir, 'sizing.json'), 'utf8'));
const requests = sizing.map(({ file, id, title, description, ...request }) =>
  JSON.stringify({ cql: readFileSync(join(cqlDir, file), 'utf8'), ...request }),
);
write('sizing_fuzz', [
  ...requests,
  JSON.stringify({
    cql: 'CREATE TABLE t (a text, b int, c timestamp, d text, PRIMARY KEY ((a), b, c));',
    table: 't',
    rows_per_partition: [{ name: 'per day', value: 1000 }, { name: 'days', value: 365 }],
    worst_rows_per_partition: '5000*365',
    avg_sizes: { a: 10, d: 100 },
    replication_factor: 3,
    t_avg: 8,
    splits: [
      { kind: 'move_clustering_column', column: 'b', distinct_values: 20 },
      { kind: 'hash_bucket', buckets: 16, new_column: 'bucket' },
    ],
    suggest_splits: true,
  }),
  readFileSync(join(cqlDir, 'hotel_sizing.cql'), 'utf8'),
  '100*730',
]);

// --- epk: keys as JSON.
write('epk_fuzz', [
  '["redmond"]',
  '"東京"',
  '["a", 5, true, false, null, {}]',
  '[-0, 1e308, 5e-324, 9007199254740993]',
  '["😀", "a\\u0000b", "\\ud83d\\ude00"]',
  `["${'x'.repeat(120)}", 2]`,
  '[]',
  'undefined',
]);

// --- token: a type list line, then one CQL literal per line.
write('token_fuzz', [
  "text,int\n'hello'\n42",
  'bigint\n-9223372036854775808',
  'uuid\n123e4567-e89b-12d3-a456-426614174000',
  "frozen<map<text, frozen<list<int>>>>\n{'a': [1, 2], 'b': []}",
  "frozen<tuple<int, text, boolean>>,date\n(1, 'x', true)\n'2024-02-29'",
  "timestamp,varint,decimal\n'2021-01-31 13:45:00+0000'\n123456789012345678901234567890\n-1.5e-7",
  "double,float,inet,blob,time\nNaN\n-Infinity\n'192.168.0.1'\n0xcafe\n'12:34:56.789'",
  'smallint,tinyint,boolean,timeuuid\n-32768\n127\nfalse\nnow()',
  Buffer.from([0, 3, 97, 98, 99, 0, 0, 1, 120, 0]),
]);
