// The engine worker: the only module that loads the wasm engine. Started by web/client.js as
//   new Worker(new URL('./worker.js', import.meta.url), {type: 'module'})
// and spoken to with the protocol in web/protocol.js (read that first).
//
// Sources are streamed into the engine chunk by chunk (File.stream(), fetch bodies, 1 MiB slices
// of text and byte buffers); nothing big is read whole. Progress goes out at most every
// PROGRESS_INTERVAL_MS; cancellation is checked between chunks.
//
// A finished analysis is kept (not disposed) in its slot, so `model` can re-report it with other
// container options without reading the data again; the page keeps 'main' (the key typed) and
// 'synthetic' (the same data under a synthetic key).
//
// The Cassandra mode's CQL session lives here too (the end of this file): scripts, the ring, the
// views the page draws, and JSON files loaded into tables a batch of whole objects at a time.
import {
  COSMOS_DEFAULT_RU, CQL_MAX_PARTITIONS, CQL_SCAN_PARTITIONS, DEFAULT_MAX_PARTITIONS, DEFAULT_RING, DEFAULT_SLOT,
  ErrorCodeNames, IO_CODE, PROGRESS_INTERVAL_MS, READ_CHUNK_BYTES, Reply, Request, SourceKind, errorPayload, progress,
  result, toErrorPayload, validateRequest,
} from './protocol.js';
import {JsonBatcher, lineColumn} from './json-batches.js';

/** The engine, loaded once: {api, engine} or a rejected promise with an ErrorPayload. */
const enginePromise = (async () => {
  try {
    const api = await import('./engine/partplay-api.mjs');
    const engine = await api.createEngine();
    return {api, engine};
  } catch (e) {
    throw errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD,
                        message: `The analysis engine could not be loaded: ${e?.message ?? e}`});
  }
})();
// Avoid an "unhandled rejection" report; every request awaits it and reports the error itself.
enginePromise.catch(() => {});

/** The job in flight: {id, cancelled}. A new analysis cancels the previous one. */
let current = null;
/** The last analyzed source, kept for reanalyze: {kind, name, text?|bytes?|file?|url?}. */
let lastSource = null;
/** Finished analyses by slot: {analysis, source: {kind, name, bytes}, keyPaths}. */
const slots = new Map();

function keepInSlot(slot, entry) {
  slots.get(slot)?.analysis.dispose();
  slots.set(slot, entry);
}

function releaseSlot(slot) {
  const entry = slots.get(slot);
  if (!entry) return false;
  entry.analysis.dispose();
  slots.delete(slot);
  return true;
}

class AbortError extends Error {
  constructor() {
    super('The analysis was cancelled.');
    this.name = 'AbortError';
  }
}

function ioError(message) {
  return errorPayload({name: 'PartplayError', code: IO_CODE, codeName: ErrorCodeNames.IO, message});
}

/** Lets queued messages (a cancel, a newer analyze) run. A macrotask, not a microtask. */
function yieldToEvents() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Turns a request's source into the form kept for reanalyze (text is encoded once here). */
function keepSource(source) {
  const name = source.name ?? null;
  switch (source.kind) {
    case SourceKind.TEXT:
      return {kind: SourceKind.TEXT, name, bytes: new TextEncoder().encode(source.text)};
    case SourceKind.BYTES:
      return {kind: SourceKind.BYTES, name, bytes: new Uint8Array(source.buffer)};
    case SourceKind.FILE:
      return {kind: SourceKind.FILE, name: name ?? source.file.name ?? null, file: source.file};
    case SourceKind.URL:
      return {kind: SourceKind.URL, name: name ?? source.url, url: source.url};
  }
  throw new TypeError(`unknown source kind ${source.kind}`);
}

/** Slices an in-memory buffer into READ_CHUNK_BYTES pieces. */
async function* sliceBytes(bytes) {
  for (let at = 0; at < bytes.length; at += READ_CHUNK_BYTES) {
    yield bytes.subarray(at, Math.min(bytes.length, at + READ_CHUNK_BYTES));
  }
}

/** Reads a ReadableStream of Uint8Array chunks. */
async function* readStream(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) return;
      if (value && value.length) yield value;
    }
  } finally {
    // Stops the underlying read when we leave early (cancel, engine error).
    reader.cancel().catch(() => {});
  }
}

/** Reads a File/Blob as a stream, or in READ_CHUNK_BYTES slices where Blob.stream is missing. */
async function* readFile(file) {
  if (typeof file.stream === 'function') {
    try {
      yield* readStream(file.stream());
    } catch (e) {
      if (e instanceof AbortError) throw e;
      throw ioError(`The file "${file.name ?? 'file'}" could not be read: ${e?.message ?? e}`);
    }
    return;
  }
  for (let at = 0; at < file.size; at += READ_CHUNK_BYTES) {
    const piece = file.slice(at, Math.min(file.size, at + READ_CHUNK_BYTES));
    yield new Uint8Array(await piece.arrayBuffer());
  }
}

/** Opens a source: {bytesTotal, chunks: AsyncIterable<Uint8Array>}. */
async function openSource(kept) {
  switch (kept.kind) {
    case SourceKind.TEXT:
    case SourceKind.BYTES:
      return {bytesTotal: kept.bytes.length, chunks: sliceBytes(kept.bytes)};
    case SourceKind.FILE:
      return {bytesTotal: kept.file.size, chunks: readFile(kept.file)};
    case SourceKind.URL: {
      let response;
      try {
        response = await fetch(kept.url);
      } catch (e) {
        throw ioError(`${kept.url} could not be fetched: ${e?.message ?? e}`);
      }
      if (!response.ok) throw ioError(`${kept.url} could not be fetched: HTTP ${response.status} ${response.statusText}`);
      const length = Number(response.headers.get('Content-Length'));
      const encoded = response.headers.get('Content-Encoding');
      const bytesTotal = Number.isFinite(length) && length > 0 && !encoded ? length : null;
      if (!response.body) {
        return {bytesTotal, chunks: sliceBytes(new Uint8Array(await response.arrayBuffer()))};
      }
      return {bytesTotal, chunks: readStream(response.body)};
    }
  }
  throw new TypeError(`unknown source kind ${kept.kind}`);
}

/** The options object handed to engine.newAnalysis (docs/report.md names, snake_case). */
function engineOptions({keyPaths, discoverItems, weightPath, synthetic}) {
  const options = {key_paths: keyPaths};
  if (Number.isInteger(discoverItems) && discoverItems >= -1) options.discover_items = discoverItems;
  if (typeof weightPath === 'string' && weightPath !== '') options.weight_path = weightPath;
  if (synthetic) options.synthetic = synthetic;
  return options;
}

/** The options of analysis.finish / analysis.model: container only when given (the old behaviour otherwise). */
function reportOptions({maxPartitions, container}) {
  const options = {maxPartitions: maxPartitions ?? DEFAULT_MAX_PARTITIONS};
  if (container) options.container = container;
  return options;
}

/** Posts a report as the result of request `id`, transferring partition_bytes' buffer. */
function postReport(id, report) {
  // Copy first if it is a view into a larger (wasm) buffer.
  let sizes = report.partition_bytes;
  if (sizes && (sizes.byteOffset !== 0 || sizes.buffer.byteLength !== sizes.byteLength)) {
    sizes = report.partition_bytes = sizes.slice();
  }
  const transfer = sizes?.buffer ? [sizes.buffer] : [];
  postMessage(result(id, report), transfer);
}

function model(id, {slot = DEFAULT_SLOT, container = null, maxPartitions}) {
  const entry = slots.get(slot);
  if (!entry) {
    throw errorPayload({codeName: ErrorCodeNames.NO_ANALYSIS,
                        message: `Nothing is analyzed in slot "${slot}" yet: analyze some data first.`});
  }
  if (typeof entry.analysis.model !== 'function') {
    throw errorPayload({codeName: ErrorCodeNames.BAD_REQUEST,
                        message: 'This engine build cannot re-model an analysis; rebuild it (make site).'});
  }
  const started = performance.now();
  const report = entry.analysis.model(reportOptions({maxPartitions, container}));
  const ms = performance.now() - started;
  report.source = entry.source;
  report.timing = {ms, bytesPerSecond: null};
  report.slot = slot;
  postReport(id, report);
}

async function analyze(id, kept, payload) {
  if (current) current.cancelled = true;
  const job = {id, cancelled: false};
  current = job;
  const slot = payload.slot ?? DEFAULT_SLOT;
  try {
    const {engine} = await enginePromise;
    if (job.cancelled) throw new AbortError();
    const started = performance.now();
    const analysis = engine.newAnalysis(engineOptions(payload));
    let finished = false;
    try {
      const {bytesTotal, chunks} = await openSource(kept);
      let lastPost = performance.now();
      let bytesRead = 0;
      postMessage(progress(id, {bytesDone: 0, bytesTotal, items: 0}));
      for await (const chunk of chunks) {
        if (job.cancelled) throw new AbortError();
        analysis.feed(chunk);
        bytesRead += chunk.length;
        const now = performance.now();
        if (now - lastPost >= PROGRESS_INTERVAL_MS) {
          lastPost = now;
          postMessage(progress(id, {bytesDone: analysis.bytesConsumed, bytesTotal, items: analysis.itemsSeen}));
          await yieldToEvents();
          if (job.cancelled) throw new AbortError();
        }
      }
      const report = analysis.finish(reportOptions(payload));
      const ms = performance.now() - started;
      postMessage(progress(id, {bytesDone: bytesRead, bytesTotal: bytesTotal ?? bytesRead, items: report.items}));
      const source = {kind: kept.kind, name: kept.name ?? null, bytes: bytesRead};
      report.source = source;
      report.timing = {ms, bytesPerSecond: ms > 0 ? bytesRead / (ms / 1000) : null};
      report.slot = slot;
      keepInSlot(slot, {analysis, source, keyPaths: report.key_paths ?? payload.keyPaths});
      finished = true;
      postReport(id, report);
    } finally {
      if (!finished) analysis.dispose();
    }
  } finally {
    if (current === job) current = null;
  }
}

async function handle(message) {
  const {id, type, payload = {}} = message;
  switch (type) {
    case Request.INIT: {
      const {engine} = await enginePromise;
      return {version: engine.version(), errorCodes: engine.errorCodes()};
    }
    case Request.ANALYZE: {
      const kept = keepSource(payload.source);
      lastSource = kept;
      await analyze(id, kept, payload);
      return undefined; // analyze posts its own result (with a transfer list)
    }
    case Request.REANALYZE: {
      if (!lastSource) {
        throw errorPayload({codeName: ErrorCodeNames.NO_SOURCE, message: 'Nothing was analyzed yet: choose some data first.'});
      }
      await analyze(id, lastSource, payload);
      return undefined;
    }
    case Request.MODEL: {
      model(id, payload);
      return undefined; // model posts its own result (with a transfer list)
    }
    case Request.RELEASE:
      return {released: releaseSlot(payload.slot)};
    case Request.CANCEL: {
      const target = payload.target;
      if (current && (target === undefined || current.id === target)) {
        current.cancelled = true;
        return {cancelled: true};
      }
      if (cqlLoadJob && target !== undefined && cqlLoadJob.id === target) {
        cqlLoadJob.cancelled = true;
        return {cancelled: true};
      }
      return {cancelled: false};
    }
    case Request.CQL:
      return runCql(payload);
    case Request.RING:
      return configureRing(payload);
    case Request.CQL_VIEW:
      return buildView(await cqlSession(), payload);
    case Request.CQL_LOAD:
      return loadIntoTable(id, payload);
    case Request.CQL_RESET:
      return resetCql(payload);
    case Request.SIZE_TABLE:
      return sizeTable(payload);
    case Request.DATA_SIZING:
      return dataSizing(payload);
  }
  throw new TypeError(`unknown request type ${type}`);
}

self.addEventListener('message', async (event) => {
  const message = event.data;
  const id = Number.isSafeInteger(message?.id) ? message.id : -1;
  try {
    validateRequest(message);
    const payload = await handle(message);
    if (payload !== undefined) postMessage(result(id, payload));
  } catch (e) {
    postMessage({id, type: Reply.ERROR, payload: toErrorPayload(e)});
  }
});

// =============================================================================================
// The CQL session of the Cassandra mode (protocol.js, "CQL requests"). One session for the page;
// its keyspaces and tables persist between requests until cql-reset.

/** The engine's CqlSession, created on first use. */
let cql = null;
/** The ring options in effect (the session starts with DEFAULT_RING). */
let ringOptions = {...DEFAULT_RING};
/** The table the last view showed ('ks.t'), kept when a later request names none. */
let viewTable = null;
/** The cql-load in flight: {id, cancelled}. */
let cqlLoadJob = null;

/** CosmosCassandraApi's request units per physical partition (engine/include/partplay/cassandra/ring.h). */
const COSMOS_RU_PER_PHYSICAL_PARTITION = 10000;
const TWO_64 = 1n << 64n;
const MIN_TOKEN = -(1n << 63n);
const MAX_TOKEN = (1n << 63n) - 1n;

async function cqlSession() {
  const {engine} = await enginePromise;
  if (!cql) {
    if (typeof engine.createCqlSession !== 'function') {
      throw errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD,
                          message: 'This engine build has no CQL session; rebuild the site (make site).'});
    }
    cql = engine.createCqlSession();
    cql.configureRing(ringOptions);
  }
  return cql;
}

/** The result of a DESCRIBE statement, or '' (it runs no user statement and changes nothing). */
function describe(session, statement) {
  const r = session.execute(statement).results?.[0];
  return r?.kind === 'describe' ? r.message ?? '' : '';
}

const NAME = String.raw`(?:"(?:[^"]|"")*"|[A-Za-z0-9_]+)`;
/** A CQL name as the engine stores it: quoted names as written, unquoted ones lower-cased. */
function unquote(name) {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toLowerCase();
}

/**
 * Every keyspace with its replication and tables, read from DESCRIBE KEYSPACES and
 * DESCRIBE KEYSPACE (the CQL session has no listing call).
 */
function listKeyspaces(session) {
  const names = describe(session, 'DESCRIBE KEYSPACES').match(new RegExp(NAME, 'g')) ?? [];
  return names.map((quoted) => {
    const text = describe(session, `DESCRIBE KEYSPACE ${quoted}`);
    const first = text.split('\n')[0] ?? '';
    const map = /replication\s*=\s*(\{[^}]*\})/.exec(first)?.[1] ?? '';
    const options = {};
    for (const [, k, v] of map.matchAll(/'((?:[^']|'')*)'\s*:\s*'((?:[^']|'')*)'/g)) {
      options[k.replaceAll("''", "'")] = v.replaceAll("''", "'");
    }
    const cls = (options.class ?? '').split('.').pop();
    delete options.class;
    const tables = [...text.matchAll(new RegExp(String.raw`^CREATE TABLE ${NAME}\.(${NAME}) \(`, 'gm'))]
      .map((m) => unquote(m[1]));
    return {name: unquote(quoted), replication: {class: cls, options}, text: first, tables};
  });
}

const TABLE_PATTERNS = [
  new RegExp(String.raw`^\s*SELECT\b[\s\S]*?\bFROM\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
  new RegExp(String.raw`^\s*DELETE\b[\s\S]*?\bFROM\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
  new RegExp(String.raw`^\s*INSERT\s+INTO\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
  new RegExp(String.raw`^\s*UPDATE\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
  new RegExp(String.raw`^\s*CREATE\s+(?:TABLE|COLUMNFAMILY)\s+(?:IF\s+NOT\s+EXISTS\s+)?(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
  new RegExp(String.raw`^\s*TRUNCATE\s+(?:TABLE\s+)?(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
  new RegExp(String.raw`^\s*DESCRIBE\s+(?:TABLE|COLUMNFAMILY)\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'i'),
];

/** The tables ('ks.t') the script's statements name, the last first, resolving unqualified names by USE. */
function tablesNamed(results, keyspaceBefore) {
  let keyspace = keyspaceBefore;
  const named = [];
  for (const r of results) {
    const text = r.statement ?? '';
    if (r.verb === 'USE' && r.kind !== 'error') {
      const m = new RegExp(String.raw`^\s*USE\s+(${NAME})`, 'i').exec(text);
      if (m) keyspace = unquote(m[1]);
      continue;
    }
    for (const pattern of TABLE_PATTERNS) {
      const m = pattern.exec(text);
      if (!m) continue;
      const parts = m[1].match(new RegExp(NAME, 'g')).map(unquote);
      const name = parts.length === 2 ? `${parts[0]}.${parts[1]}` : keyspace ? `${keyspace}.${parts[0]}` : null;
      if (name) named.push(name);
      break;
    }
  }
  return named.reverse();
}

/** Which physical partition of `count` even token slices holds `token` (CosmosCassandraApi::PhysicalPartitionOf). */
function physicalSliceWidth(count) {
  return (TWO_64 - 1n) / BigInt(count) + 1n;
}

/** The Cosmos DB Cassandra API model of a table's layout (protocol.js CqlView.cosmos). */
function cosmosOf(layout, ru) {
  const c = layout.cosmos;
  const forStorage = Math.ceil(layout.bytes / c.physical_partition_bytes);
  const forThroughput = Math.ceil(ru / COSMOS_RU_PER_PHYSICAL_PARTITION);
  const count = Math.max(1, forStorage, forThroughput);
  const width = physicalSliceWidth(count);
  const ranges = [];
  for (let i = 0; i < count; i++) {
    const min = MIN_TOKEN + width * BigInt(i);
    const max = i === count - 1 ? MAX_TOKEN : min + width - 1n;
    ranges.push({id: i, min: String(min), max: String(max), partitions: 0, rows: 0, bytes: 0});
  }
  for (const p of layout.partitions) {
    const index = Number((BigInt(p.token) - MIN_TOKEN) / width);
    const range = ranges[Math.min(count - 1, index)];
    range.partitions++;
    range.rows += p.rows;
    range.bytes += p.bytes;
  }
  return {ru_per_second: ru, physical_partitions: count, for_storage: forStorage, for_throughput: forThroughput,
          ru_per_physical_partition: COSMOS_RU_PER_PHYSICAL_PARTITION,
          exact: layout.partitions.length >= layout.partition_count, ranges};
}

/** The CqlView of `table` (or of the first existing of `candidates`, the previous table, the first table). */
function buildView(session, {table, candidates = [], ru = COSMOS_DEFAULT_RU, maxPartitions = CQL_MAX_PARTITIONS} = {}) {
  const keyspaces = listKeyspaces(session);
  const all = keyspaces.flatMap((k) => k.tables.map((t) => `${k.name}.${t}`));
  const chosen = [table, ...candidates, viewTable].find((t) => t && all.includes(t)) ?? all[0] ?? null;
  viewTable = chosen;
  const keyspace = chosen ? chosen.slice(0, chosen.indexOf('.')) : session.currentKeyspace() || keyspaces[0]?.name || null;
  const ring = session.ring(keyspace ?? '');
  let layout = null;
  let cosmos = null;
  if (chosen) {
    layout = session.tableLayout(chosen, CQL_SCAN_PARTITIONS);
    cosmos = cosmosOf(layout, ru);
    const scanned = layout.partitions.length;
    const every = Math.max(1, Math.ceil(scanned / Math.max(1, maxPartitions)));
    if (every > 1) layout.partitions = layout.partitions.filter((p, i) => i % every === 0);
    layout.partitions_scanned = scanned;
    layout.sample_every = every;
  }
  return {keyspaces, table: chosen, keyspace, ringOptions: {...ringOptions}, ring, layout, cosmos};
}

async function runCql({script, table, ru, maxPartitions}) {
  const session = await cqlSession();
  const started = performance.now();
  const before = session.currentKeyspace();
  const {results} = session.execute(script);
  const ms = performance.now() - started;
  const candidates = tablesNamed(results, before);
  return {results, keyspace: session.currentKeyspace(), view: buildView(session, {table, candidates, ru, maxPartitions}),
          timing: {ms}};
}

async function configureRing({ring, table, ru, maxPartitions}) {
  const session = await cqlSession();
  const options = {...DEFAULT_RING, ...ring};
  if (!options.datacenters?.length) delete options.datacenters;
  session.configureRing(options);  // throws PartplayError bad_option; the old ring stays
  ringOptions = options;
  return buildView(session, {table, ru, maxPartitions});
}

async function resetCql({ru, maxPartitions}) {
  cql?.dispose();
  cql = null;
  viewTable = null;
  return buildView(await cqlSession(), {ru, maxPartitions});
}

async function loadIntoTable(id, {table, source, ru, maxPartitions}) {
  const session = await cqlSession();
  if (cqlLoadJob) cqlLoadJob.cancelled = true;
  const job = {id, cancelled: false};
  cqlLoadJob = job;
  const started = performance.now();
  const kept = keepSource(source);
  let rows = 0;
  const position = {lines: 0, lastNewline: -1};
  try {
    const {bytesTotal, chunks} = await openSource(kept);
    const batcher = new JsonBatcher();
    let bytesRead = 0;
    let lastPost = performance.now();
    postMessage(progress(id, {bytesDone: 0, bytesTotal, items: 0}));
    const load = (batch) => {
      const start = batcher.offset;
      try {
        rows += session.loadJson(table, batch);
      } catch (e) {
        const loc = e?.location;
        const loaded = rows + Math.max(0, loc?.item_index ?? 0);
        if (loc && loc.byte_offset >= 0) {
          const at = loc.byte_offset;
          const {line, column} = lineColumn(batch, at, position, start);
          e.location = {byte_offset: start + at, line, column, item_index: loaded};
        }
        if (e && typeof e.message === 'string') {
          e.message = `${e.message} (${loaded.toLocaleString('en-US')} row${loaded === 1 ? ' was' : 's were'} loaded before it)`;
        }
        throw e;
      }
      for (let i = 0; i < batch.length; i++) {
        if (batch[i] === 0x0a) {
          position.lines++;
          position.lastNewline = start + i;
        }
      }
      batcher.offset = start + batch.length;
    };
    for await (const chunk of chunks) {
      if (job.cancelled) throw new AbortError();
      bytesRead += chunk.length;
      const batch = batcher.push(chunk);
      if (batch) load(batch);
      const now = performance.now();
      if (now - lastPost >= PROGRESS_INTERVAL_MS) {
        lastPost = now;
        postMessage(progress(id, {bytesDone: batcher.offset, bytesTotal, items: rows}));
        await yieldToEvents();
        if (job.cancelled) throw new AbortError();
      }
    }
    const end = batcher.finish();
    if (end && !end.truncated) load(end.rest);
    if (end?.truncated) {
      throw errorPayload({name: 'PartplayError', code: 15, codeName: 'truncated_input',
                          message: `the input ends inside the array (its ']' is missing); ${rows.toLocaleString('en-US')} rows were loaded`,
                          location: {byte_offset: bytesRead, line: 0, column: 0, item_index: rows}});
    }
    if (rows === 0 && bytesRead === 0) {
      throw errorPayload({name: 'PartplayError', code: 10, codeName: 'empty_input', message: 'The file is empty.'});
    }
    const ms = performance.now() - started;
    postMessage(progress(id, {bytesDone: bytesRead, bytesTotal: bytesTotal ?? bytesRead, items: rows}));
    return {rows, view: buildView(session, {table, ru, maxPartitions}),
            timing: {ms, bytesPerSecond: ms > 0 ? bytesRead / (ms / 1000) : null}};
  } finally {
    if (cqlLoadJob === job) cqlLoadJob = null;
  }
}

// =============================================================================================
// Sizing (protocol.js, "Sizing requests"; docs/sizing.md): a CQL table from its schema and
// estimates, and the analysis kept in a slot measured as Cassandra partitions.

async function sizeTable({request}) {
  const {engine} = await enginePromise;
  if (typeof engine.sizeTable !== 'function') {
    throw errorPayload({codeName: ErrorCodeNames.ENGINE_LOAD,
                        message: 'This engine build cannot size tables; rebuild the site (make site).'});
  }
  return engine.sizeTable(request);
}

async function dataSizing({slot = DEFAULT_SLOT, valuesPerRow, maxExamples}) {
  await enginePromise;
  const entry = slots.get(slot);
  if (!entry) {
    throw errorPayload({codeName: ErrorCodeNames.NO_ANALYSIS,
                        message: `Nothing is analyzed in slot "${slot}" yet: analyze some data first.`});
  }
  const report = entry.analysis.dataSizing({valuesPerRow: valuesPerRow > 0 ? valuesPerRow : -1,
                                            maxExamples: maxExamples ?? 10});
  report.slot = slot;
  report.source = entry.source;
  report.key_paths = entry.keyPaths ?? [];
  return report;
}
