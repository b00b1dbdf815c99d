// The engine worker's input: every source (text, bytes, a File, a URL; protocol.js Source) read
// as a stream of chunks into the engine, never whole. Text and byte buffers go in 1 MiB slices;
// a File's stream is read here or, where a core is free, ahead by the reader thread (reader.js);
// a URL's body as it arrives; gzip is undone on the way (gunzip.js). feedSource posts progress
// at most every PROGRESS_INTERVAL_MS and lets queued messages (a cancel, a newer request) run
// between chunks.
import {PartplayError} from '../common/errors.js';
import {ioError} from './engines.js';
import {gunzipIfCompressed} from './gunzip.js';
import {throwIfCancelled} from './jobs.js';
import {PROGRESS_INTERVAL_MS, READ_CHUNK_BYTES, SourceKind} from './protocol.js';

/**
 * Lets queued messages (a cancel, a newer analyze) run. A macrotask, not a microtask: a message
 * to ourselves, not setTimeout(0), which a browser delays to 4 ms once timers nest five deep (as
 * they do here, a stream's reads resolving inside the timer's task): 3% of a one-worker
 * analysis in Chromium (a median of 10 runs: 627 against 648 ms).
 */
const yieldChannel = new MessageChannel();
const yielded = [];
yieldChannel.port1.onmessage = () => yielded.shift()?.();
// Node (tests/wasm imports these modules) would otherwise wait on the open port; browsers have no unref.
yieldChannel.port1.unref?.();
export function yieldToEvents() {
  return new Promise((resolve) => {
    yielded.push(resolve);
    yieldChannel.port2.postMessage(null);
  });
}

/** Turns a request's source into the form kept for reanalyze (text is encoded once here). */
export function keepSource(source) {
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

/** The buffer a file's stream is read into, again and again, where it is a byte stream. */
const FILE_READ_BYTES = 4 << 20;

/**
 * The byte streams being read: held here, since Chromium (156) lets a garbage collection take a
 * File's byte stream while a BYOB read of it is pending, and that read then never settles (an
 * idle worker's collection did so in about one analysis of six; reader.test.mjs forces it).
 */
const streamsBeingRead = new Set();

/**
 * Reads a File's stream here. Where it is a byte stream (Chromium), into one reused buffer: a
 * chunk is then only valid until the next is asked for (openSource's contract), and the thread
 * takes each chunk over about 5x faster than into a fresh buffer per chunk (79 MB in Chromium:
 * about 10 against 45-70 ms). Elsewhere, the stream's own chunks.
 */
async function* readFileStream(file) {
  const stream = file.stream();
  let reader;
  try {
    reader = stream.getReader({mode: 'byob'});
  } catch {
    yield* readStream(stream);  // not a byte stream
    return;
  }
  streamsBeingRead.add(stream);
  try {
    let buffer = new ArrayBuffer(FILE_READ_BYTES);
    for (;;) {
      const {done, value} = await reader.read(new Uint8Array(buffer));
      if (done) return;
      buffer = value.buffer;  // the same memory, handed back
      if (value.length) yield value;
    }
  } finally {
    streamsBeingRead.delete(stream);
    reader.cancel().catch(() => {});
  }
}

/** At most this many bytes of a file are read ahead of the engine by the reader thread. */
const READ_AHEAD_BYTES = 8 << 20;

/** How long the reader thread may take to start. */
const READER_START_MS = 5000; // lint-ok: timing (the reader thread's start), not the serverless 5,000 RU/s row
/** The reader thread (reader.js), started on the first file read: a Worker, or null where none starts. */
let readerStarting = null;
function fileReader() {
  readerStarting ??= new Promise((resolve) => {
    let reader;
    try {
      reader = new Worker(new URL('./reader.js', import.meta.url), {type: 'module'});
    } catch {
      resolve(null);  // no nested workers, or another origin (a CDN's worker started from a blob:)
      return;
    }
    // One that has not started by then is given up, and this worker reads its files itself.
    const giveUp = setTimeout(() => fail(), READER_START_MS);
    reader.onmessage = ({data}) => {
      if (data !== 'ready') return;
      clearTimeout(giveUp);
      resolve(reader);
    };
    const fail = () => {
      clearTimeout(giveUp);
      reader.terminate();
      readerStarting = Promise.resolve(null);
      resolve(null);
      for (const stop of readsInFlight) stop('the file reader stopped');
    };
    reader.onerror = (e) => {
      e.preventDefault?.();
      fail();
    };
  });
  return readerStarting;
}
/** The reads the reader thread is serving: each one's stop(message). */
const readsInFlight = new Set();

/** Reads a File through the reader thread: its stream's chunks, read ahead on another thread. */
async function* readThroughReader(reader, file) {
  const {port1, port2} = new MessageChannel();
  const queue = [];
  let wake = null;
  const arrive = (message) => {
    queue.push(message);
    const w = wake;
    wake = null;
    w?.();
  };
  const stop = (error) => arrive({error});
  port1.onmessage = ({data}) => arrive(data);
  readsInFlight.add(stop);
  reader.postMessage({file, port: port2, window: READ_AHEAD_BYTES}, [port2]);
  let ended = false;
  try {
    for (;;) {
      while (!queue.length) await new Promise((resolve) => (wake = resolve));
      const message = queue.shift();
      if (message.done) {
        ended = true;
        return;
      }
      if (message.error !== undefined) {
        ended = true;
        throw new Error(message.error);
      }
      port1.postMessage({consumed: message.chunk.length});
      yield message.chunk;
    }
  } finally {
    readsInFlight.delete(stop);
    port1.onmessage = null;  // chunks still on their way are dropped
    // Left early: the reader stops its read and closes the channel from its end (closing it
    // here too could lose the cancel on its way).
    if (ended) port1.close();
    else port1.postMessage({cancel: true});
  }
}

/**
 * Whether a worker's reader thread has a core of its own beside `busy` engine workers: a file
 * read in one pass is read ahead only then (a part is told by the engine's parts plan).
 */
const READ_AHEAD_DEFAULT = (globalThis.navigator?.hardwareConcurrency ?? 1) > 1;

/**
 * Reads a File/Blob: through `reader` (the reader thread) when given, else as a stream here, or
 * in READ_CHUNK_BYTES slices where Blob.stream is missing.
 */
async function* readFile(file, reader) {
  if (typeof file.stream === 'function') {
    try {
      yield* reader ? readThroughReader(reader, file) : readFileStream(file);
    } catch (e) {
      if (e instanceof PartplayError) throw e;
      throw await ioError(`The file "${file.name ?? 'file'}" could not be read: ${e?.message ?? e}`);
    }
    return;
  }
  for (let at = 0; at < file.size; at += READ_CHUNK_BYTES) {
    const piece = file.slice(at, Math.min(file.size, at + READ_CHUNK_BYTES));
    yield new Uint8Array(await piece.arrayBuffer());
  }
}

/**
 * Opens a source as the bytes the engine reads: {bytesTotal, chunks: AsyncIterable<Uint8Array>,
 * compressed: null | {bytesRead, bytesTotal}, readAhead}. A gzip source (its first bytes, not its
 * name) is decompressed on the way (gunzip.js); bytesTotal is then null and compressed counts its
 * bytes. readAhead (asked, and true in the answer when so): a file read by the reader thread.
 * A chunk is valid only until the next one is asked for (readFileStream reuses its buffer).
 */
export async function openSource(kept, {readAhead = READ_AHEAD_DEFAULT} = {}) {
  const readsFile = kept.kind === SourceKind.FILE && typeof kept.file.stream === 'function';
  const reader = readsFile && readAhead ? await fileReader() : null;
  const opened = await gunzipIfCompressed(await openRaw(kept, reader), {name: kept.name ?? kept.kind, ioError});
  return {...opened, readAhead: reader !== null};
}

/** The source's own bytes: {bytesTotal, chunks}. */
async function openRaw(kept, reader) {
  switch (kept.kind) {
    case SourceKind.TEXT:
    case SourceKind.BYTES:
      return {bytesTotal: kept.bytes.length, chunks: sliceBytes(kept.bytes)};
    case SourceKind.FILE:
      return {bytesTotal: kept.file.size, chunks: readFile(kept.file, reader)};
    case SourceKind.URL: {
      let response;
      try {
        response = await fetch(kept.url);
      } catch (e) {
        throw await ioError(`${kept.url} could not be fetched: ${e?.message ?? e}`);
      }
      if (!response.ok) throw await ioError(`${kept.url} could not be fetched: HTTP ${response.status} ${response.statusText}`);
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
/**
 * Streams a kept source into `target` (an engine Analysis, AnalysisPart or KeyComparison: feed,
 * bytesConsumed, itemsSeen) for request `ctx` ({job, progress(fields)}), posting progress at most
 * every PROGRESS_INTERVAL_MS and letting queued messages run between chunks; throws the
 * cancelled error once ctx.job is cancelled.
 */
export async function feedSource(ctx, source, target, {readAhead} = {}) {
  const {bytesTotal, chunks, compressed, readAhead: readAheadUsed} = await openSource(source, {readAhead});
  let lastPost = performance.now();
  let bytesRead = 0;
  ctx.progress({bytesDone: 0, bytesTotal, items: 0, compressed: compressedProgress(compressed)});
  for await (const chunk of chunks) {
    throwIfCancelled(ctx.job);
    target.feed(chunk);
    bytesRead += chunk.length;
    const now = performance.now();
    if (now - lastPost >= PROGRESS_INTERVAL_MS) {
      lastPost = now;
      ctx.progress({bytesDone: target.bytesConsumed, bytesTotal, items: target.itemsSeen,
                    compressed: compressedProgress(compressed)});
      await yieldToEvents();
      throwIfCancelled(ctx.job);
    }
  }
  return {bytesRead, bytesTotal, compressed, readAhead: readAheadUsed};
}

/** A progress reply's `compressed` field: the compressed bytes read of the compressed total, or null. */
export function compressedProgress(compressed) {
  return compressed ? {bytesDone: compressed.bytesRead, bytesTotal: compressed.bytesTotal} : null;
}

/** What was read, as a result's `source`: {kind, name, bytes (the engine's input), compressedBytes?}. */
export function readSource(kept, bytesRead, compressed) {
  const source = {kind: kept.kind, name: kept.name ?? null, bytes: bytesRead};
  if (compressed) source.compressedBytes = compressed.bytesRead;
  return source;
}
