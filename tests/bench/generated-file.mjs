// A generated data file of the bench (bench-data/, gitignored), shared by gen-ndjson.mjs and
// cql-store.mjs: reused while its `.meta.json` records the same parameters and its size; else
// written in pieces to `FILE.partial`, checked for its size and renamed into place, then its meta
// saved beside it.
import {createWriteStream, existsSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync} from 'node:fs';

/** The meta of `file` ({...}) when the file and its meta match `params`, else null. */
export function reusable(file, params) {
  let meta;
  try {
    meta = JSON.parse(readFileSync(`${file}.meta.json`, 'utf8'));
  } catch {
    return null;
  }
  const ok = existsSync(file) && statSync(file).size === meta.file_bytes &&
             Object.entries(params).every(([k, v]) => meta[k] === v);
  return ok ? meta : null;
}

/**
 * Starts writing `file` (as FILE.partial): {write(text) (awaits the stream's drain), finish(bytes)
 * (ends the stream, checks it holds `bytes` bytes, renames it into place)}.
 */
export function startWriting(file) {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  const failed = new Promise((_, fail) => out.once('error', fail));
  return {
    async write(text) {
      if (!out.write(text)) await Promise.race([new Promise((ok) => out.once('drain', ok)), failed]);
    },
    async finish(bytes) {
      await new Promise((ok, fail) => out.end((e) => (e ? fail(e) : ok())));
      const written = statSync(partial).size;
      if (written !== bytes) {
        unlinkSync(partial);
        throw new Error(`wrote ${written} bytes, expected ${bytes}`);
      }
      renameSync(partial, file);
    },
  };
}

/** Saves `meta` beside `file` (the last step: a file without its meta is generated again). */
export function saveMeta(file, meta) {
  writeFileSync(`${file}.meta.json`, JSON.stringify(meta, null, 2) + '\n');
}
