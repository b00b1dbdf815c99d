// Gzip input for the worker (io.js): a source whose first two bytes
// are gzip's magic (1f 8b) is decompressed on its way into the engine with the browser's
// DecompressionStream, whatever its name or Content-Type, so a .json.gz file, a fetched .gz
// example (served as raw bytes) and gzipped bytes all read as the JSON inside. Nothing is read
// whole: compressed chunks go in as the decompressed ones are taken out.
//
//   const input = await gunzipIfCompressed(raw, {name, ioError});
//   for await (const chunk of input.chunks) ...        // the JSON bytes
//   input.compressed                                   // null, or {bytesRead, bytesTotal}
//
// A corrupt or truncated gzip stream ends in the engine's `io` error "NAME is not valid gzip:
// ..." saying how far it got, never in a short read. A raw chunk is valid only until the next is
// read (io.js readFileStream reuses its buffer), so what is kept longer is copied.

import {formatBytes} from '../common/format.js';

/** gzip's first two bytes (RFC 1952, ID1 ID2). */
export const GZIP_MAGIC = Object.freeze([0x1f, 0x8b]);

/** Whether `bytes` (a Uint8Array) starts with gzip's magic. */
export function isGzip(bytes) {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * `raw` ({bytesTotal, chunks}: the source's own bytes) as the bytes the engine reads:
 * {bytesTotal, chunks, compressed}. For gzip, bytesTotal is null (the decompressed size is known
 * only at the end) and compressed {bytesRead, bytesTotal} follows the compressed bytes taken so
 * far; otherwise the source is returned as it is, with compressed null. `name` names the source
 * in errors; `ioError(message)` makes the engine's io error (a Promise).
 */
export async function gunzipIfCompressed(raw, {name, ioError}) {
  const source = raw.chunks[Symbol.asyncIterator]();
  // Enough leading chunks to see two bytes (a stream may hand over one byte at a time).
  const head = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < 2) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    // Kept across the next read, which may reuse the chunk's buffer: a copy (a few bytes).
    if (headBytes + next.value.length < 2) head.push(next.value.slice());
    else head.push(next.value);
    headBytes += next.value.length;
  }
  async function* replay() {
    try {
      yield* head;
      if (ended) return;
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    } finally {
      await source.return?.();
    }
  }
  const first = head.length === 1 ? head[0] : Uint8Array.from(head.flatMap((c) => [...c.subarray(0, 2)]));
  if (!isGzip(first)) return {bytesTotal: raw.bytesTotal, chunks: replay(), compressed: null};

  const label = name ?? 'the data';
  if (typeof DecompressionStream !== 'function') {
    await source.return?.();  // the source's read ends here (a file's stream is let go)
    throw await ioError(`${label} is gzip-compressed, and this browser cannot decompress it (it has no DecompressionStream).`);
  }
  const compressed = {bytesRead: 0, bytesTotal: raw.bytesTotal ?? null};
  const compressedChunks = replay();
  // An error reading the source itself (a file that cannot be read) is reported as it is.
  let sourceError = null;
  const input = new ReadableStream({
    async pull(controller) {
      let next;
      try {
        next = await compressedChunks.next();
      } catch (e) {
        sourceError = e;
        throw e;
      }
      if (next.done) {
        controller.close();
      } else {
        compressed.bytesRead += next.value.length;
        // A copy: the stream queues it past the next read, which may reuse the chunk's buffer.
        controller.enqueue(next.value.slice());
      }
    },
    async cancel() {
      await compressedChunks.return();
    },
  });
  const output = input.pipeThrough(new DecompressionStream('gzip'));
  async function* inflate() {
    const reader = output.getReader();
    let inflated = 0;
    try {
      for (;;) {
        let step;
        try {
          step = await reader.read();
        } catch (e) {
          if (sourceError) throw sourceError;
          const of = compressed.bytesTotal === null ? '' : ` of ${formatBytes(compressed.bytesTotal)}`;
          throw await ioError(`${label} is not valid gzip: ${e?.message ?? e} (it stopped after ` +
            `${formatBytes(compressed.bytesRead)}${of} of gzip, ${formatBytes(inflated)} decompressed).`);
        }
        if (step.done) return;
        if (step.value?.length) {
          inflated += step.value.length;
          yield step.value;
        }
      }
    } finally {
      // Stops the reading when we leave early (cancel, engine error).
      reader.cancel().catch(() => {});
    }
  }
  return {bytesTotal: null, chunks: inflate(), compressed};
}
