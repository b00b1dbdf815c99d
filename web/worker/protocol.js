// The message protocol between the page (./client.js) and the engine worker (./worker.js).
// This file is the one place it is defined; both sides import it. Modelled on the worker
// protocols of sqlite ext/wasm and duckdb-wasm: every request carries an id, every reply echoes it.
//
// Page -> worker: a request
//   {id: number, type: RequestType, payload: object}
//   `id` is chosen by the page, unique among the requests in flight.
//
// Worker -> page: zero or more progress replies, then exactly one result or error reply
//   {id, type: 'progress', payload: {bytesDone, bytesTotal, items, compressed, failed?}}
//     bytesDone/bytesTotal  the bytes the engine read of the input (for gzip: decompressed, and
//                           bytesTotal null, as the decompressed size is known only at the end)
//     compressed            null, or for a gzip source {bytesDone, bytesTotal}: the compressed
//                           bytes read of the compressed total (the file's size, a URL's
//                           Content-Length, or null) — the only total known, so the bar follows it
//     failed                cql-load only: rows refused so far (CSV)
//   {id, type: 'result',   payload: <per request, below>}
//   {id, type: 'error',    payload: ErrorPayload}
//
// ErrorPayload (plain data, survives structured clone; engine errors from PartplayError.toJSON()):
//   {name, code, codeName, message, location, field}
//     name      'PartplayError' (engine), 'AbortError' (cancelled) or 'ProtocolError'
//     code      the engine's numeric code (engine/include/partplay/core/error_codes.h), or null
//     codeName  the engine's short name ('malformed_json', 'bad_key_path', ...) or one of
//               ErrorCodeNames below for errors raised outside the engine
//     message   human-readable text
//     field     null, or the request field the error is about as a JSON pointer ("/avg_sizes/body")
//     location  null or {byte_offset, line, column, item_index} (line/column 1-based, column in
//               bytes; byte_offset and item_index 0-based)
//
// Requests
//
//   init       payload {}
//              result  {version: string, errorCodes: [{code, name, description}],
//                       limits: [{id, value, unit, kind, label, source}] (core/limits.h),
//                       simd: boolean (false: the engine built without wasm SIMD, loaded where
//                       the browser lacks it or with simd=0 in the worker's URL; slower)}
//              Loads the wasm engine. The worker also loads it eagerly on start; init just waits.
//
//   analyze    payload {source: Source, keyPaths: string[], discoverItems?: number,
//                       maxPartitions?: number, slot?: string, weightPath?: string,
//                       synthetic?: SyntheticKey | null, container?: ContainerOptions | null}
//              progress {bytesDone, bytesTotal, items}  (bytesTotal null when unknown), at most
//                       about every PROGRESS_INTERVAL_MS
//              result  Report: the engine's report object (docs/report.md), whose
//                      partition_bytes (Float64Array, every partition's bytes, largest first)
//                      arrives with its buffer transferred, plus three fields the worker adds:
//                        source: {kind, name, bytes, compressedBytes?}   what was read (name:
//                                file name, URL, label; bytes: the JSON the engine read, which
//                                every size of the report counts; compressedBytes: the gzip
//                                bytes it came from, only for a gzip source)
//                        timing: {ms, bytesPerSecond, read_ahead}  wall time in the worker;
//                                read_ahead: a file read ahead by the worker's reader thread
//                                (web/worker/reader.js; where the machine has a second core)
//                        slot:   string                 the slot now holding this analysis
//              Streams the source into the engine chunk by chunk. keyPaths are JSON pointers
//              ('/userId', '/address/city', '~1' for '/', '~0' for '~'). discoverItems: how many
//              leading items the engine samples for candidate_paths (engine default when absent).
//              maxPartitions: the length limit of report.partitions (DEFAULT_MAX_PARTITIONS).
//              weightPath: a JSON pointer to a numeric field summed per logical partition (the
//              engine's weight_path; needed by the workload spread 'field'). synthetic: build one
//              string key per item instead of the values at keyPaths (SyntheticKey below).
//              container: the container model to report with (ContainerOptions below); with it
//              the report gains partitions[].epk, container, advisor, synthetic (docs/report.md).
//              slot: where the worker keeps the finished analysis for `model` (default
//              DEFAULT_SLOT, 'main'; the page also uses 'synthetic'). A slot holds one analysis;
//              a newer one in the same slot replaces (and frees) it. A failed or cancelled
//              analysis leaves the slot as it was.
//              A new analyze or reanalyze cancels the one in flight (it ends in an AbortError).
//              The worker remembers the source for reanalyze (one source for every slot).
//
//   reanalyze  payload {keyPaths: string[], discoverItems?, maxPartitions?, slot?, weightPath?,
//                       synthetic?, container?}   (as analyze, without source)
//              Same replies as analyze, over the source of the last analyze. Files are re-read
//              (the page need not hold them), URLs re-fetched, text and bytes reused.
//              Error codeName 'no_source' when there was no analyze before.
//
//   model      payload {slot?: string, container: ContainerOptions | null, maxPartitions?: number}
//              result  Report, as analyze's (with source, timing and slot), re-reported from the
//                      finished analysis held in `slot` with other container options, without
//                      reading the data again. For changes of throughput, hash version, growth,
//                      workload (except a new weightPath) and query routing; a change of key,
//                      synthetic key or weightPath needs reanalyze. No progress replies.
//              timing.bytesPerSecond is null (nothing was read). While a new analysis for the
//              slot is still reading, model answers from the finished one the slot holds.
//              Error codeName 'no_analysis' when the slot holds no finished analysis; engine
//              errors (codeName 'bad_option': a route of the wrong length, Zipf s <= 0, ...) as
//              for analyze.
//
//   compare    payload {keys: KeyOptions[] (1..8), container?: ContainerOptions,
//                       queries?: [{filter: string[]}] (at most 16), weightPath?: string}
//              progress {bytesDone, bytesTotal, items}
//              result  Comparison: the engine's object (docs/report.md "Key comparison":
//                      {workload_given, ru_per_second, growth, queries, best, why, keys: [row]})
//                      plus source: {kind, name, bytes} and timing: {ms, bytesPerSecond}
//              Judges every key on the source of the last analyze, read once (the engine's
//              KeyComparison: one analyzer per key). KeyOptions are the engine's analysis options
//              ({key_paths, synthetic?}; a key of several paths is hierarchical). The finished
//              comparison is kept for recompare; a newer compare cancels one in flight and
//              replaces the kept one. Error codeName 'no_source' when nothing was analyzed.
//
//   recompare  payload {container?: ContainerOptions, queries?: [{filter: string[]}]}
//              result  Comparison (timing.bytesPerSecond null), from the kept comparison with
//                      other container options or queries, without reading the data again.
//              Error codeName 'no_analysis' when no comparison is kept.
//
//   release    payload {slot: string}
//              result  {released: boolean}
//              Frees the analysis held in `slot` (e.g. when the page drops its synthetic key).
//
//   cancel     payload {target?: number}  the id of the request to cancel: an analyze,
//                      reanalyze, compare or cql-load (default: the analyze/reanalyze in flight)
//              result  {cancelled: boolean}
//              The cancelled request ends with an error reply {name: 'AbortError',
//              codeName: 'cancelled'}. Cancellation takes effect between chunks.
//
//   heap       payload {}
//              result  {engines: [{domain, module, bytes}], bytes}
//              The wasm memory of every engine this worker has loaded, in bytes (domain
//              'cosmos', 'cql' or 'sizing'; module the build it came from, e.g. 'cosmos-fast'),
//              and their sum. Wasm memory never shrinks, so each is that engine's peak since it
//              loaded. Loads no engine; answered at once, also while an analysis runs (between
//              its chunks). For measurements (client.js heap(): this worker's and every pool
//              worker's; tests/bench/run-bench.mjs --many); the page itself does not ask.
//
// Parts (a file analysed by several workers; web/worker/client.js runs them, web/worker/pool.js
// holds the extra workers, docs/sharding.md). The client asks the page's worker where the file
// may be cut (split), has every worker analyse one slice (analyze-part: the page's worker the
// first, each pool worker one of the others) and the page's worker merge them (merge) into the
// analysis it keeps in the slot, exactly as one analyze would have left it. A failed part (an
// error in the data) makes the client analyze the file again in one pass, so the error shown is
// exactly one pass's even where a cut falls inside broken JSON. The parts first keep only their
// ids' hashes (idRecords false): a merge that meets an id repeated across parts, which they then
// cannot name, fails with bad_partial, and the client has the parts analysed again with records.
//
//   split        payload {source: Source (kind 'file'), parts: number >= 1, minPartBytes?: number}
//                result  {cuts: number[]}  increasing offsets, each just before an item
//                The engine's safe split points (engine/include/partplay/ingest/split_points.h)
//                over windows of about 1 MiB read with File.slice. No cut (an array, gzip, no
//                safe newline near a target): one part.
//
//   analyze-part payload {source: Source (kind 'file', the whole file), begin, end: byte offsets
//                         of the part, first: boolean, idRecords?: boolean (default false: the
//                         ids' hashes only), readAhead?: boolean (default false: the worker reads
//                         the file itself; true: its reader thread reads ahead, worth it only
//                         where a core is free of the parts), keyPaths, discoverItems?,
//                         weightPath?, synthetic?} (the analysis options of analyze)
//                progress {bytesDone, bytesTotal, items}  within the part
//                result  first: {bytes, items, readAhead, heapBytes}  the part is held by this
//                        worker for merge (and the file is the source reanalyze and compare read);
//                        else:  {bytes, items, readAhead, partial: ArrayBuffer, heapBytes}  the
//                               part's partial state (the engine's binary format), its buffer
//                               transferred
//                        readAhead: whether the reader thread read the part (asked and started);
//                        heapBytes: this worker's wasm memory after the part (as heap's bytes);
//                        the client retires a pool worker whose heap grew large (client.js)
//                Ends in the part's error when its data is bad. Cancelled like an analyze.
//
//   merge        payload {partials: ArrayBuffer[] (the parts after the first, in input order,
//                         transferred), slot?, maxPartitions?, container?}
//                result  Report, as analyze's: the held first part merged with the partials
//                        (engine.mergePartials), kept in the slot. timing.ms runs from the first
//                        part's start; timing.heap_bytes is this worker's wasm memory after
//                        the merge and report. The client adds timing.workers, the parts
//                        analysed (an analyze's report has none: one), and the timings, heaps
//                        and read_ahead (every part's readAhead) of the parts (client.js).
//                        Error codeName 'no_analysis' when no first part is held.
//
// ContainerOptions (analyze/reanalyze/model payload.container; the engine's own snake_case
// names, handed to analysis.finish / analysis.model as they are; every field optional; the
// engine refuses a field it does not know):
//   {hash_version: '1' | '2' | 'multihash',     V2 for one key path, 'multihash' for 2-3
//    large_partition_keys: boolean,             V1 only (V2 and MultiHash always have them)
//    ru_per_second: number,                     manual RU/s, or the autoscale maximum
//    autoscale: boolean,
//    growth: number >= 1,                       data multiplier of the "grow" step (1 = none)
//    grown_ru_per_second: number,               RU/s after growing (0 = unchanged)
//    workload: {point_reads_per_second, writes_per_second, queries_per_second,
//               spread: 'uniform' | 'field' | 'zipf', zipf_exponent,
//               read_factor, write_factor, query_ru},
//    route: null | JSON values,                 a partition key value (or MultiHash prefix) whose
//                                               query routing to report, e.g. ["Beef Products"]
//    top_per_range: number}                     logical partitions listed per physical partition
//
// SyntheticKey (analyze/reanalyze payload.synthetic, handed to the engine as `synthetic`):
//   {kind: 'concat',        paths: string[] (2-5 JSON pointers), separator: string}
//   {kind: 'random_suffix', separator, buckets: N, seed: S}       value at keyPaths[0] + sep + 1..N
//   {kind: 'hash_suffix',   separator, buckets: N, suffix_path}   + 1 + hash(value at suffix_path) % N
//
// Source (analyze payload.source), one of
//   {kind: 'text',  text: string}                 encoded to UTF-8 in the worker
//   {kind: 'bytes', buffer: ArrayBuffer, name?}   transfer the buffer: postMessage(msg, [buffer])
//   {kind: 'file',  file: File | Blob}            read with file.stream(), never whole
//   {kind: 'url',   url: string}                  absolute URL, fetched and read as a stream
// Every source may carry an optional `name` (a file name or label), echoed in report.source.name.
//
// Compressed sources. A source whose first two bytes are gzip's magic (1f 8b) is decompressed in
// the worker on its way into the engine (web/worker/gunzip.js, the browser's DecompressionStream),
// whatever its name: a .json.gz or .csv.gz file, a fetched .gz served as raw bytes (a server's
// Content-Encoding is undone by fetch itself), gzipped bytes. This holds for analyze, reanalyze,
// compare and cql-load. Progress then carries `compressed` (above), the result's source
// `compressedBytes`; sizes in reports stay the decompressed JSON's. A corrupt or truncated gzip
// stream is an `io` error "NAME is not valid gzip: ... (it stopped after X of Y of gzip, Z
// decompressed)", never a short read; a browser without DecompressionStream answers an `io`
// error saying so.
//
// CQL requests (the page's Cassandra mode). The worker holds one CQL session (the engine's
// CqlSession, wasm/partplay-api.mjs): keyspaces, tables and rows persist from one request to the
// next until cql-reset, as in a cqlsh session. Tokens are decimal strings everywhere (a JS number
// cannot hold every 64-bit token); compare them as BigInt.
//
//   cql        payload {script: string, table?: string, ru?: number, maxPartitions?: number,
//                       replicationFactor?: number}
//              result  {results: StatementResult[], keyspace: string, view: CqlView,
//                       timing: {ms}}
//              Runs the script statement by statement. A failing statement is a result of kind
//              'error' ({message, line, column, code, name, byte_offset}) and the next statement
//              still runs; an error reply only means the request could not run at all (no CQL in
//              this engine build, a bad payload). results: CqlSession.execute's, in statement
//              order (kind 'rows' | 'schema_change' | 'void' | 'describe' | 'error', verb,
//              statement, line, column, byte_offset, source_begin/source_end (the statement's
//              bytes in the script, as the engine splits it, also for one that does not parse),
//              table? ('ks.t' the statement names, from the engine), message?, warnings, error?,
//              and for rows:
//              columns [{name, type}], rows, cells (exact cqlsh text), row_partition,
//              partition_key, partitions [{token, key, replicas, replica_vnodes}]). keyspace: the current one
//              (USE) after the run. view.table: `table` when given and existing, else the last
//              existing table the script's statements name (their results' `table`), else the
//              previous view's table, else
//              the first table. Replicas are node indexes into view.ring.nodes.
//              replicationFactor (1..1000): every keyspace the script creates keeps that many
//              copies per datacenter whatever its statement says (the element's rf attribute).
//
//   ring       payload {ring: RingOptions, table?: string, ru?: number, maxPartitions?: number}
//              result  CqlView
//              Replaces the cluster's ring (the data stays; placements are recomputed).
//              Error codeName 'bad_option' for a ring the engine refuses.
//
//   cql-view   payload {table?: string, ru?: number, maxPartitions?: number}
//              result  CqlView
//              The view of another table, or with another Cosmos DB RU/s; runs no statement.
//
//   cql-load   payload {table: string, source: Source, format?: 'json' | 'csv',
//                       csv?: CsvOptions, ru?: number, maxPartitions?: number}
//              progress {bytesDone, bytesTotal, items, failed, compressed}   items = rows loaded
//                       so far, failed = rows refused so far (CSV)
//              result  {rows: number, failed: number, failures: [{line, column, byte_offset,
//                       message}] (the first the engine lists; `failed` counts them all),
//                       lines: number | null (CSV lines read), format: 'json' | 'csv',
//                       stopped?: ErrorPayload (CSV only, below),
//                       source: {kind, name, bytes, compressedBytes?}, view: CqlView,
//                       timing: {ms, bytesPerSecond}}
//              Loads rows into the table, streamed: each chunk read (a File's stream chunks,
//              READ_CHUNK_BYTES slices of text, gzip decompressed) is copied once into the
//              engine (CqlSession.startLoad), so a file of any size goes through and cancel
//              {target} stops it between chunks. format 'json' (the default): JSON objects
//              (NDJSON, a JSON array or one object) as INSERT ... JSON writes them, framed as for
//              an analysis; on an engine error the rows before it stay loaded, its message says
//              how many, and its location {byte_offset, line, column, item_index} is within the
//              whole source. format 'csv': CSV as cqlsh COPY TO and dsbulk unload write it, read
//              as COPY ... FROM does; a bad row is a failure (line, column, why) and the load
//              goes on. CSV that cannot be read on (an unterminated quote, a record over the
//              limits, gzip breaking off) stops the load there: the result then also has
//              `stopped`, the ErrorPayload of what stopped it (located), with the rows loaded and
//              the failures listed before it (the rows stay loaded).
//
// CsvOptions (cql-load payload.csv; cqlsh's COPY FROM options, the engine's names, handed to
// CqlSession.startLoad(table, {format: 'csv', ...csv}); every field optional, the engine's
// defaults otherwise and its checks): {header: boolean (the first line names the columns),
//   delimiter, quote, escape: one character each, null: string (the text read as null; an
//   empty unquoted field is null too), datetimeformat: string, columns: string[] (the file's
//   columns in order; default the table's, as COPY without a column list)}
//
//   cql-reset  payload {ru?, maxPartitions?}
//              result  CqlView
//              A fresh session (no keyspaces); the ring options stay.
//
// RingOptions (the engine's names, read by engine/include/partplay/cassandra/ring.h
//   ParseRingOptionsJson, which holds the limits): {nodes: 1..1000, num_tokens: 1..256 (vnodes
//   per node), random_tokens: boolean (false: evenly spaced), seed: whole number (random tokens),
//   datacenters?: [{name, nodes, racks}]}  (datacenters replace `nodes`; 1..1000 nodes in all)
//
// CqlView: what the ring picture, the load table and the Cosmos DB Cassandra API figures draw.
//   {keyspaces: CqlSession.keyspaces(): [{name, replication: {class, options: {name: value}},
//          copies (of each partition), text, tables: string[]}],
//    table: 'ks.t' | null, keyspace: the table's keyspace | null,
//    ringOptions: RingOptions in effect,
//    ring: CqlSession.ring(keyspace): {nodes: [{name, address, datacenter, rack, ownership,
//          effective_ownership?}], tokens: [{token, node, start, share}] sorted (vnode i owns
//          (start, token], share = its fraction of the ring), owner_buckets?: node per 1/1440 of
//          the ring (only for rings of more than 4,096 vnodes, which are drawn that way),
//          num_tokens, random_tokens},
//    layout: null | CqlSession.tableLayout(table, {scan_partitions: CQL_SCAN_PARTITIONS,
//          max_partitions: maxPartitions, ru_per_second: ru}): {table, partition_count,
//          row_count, bytes, largest_partition_bytes,
//            partitions_scanned  how many partitions (the first, in token order) were read
//            sample_every        every k-th of them is listed (1: all)
//          partitions: [{token, key, rows, cells, bytes, physical_partition, replicas,
//                        replica_vnodes (per replica, the index in ring.tokens where the walk
//                        picked it)}],
//          nodes: [{partitions, rows, bytes, primary_partitions, primary_rows, primary_bytes}],
//          cosmos}
//    cosmos: null | layout.cosmos: {replicas, quorum, physical_partition_bytes,
//          logical_partition_bytes, largest_partition_over_limit, ru_per_second,
//          ru_per_physical_partition, for_storage, for_throughput, physical_partitions,
//          ranges: [{id, min, max, partitions, rows, bytes}]}
//          The Cosmos DB Cassandra API placement of every partition of the table, computed by
//          the engine (engine/include/partplay/cosmos/cassandra_api.h).
//   maxPartitions (default CQL_MAX_PARTITIONS) bounds layout.partitions; ru defaults to
//   COSMOS_DEFAULT_RU.
//
// Sizing requests (the page's sizing mode; docs/sizing.md). Both answer at once (no progress) and
// run entirely in the engine.
//
//   sizing-tables payload {cql: string}
//                result  [{name, columns: [{name, type, role, fixed_bytes}], variable_columns}]:
//                        the tables the script creates (engine.sizingTables)
//
//   size-table   payload {request: TableSizingRequest}
//                result  the sizing report of docs/sizing.md "Report (JSON) — from a schema"
//                        (engine.sizeTable: every term, arithmetic, findings, options, growth)
//                TableSizingRequest is docs/sizing.md "Request (JSON)", the engine's own names:
//                {cql, table, rows_per_partition: number | "100*730" | [{name, value}],
//                 worst_rows_per_partition?, avg_sizes?: {column: bytes}, partitions?,
//                 replication_factor?: number | null, t_avg?, splits?: [{kind, column,
//                 distinct_values, unit, span_days, buckets, new_column}], growth?: null |
//                 {rows_per_day, retention_days, horizon_days}, suggest_splits?}
//                Errors are the engine's: bad_option (a variable-width column without an average,
//                naming it; a bad rows formula, located in the formula; an unknown field), the CQL
//                errors of the script (cql_syntax, cql_invalid_request, ... with line and column
//                in the script) and cql_unknown (a table the script does not create).
//
//   data-sizing  payload {slot?: string, valuesPerRow?: number, maxExamples?: number}
//                result  docs/sizing.md "From data" (analysis.dataSizing: partitions,
//                        values_per_row, nr, nv, st_bytes, nv_histogram, st_histogram,
//                        thresholds) for the finished analysis kept in `slot` (default
//                        DEFAULT_SLOT), plus three fields the worker adds:
//                          slot: string, source: {kind, name, bytes}, key_paths: string[]
//                valuesPerRow: values per item (default: the engine's estimate, the mean number
//                of scalar fields besides the key and id); maxExamples: partitions listed per
//                threshold (default 10). Error codeName 'no_analysis' when the slot holds none.
//
// Engine failures. A wasm trap (RuntimeError: "memory access out of bounds", "unreachable"), an
// Emscripten abort ("Aborted(...)") or a RangeError inside an engine call may leave the module
// broken, so the worker never calls it again: that request and every later one end in an error
// reply with codeName 'engine_failed' and a message in plain words ("The engine stopped while
// running this script (memory access out of bounds)."); a rejection nobody awaited in the worker
// sends the same error with id -1. On the first such reply (or a worker `error` event after
// init) the client terminates the worker, rejects every request in flight with it, starts a
// fresh worker and tells its listeners ('restart' event): the CQL session, the analyses in the
// slots and the source kept for reanalyze are gone.
//
// TEST ONLY: a test may set `self.crashNextRequestForTesting = 'trap' | 'abort' | 'stack'` in the
// worker (Playwright's worker.evaluate); the next request then breaks the engine that way
// (Engine.crashForTesting: a wasm trap, std::abort, a stack overflow) instead of running, so the
// healing above is tested through the page's own requests. The page never sets it.

export const PROTOCOL_VERSION = 6;

/** Request types (page -> worker). */
export const Request = Object.freeze({
  INIT: 'init',
  ANALYZE: 'analyze',
  REANALYZE: 'reanalyze',
  MODEL: 'model',
  COMPARE: 'compare',
  RECOMPARE: 'recompare',
  RELEASE: 'release',
  CANCEL: 'cancel',
  HEAP: 'heap',
  CQL: 'cql',
  RING: 'ring',
  CQL_VIEW: 'cql-view',
  CQL_LOAD: 'cql-load',
  CQL_RESET: 'cql-reset',
  SIZING_TABLES: 'sizing-tables',
  SIZE_TABLE: 'size-table',
  DATA_SIZING: 'data-sizing',
  SPLIT: 'split',
  ANALYZE_PART: 'analyze-part',
  MERGE: 'merge',
});

/** Reply types (worker -> page). */
export const Reply = Object.freeze({
  RESULT: 'result',
  ERROR: 'error',
  PROGRESS: 'progress',
});

/** What a cql-load reads. */
export const LoadFormat = Object.freeze({
  JSON: 'json',
  CSV: 'csv',
});

/** Source kinds of an analyze request. */
export const SourceKind = Object.freeze({
  TEXT: 'text',
  BYTES: 'bytes',
  FILE: 'file',
  URL: 'url',
});

/**
 * codeName values of errors raised outside the engine. Their code is null, except io: a file or
 * URL that cannot be read is the engine's own `io` error, its code read from the engine's table.
 */
export const ErrorCodeNames = Object.freeze({
  CANCELLED: 'cancelled',
  BAD_REQUEST: 'bad_request',
  NO_SOURCE: 'no_source',
  NO_ANALYSIS: 'no_analysis',
  IO: 'io',
  ENGINE_LOAD: 'engine_load',
  ENGINE_FAILED: 'engine_failed',
});

export const DEFAULT_MAX_PARTITIONS = 2000;
/** The slot an analysis is kept in when the request names none. */
export const DEFAULT_SLOT = 'main';
/** Hash versions, spread kinds and synthetic key kinds the engine accepts. */
export const HashVersions = Object.freeze(['1', '2', 'multihash']);
export const SpreadKinds = Object.freeze(['uniform', 'field', 'zipf']);
export const SyntheticKinds = Object.freeze(['concat', 'random_suffix', 'hash_suffix']);
export const PROGRESS_INTERVAL_MS = 50;
/** Bytes read from a File or a text at a time. */
export const READ_CHUNK_BYTES = 1 << 20;
/**
 * Whether a worker's reader thread (web/worker/reader.js) has a core of its own beside `busy`
 * engine workers: only then does reading ahead pay (analyze-part readAhead; one pass is 1 busy).
 */
export function readAheadPays(busy) {
  return (globalThis.navigator?.hardwareConcurrency ?? 1) > busy;
}
/** Partitions a CqlView lists for drawing, at most (the ring draws one dot each). */
export const CQL_MAX_PARTITIONS = 4000;
/** Partitions the worker reads from a table's layout to pick the drawn ones from. */
export const CQL_SCAN_PARTITIONS = 50000;
/** The Cosmos DB Cassandra API throughput a view assumes when the page gives none. */
export const COSMOS_DEFAULT_RU = 40000;
/** The ring a CQL session starts with (Cassandra 4's num_tokens default, 3 nodes, even tokens). */
export const DEFAULT_RING = Object.freeze({nodes: 3, num_tokens: 16, random_tokens: false, seed: 1});

const REQUEST_TYPES = new Set(Object.values(Request));
const REPLY_TYPES = new Set(Object.values(Reply));
const SOURCE_KINDS = new Set(Object.values(SourceKind));

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A plain error payload. */
export function errorPayload({name = 'ProtocolError', code = null, codeName, message, location = null, field = null}) {
  return {name, code, codeName, message: String(message), location: location ?? null, field: field ?? null};
}

/** Converts anything thrown into an ErrorPayload (PartplayError has toJSON()). */
export function toErrorPayload(e) {
  if (e && typeof e.toJSON === 'function' && 'codeName' in e) return errorPayload(e.toJSON());
  if (e && e.codeName) return errorPayload(e);
  if (e && e.name === 'AbortError') {
    return errorPayload({name: 'AbortError', codeName: ErrorCodeNames.CANCELLED, message: e.message || 'cancelled'});
  }
  return errorPayload({codeName: ErrorCodeNames.BAD_REQUEST, message: e?.message ?? String(e)});
}

/** Throws a TypeError describing the first problem with a Source, or returns it. */
export function validateSource(source) {
  if (!isObject(source)) throw new TypeError('source must be an object');
  if (!SOURCE_KINDS.has(source.kind)) {
    throw new TypeError(`source.kind must be one of ${[...SOURCE_KINDS].join(', ')}`);
  }
  switch (source.kind) {
    case SourceKind.TEXT:
      if (typeof source.text !== 'string') throw new TypeError('source.text must be a string');
      break;
    case SourceKind.BYTES:
      if (!(source.buffer instanceof ArrayBuffer)) throw new TypeError('source.buffer must be an ArrayBuffer');
      break;
    case SourceKind.FILE:
      if (typeof Blob === 'undefined' || !(source.file instanceof Blob)) {
        throw new TypeError('source.file must be a File or Blob');
      }
      break;
    case SourceKind.URL:
      if (typeof source.url !== 'string' || !/^(https?|blob|data):/i.test(source.url)) {
        throw new TypeError('source.url must be an absolute http(s), blob: or data: URL');
      }
      break;
  }
  if (source.name !== undefined && typeof source.name !== 'string') {
    throw new TypeError('source.name must be a string');
  }
  return source;
}

/** Throws a TypeError unless keyPaths is a non-empty array of strings. (The engine checks syntax.) */
export function validateKeyPaths(keyPaths) {
  if (!Array.isArray(keyPaths) || keyPaths.length === 0) {
    throw new TypeError('keyPaths must be a non-empty array of JSON pointers');
  }
  for (const p of keyPaths) {
    if (typeof p !== 'string') throw new TypeError('every key path must be a string');
  }
  return keyPaths;
}

/** Throws a TypeError unless `slot` is absent or a short name. */
export function validateSlot(slot) {
  if (slot !== undefined && (typeof slot !== 'string' || !/^[a-z][a-z0-9_-]{0,31}$/i.test(slot))) {
    throw new TypeError('slot must be a short name such as "main"');
  }
  return slot;
}

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

/** Throws a TypeError describing the first problem with ContainerOptions (the engine checks ranges). */
export function validateContainer(container) {
  if (container === undefined || container === null) return container;
  if (!isObject(container)) throw new TypeError('container must be an object');
  const c = container;
  if (c.hash_version !== undefined && !HashVersions.includes(c.hash_version)) {
    throw new TypeError(`container.hash_version must be one of ${HashVersions.join(', ')}`);
  }
  for (const field of ['large_partition_keys', 'autoscale']) {
    if (c[field] !== undefined && typeof c[field] !== 'boolean') throw new TypeError(`container.${field} must be a boolean`);
  }
  for (const field of ['ru_per_second', 'growth', 'grown_ru_per_second', 'top_per_range']) {
    if (c[field] !== undefined && !isNumber(c[field])) throw new TypeError(`container.${field} must be a number`);
  }
  if (c.workload !== undefined && c.workload !== null) {
    if (!isObject(c.workload)) throw new TypeError('container.workload must be an object');
    const w = c.workload;
    for (const field of ['point_reads_per_second', 'writes_per_second', 'queries_per_second', 'zipf_exponent',
                         'read_factor', 'write_factor', 'query_ru']) {
      if (w[field] !== undefined && !isNumber(w[field])) throw new TypeError(`container.workload.${field} must be a number`);
    }
    if (w.spread !== undefined && !SpreadKinds.includes(w.spread)) {
      throw new TypeError(`container.workload.spread must be one of ${SpreadKinds.join(', ')}`);
    }
  }
  if (c.route !== undefined && c.route !== null && !Array.isArray(c.route)) {
    throw new TypeError('container.route must be null or an array of key values');
  }
  return container;
}

/** Throws a TypeError describing the first problem with a SyntheticKey. */
export function validateSynthetic(synthetic) {
  if (synthetic === undefined || synthetic === null) return synthetic;
  if (!isObject(synthetic)) throw new TypeError('synthetic must be an object');
  if (!SyntheticKinds.includes(synthetic.kind)) {
    throw new TypeError(`synthetic.kind must be one of ${SyntheticKinds.join(', ')}`);
  }
  if (synthetic.kind === 'concat' &&
      (!Array.isArray(synthetic.paths) || synthetic.paths.some((p) => typeof p !== 'string'))) {
    throw new TypeError('synthetic.paths must be an array of JSON pointers');
  }
  if (synthetic.separator !== undefined && typeof synthetic.separator !== 'string') {
    throw new TypeError('synthetic.separator must be a string');
  }
  for (const field of ['buckets', 'seed']) {
    if (synthetic[field] !== undefined && !(Number.isInteger(synthetic[field]) && synthetic[field] >= 0)) {
      throw new TypeError(`synthetic.${field} must be a whole number`);
    }
  }
  if (synthetic.kind === 'hash_suffix' && typeof synthetic.suffix_path !== 'string') {
    throw new TypeError('synthetic.suffix_path must be a JSON pointer');
  }
  return synthetic;
}

function validateAnalysisOptions(payload) {
  validateOptionalCount(payload, 'discoverItems');
  validateOptionalCount(payload, 'maxPartitions');
  validateSlot(payload.slot);
  if (payload.weightPath !== undefined && payload.weightPath !== null && typeof payload.weightPath !== 'string') {
    throw new TypeError('weightPath must be a JSON pointer');
  }
  validateSynthetic(payload.synthetic);
  validateContainer(payload.container);
}


/**
 * Throws a TypeError unless `ring` has the shape of RingOptions. Its limits (nodes, vnodes per
 * node, datacenters) are the engine's rules, checked there once (ring.h): a ring it refuses is
 * an error reply with codeName 'bad_option'.
 */
export function validateRing(ring) {
  if (!isObject(ring)) throw new TypeError('ring must be an object');
  for (const field of ['nodes', 'num_tokens', 'seed']) {
    if (ring[field] !== undefined && !isNumber(ring[field])) throw new TypeError(`ring.${field} must be a number`);
  }
  if (ring.random_tokens !== undefined && typeof ring.random_tokens !== 'boolean') {
    throw new TypeError('ring.random_tokens must be a boolean');
  }
  if (ring.datacenters !== undefined) {
    if (!Array.isArray(ring.datacenters)) throw new TypeError('ring.datacenters must be an array');
    for (const dc of ring.datacenters) {
      if (!isObject(dc) || typeof dc.name !== 'string' || !isNumber(dc.nodes) || !(dc.racks === undefined || isNumber(dc.racks))) {
        throw new TypeError('each datacenter is {name: string, nodes: number, racks?: number}');
      }
    }
  }
  return ring;
}

/** Throws a TypeError unless the optional CQL view fields (table, ru, maxPartitions) are well-formed. */
function validateCqlViewOptions(payload) {
  if (payload.table !== undefined && payload.table !== null && typeof payload.table !== 'string') {
    throw new TypeError('table must be a string such as "ks.table"');
  }
  if (payload.ru !== undefined && !(isNumber(payload.ru) && payload.ru >= 0)) throw new TypeError('ru must be a number >= 0');
  validateOptionalCount(payload, 'maxPartitions');
}

function validateOptionalBoolean(payload, field) {
  if (payload[field] !== undefined && typeof payload[field] !== 'boolean') {
    throw new TypeError(`${field} must be a boolean`);
  }
}

function validateOptionalCount(payload, field) {
  const v = payload[field];
  if (v !== undefined && v !== null && !(Number.isInteger(v) && v >= -1)) {
    throw new TypeError(`${field} must be an integer >= -1`);
  }
}

/** Most keys one compare request judges, and most queries it lists (the engine's limits). */
export const MAX_COMPARED_KEYS = 8;
export const MAX_COMPARED_QUERIES = 16;

/** compare's keys: 1..MAX_COMPARED_KEYS engine analysis options, each with key_paths. */
export function validateCompareKeys(keys) {
  if (!Array.isArray(keys) || keys.length < 1 || keys.length > MAX_COMPARED_KEYS) {
    throw new TypeError(`keys must be an array of 1 to ${MAX_COMPARED_KEYS} key options`);
  }
  for (const key of keys) {
    if (!isObject(key)) throw new TypeError('each key must be an object {key_paths, synthetic?}');
    validateKeyPaths(key.key_paths);
  }
}

/** compare/recompare's container and queries. */
function validateCompareModel(payload) {
  validateContainer(payload.container);
  const queries = payload.queries;
  if (queries === undefined || queries === null) return;
  if (!Array.isArray(queries) || queries.length > MAX_COMPARED_QUERIES) {
    throw new TypeError(`queries must be an array of at most ${MAX_COMPARED_QUERIES} {filter} objects`);
  }
  for (const q of queries) {
    if (!isObject(q) || !Array.isArray(q.filter) || q.filter.some((p) => typeof p !== 'string')) {
      throw new TypeError('each query must be {filter: ["/path", ...]}');
    }
  }
}

const LOAD_FORMATS = new Set(Object.values(LoadFormat));
const CSV_TEXT_OPTIONS = ['delimiter', 'quote', 'escape', 'null', 'datetimeformat'];

/** Throws a TypeError unless cql-load's format and csv options are well-formed (the engine checks values). */
export function validateLoadFormat({format, csv}) {
  if (format !== undefined && !LOAD_FORMATS.has(format)) {
    throw new TypeError(`format must be one of ${[...LOAD_FORMATS].join(', ')}`);
  }
  if (csv === undefined || csv === null) return;
  if (!isObject(csv)) throw new TypeError('csv must be an object of CSV options');
  if (csv.header !== undefined && typeof csv.header !== 'boolean') throw new TypeError('csv.header must be a boolean');
  for (const field of CSV_TEXT_OPTIONS) {
    if (csv[field] !== undefined && typeof csv[field] !== 'string') throw new TypeError(`csv.${field} must be a string`);
  }
  if (csv.columns !== undefined && (!Array.isArray(csv.columns) || csv.columns.some((c) => typeof c !== 'string'))) {
    throw new TypeError('csv.columns must be an array of column names');
  }
}

/** Validates a request message; returns it or throws a TypeError. */
export function validateRequest(message) {
  if (!isObject(message)) throw new TypeError('a request must be an object');
  if (!Number.isSafeInteger(message.id)) throw new TypeError('request.id must be an integer');
  if (!REQUEST_TYPES.has(message.type)) throw new TypeError(`unknown request type: ${String(message.type)}`);
  const payload = message.payload ?? {};
  if (!isObject(payload)) throw new TypeError('request.payload must be an object');
  switch (message.type) {
    case Request.ANALYZE:
      validateSource(payload.source);
      validateKeyPaths(payload.keyPaths);
      validateAnalysisOptions(payload);
      break;
    case Request.REANALYZE:
      validateKeyPaths(payload.keyPaths);
      validateAnalysisOptions(payload);
      break;
    case Request.MODEL:
      validateSlot(payload.slot);
      validateOptionalCount(payload, 'maxPartitions');
      validateContainer(payload.container);
      break;
    case Request.COMPARE:
      validateCompareKeys(payload.keys);
      validateCompareModel(payload);
      if (payload.weightPath !== undefined && typeof payload.weightPath !== 'string') {
        throw new TypeError('weightPath must be a string');
      }
      break;
    case Request.RECOMPARE:
      validateCompareModel(payload);
      break;
    case Request.RELEASE:
      if (typeof payload.slot !== 'string') throw new TypeError('release needs a slot');
      validateSlot(payload.slot);
      break;
    case Request.CANCEL:
      if (payload.target !== undefined && !Number.isSafeInteger(payload.target)) {
        throw new TypeError('cancel target must be a request id');
      }
      break;
    case Request.CQL:
      if (typeof payload.script !== 'string') throw new TypeError('cql needs a script (a string)');
      if (payload.replicationFactor !== undefined && payload.replicationFactor !== null &&
          !(Number.isInteger(payload.replicationFactor) && payload.replicationFactor >= 1)) {
        throw new TypeError('replicationFactor must be a whole number >= 1');
      }
      validateCqlViewOptions(payload);
      break;
    case Request.RING:
      validateRing(payload.ring);
      validateCqlViewOptions(payload);
      break;
    case Request.CQL_VIEW:
    case Request.CQL_RESET:
      validateCqlViewOptions(payload);
      break;
    case Request.SIZE_TABLE:
      if (!isObject(payload.request)) throw new TypeError('size-table needs a request (an object)');
      break;
    case Request.SIZING_TABLES:
      if (typeof payload.cql !== 'string') throw new TypeError('sizing-tables needs cql (a string)');
      break;
    case Request.DATA_SIZING:
      validateSlot(payload.slot);
      for (const field of ['valuesPerRow', 'maxExamples']) {
        if (payload[field] !== undefined && !(isNumber(payload[field]) && payload[field] >= 0)) {
          throw new TypeError(`${field} must be a number >= 0`);
        }
      }
      break;
    case Request.SPLIT:
      validateSource(payload.source);
      if (payload.source.kind !== SourceKind.FILE) throw new TypeError('split reads a file source');
      if (!(Number.isInteger(payload.parts) && payload.parts >= 1)) throw new TypeError('parts must be a whole number >= 1');
      if (payload.minPartBytes !== undefined && !(isNumber(payload.minPartBytes) && payload.minPartBytes >= 0)) {
        throw new TypeError('minPartBytes must be a number >= 0');
      }
      break;
    case Request.ANALYZE_PART:
      validateSource(payload.source);
      if (payload.source.kind !== SourceKind.FILE) throw new TypeError('analyze-part reads a file source');
      if (!(Number.isSafeInteger(payload.begin) && Number.isSafeInteger(payload.end) && payload.begin >= 0 &&
            payload.begin <= payload.end && payload.end <= payload.source.file.size)) {
        throw new TypeError('begin and end must be byte offsets within the file, begin <= end');
      }
      if (typeof payload.first !== 'boolean') throw new TypeError('first must be a boolean');
      validateOptionalBoolean(payload, 'idRecords');
      validateOptionalBoolean(payload, 'readAhead');
      validateKeyPaths(payload.keyPaths);
      validateAnalysisOptions(payload);
      break;
    case Request.MERGE:
      if (!Array.isArray(payload.partials) || payload.partials.some((p) => !(p instanceof ArrayBuffer))) {
        throw new TypeError('partials must be an array of ArrayBuffers');
      }
      validateSlot(payload.slot);
      validateOptionalCount(payload, 'maxPartitions');
      validateContainer(payload.container);
      break;
    case Request.CQL_LOAD:
      if (typeof payload.table !== 'string' || payload.table === '') throw new TypeError('cql-load needs a table');
      validateSource(payload.source);
      validateCqlViewOptions(payload);
      validateLoadFormat(payload);
      break;
  }
  return message;
}

/** Validates a reply message; returns it or throws a TypeError. */
export function validateReply(message) {
  if (!isObject(message)) throw new TypeError('a reply must be an object');
  if (!Number.isSafeInteger(message.id)) throw new TypeError('reply.id must be an integer');
  if (!REPLY_TYPES.has(message.type)) throw new TypeError(`unknown reply type: ${String(message.type)}`);
  if (message.type === Reply.ERROR) {
    const p = message.payload;
    if (!isObject(p) || typeof p.message !== 'string') throw new TypeError('error reply needs payload.message');
  }
  if (message.type === Reply.PROGRESS) {
    const p = message.payload;
    if (!isObject(p) || typeof p.bytesDone !== 'number') throw new TypeError('progress reply needs payload.bytesDone');
  }
  return message;
}

/** Builders, so both sides spell messages the same way. */
export const request = (id, type, payload = {}) => ({id, type, payload});
export const result = (id, payload) => ({id, type: Reply.RESULT, payload});
export const error = (id, payload) => ({id, type: Reply.ERROR, payload: errorPayload(payload)});
export const progress = (id, {bytesDone, bytesTotal = null, items = 0, compressed = null, failed}) =>
  ({id, type: Reply.PROGRESS,
    payload: failed === undefined ? {bytesDone, bytesTotal, items, compressed}
      : {bytesDone, bytesTotal, items, compressed, failed}});
