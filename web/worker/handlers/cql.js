// Handlers of the Cassandra mode (protocol.js cql, ring, cql-view, cql-load, cql-reset): one CQL
// session for the page (the engine's CqlSession), whose keyspaces and tables persist between
// requests until cql-reset, and the CqlView each answer draws. The Sizing mode reads the same
// session (cql-tables, size-cql-rows): a table sized from the rows the Cassandra mode put in it.
// A CqlView is
//   {keyspaces: CqlSession.keyspaces(), table: 'ks.t' | null, keyspace, ringOptions (the ring
//    options last asked; the engine's defaults for the rest), ring: CqlSession.ring(keyspace),
//    layout: null | CqlSession.tableLayout(table, ...), cosmos: layout.cosmos | null}
// JSON or CSV files are streamed into tables chunk by chunk (the engine frames and locates rows).
import {PartplayError} from '../../common/errors.js';
import {engineDead, engineLimit, noteFailure} from '../engines.js';
import {compressedProgress, keepSource, openSource, readSource, yieldToEvents} from '../io.js';
import {throwIfCancelled} from '../jobs.js';
import {LoadFormat, PROGRESS_INTERVAL_MS} from '../protocol.js';

/** The engine's CqlSession, created on first use. */
let cql = null;
/** The ring options last asked (the session starts with the engine's default ring). */
let ringOptions = {};
/** The table the last view showed ('ks.t'), kept when a later request names none. */
let viewTable = null;

async function cqlSession(ctx) {
  const {engine} = await ctx.engine();
  if (!cql) {
    cql = engine.createCqlSession();
    cql.configureRing(ringOptions);
  }
  return cql;
}

/** The CqlView of `table` (or of the first existing of `candidates`, the previous table, the first table). */
function buildView(session, {table, candidates = [], ru, maxPartitions} = {}) {
  const keyspaces = session.keyspaces();
  const tables = keyspaces.flatMap((k) => k.tables.map((t) => ({keyspace: k.name, name: `${k.name}.${t}`})));
  const chosen = [table, ...candidates, viewTable].map((t) => tables.find((e) => e.name === t)).find(Boolean) ??
    tables[0] ?? null;
  viewTable = chosen?.name ?? null;
  const keyspace = chosen?.keyspace ?? (session.currentKeyspace() || keyspaces[0]?.name || null);
  const ring = session.ring(keyspace ?? '');
  const layout = chosen
    ? session.tableLayout(chosen.name, {scan_partitions: engineLimit('cql_view_scan_partitions'),
                                        max_partitions: maxPartitions ?? engineLimit('cql_view_max_partitions'),
                                        ru_per_second: ru ?? engineLimit('cosmos_cassandra_api_default_ru_per_second')})
    : null;
  return {keyspaces, table: viewTable, keyspace, ringOptions: {...ringOptions}, ring, layout, cosmos: layout?.cosmos ?? null};
}

export async function runCql({script, table, ru, maxPartitions, replicationFactor}, ctx) {
  const session = await cqlSession(ctx);
  session.overrideReplicationFactor(replicationFactor ?? 0);
  const started = performance.now();
  const {results} = session.execute(script);
  const ms = performance.now() - started;
  // The tables the statements touched, the last first.
  const candidates = results.map((r) => r.table).filter(Boolean).reverse();
  return {results, keyspace: session.currentKeyspace(), view: buildView(session, {table, candidates, ru, maxPartitions}),
          timing: {ms}};
}

export async function configureRing({ring, table, ru, maxPartitions}, ctx) {
  const session = await cqlSession(ctx);
  const options = {...ring};
  if (!options.datacenters?.length) delete options.datacenters;
  session.configureRing(options);  // a ring the engine refuses: bad_option, the old ring stays
  ringOptions = options;
  return buildView(session, {table, ru, maxPartitions});
}

export async function cqlView(payload, ctx) {
  return buildView(await cqlSession(ctx), payload);
}

export async function resetCql({ru, maxPartitions}, ctx) {
  cql?.dispose();
  cql = null;
  viewTable = null;
  return buildView(await cqlSession(ctx), {ru, maxPartitions});
}

/** CqlSession.startLoad's options: none for JSON (the engine's default), else {format, ...csv} (the engine checks them). */
function loadOptions({format, csv}) {
  if (format === undefined || format === null || format === LoadFormat.JSON) return null;
  return {format, ...(csv ?? {})};
}

/** An error value of the engine (not a cancel, a trap or a bug). */
function isEngineError(e) {
  return e instanceof PartplayError && !e.cancelled;
}

export async function loadIntoTable({table, source, format, csv, ru, maxPartitions}, ctx) {
  const session = await cqlSession(ctx);
  const started = performance.now();
  const keptSource = keepSource(source);
  const options = loadOptions({format, csv});
  const load = options ? session.startLoad(table, options) : session.startLoad(table);
  let finished = false;
  try {
    const {bytesTotal, chunks, compressed} = await openSource(keptSource);
    let bytesRead = 0;
    let lastPost = performance.now();
    const tell = (bytesDone, total, counts) => ctx.progress({
      bytesDone, bytesTotal: total, items: counts.rows, failed: counts.failed ?? 0,
      compressed: compressedProgress(compressed)});
    tell(0, bytesTotal, {rows: 0});
    for await (const chunk of chunks) {
      throwIfCancelled(ctx.job);
      bytesRead += chunk.length;
      load.feed(chunk);
      const now = performance.now();
      if (now - lastPost >= PROGRESS_INTERVAL_MS) {
        lastPost = now;
        tell(load.bytesConsumed, bytesTotal, {rows: load.rows, failed: load.failed});
        await yieldToEvents();
        throwIfCancelled(ctx.job);
      }
    }
    const done = load.finish();
    finished = true;
    const ms = performance.now() - started;
    tell(bytesRead, bytesTotal ?? bytesRead, done);
    return {rows: done.rows, failed: done.failed ?? 0, failures: done.failures ?? [], lines: done.lines ?? null,
            format: options ? options.format : LoadFormat.JSON, source: readSource(keptSource, bytesRead, compressed),
            view: buildView(session, {table, ru, maxPartitions}),
            timing: {ms, bytesPerSecond: ms > 0 ? bytesRead / (ms / 1000) : null}};
  } catch (e) {
    if (noteFailure(e, ctx.doing) || options?.format !== LoadFormat.CSV || !isEngineError(e)) throw e;
    // CSV that cannot be read on (an unterminated quote, a record over the limits, gzip that
    // breaks off): the load stops there, and the rows loaded and the failures listed before it
    // are part of the answer, with the error that stopped it.
    return {rows: load.rows, failed: load.failed ?? 0, failures: load.failures ?? [], lines: load.lines ?? null,
            format: LoadFormat.CSV, stopped: e.toJSON(), source: null,
            view: buildView(session, {table, ru, maxPartitions}),
            timing: {ms: performance.now() - started, bytesPerSecond: null}};
  } finally {
    if (!finished && !engineDead()) load.cancel();
  }
}

/** The session's tables ("ks.t"), and the one the Cassandra view shows; none before it ran anything. */
export async function cqlTables() {
  if (!cql) return {tables: [], table: null};  // no session yet: the engine need not load
  const tables = cql.keyspaces().flatMap((k) => k.tables.map((t) => `${k.name}.${t}`));
  return {tables, table: tables.includes(viewTable) ? viewTable : null};
}

/** The rows of `table` measured and sized by the engine (docs/sizing.md "From a table's rows"). */
export async function sizeCqlRows({table, maxExamples}, ctx) {
  const session = await cqlSession(ctx);
  return session.sizeFromRows(table, maxExamples === undefined || maxExamples === null ? {} : {max_examples: maxExamples});
}
