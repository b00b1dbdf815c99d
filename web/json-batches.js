// Whole JSON objects out of a byte stream, for loading rows into a CQL table a batch at a time
// (worker.js, cql-load). No DOM, no engine: a scanner of depth and strings.
//
//   const batcher = new JsonBatcher();
//   for (const chunk of chunks) { const batch = batcher.push(chunk); if (batch) load(batch); }
//   const end = batcher.finish();   // the rest (or {truncated}) at the end of the input

/**
 * Cuts a stream of JSON bytes (NDJSON, whitespace-separated objects, or one top-level array of
 * objects) into batches of whole objects. In an array the brackets and the commas between
 * elements are blanked in place, so every batch is whitespace-separated objects at the same byte
 * positions as in the source (locations stay exact). Scanned once: depth and strings only.
 */
export class JsonBatcher {
  #carry = new Uint8Array(0);
  #array = null;   // null until the first non-blank byte: true for a top-level array
  #depth = 0;
  #inString = false;
  #escape = false;
  /** Byte offset in the source of the next batch's first byte. */
  offset = 0;

  /** The whole objects completed by `chunk` (with what was carried), or null. */
  push(chunk) {
    const buffer = new Uint8Array(this.#carry.length + chunk.length);
    buffer.set(this.#carry);
    buffer.set(chunk, this.#carry.length);
    let cut = 0;
    const itemDepth = () => (this.#array ? 1 : 0);
    for (let i = this.#carry.length; i < buffer.length; i++) {
      const c = buffer[i];
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (c === 0x5c) this.#escape = true;
        else if (c === 0x22) this.#inString = false;
        continue;
      }
      if (this.#array === null) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xef || c === 0xbb || c === 0xbf) continue;
        this.#array = c === 0x5b;
        if (this.#array) {
          buffer[i] = 0x20;
          this.#depth = 1;
          continue;
        }
      }
      if (c === 0x22) {
        this.#inString = true;
      } else if (c === 0x7b || c === 0x5b) {
        this.#depth++;
      } else if (c === 0x7d || c === 0x5d) {
        if (this.#array && this.#depth === 1 && c === 0x5d) {
          buffer[i] = 0x20;  // the array's own ']'
          this.#depth = 0;
          cut = i + 1;
          continue;
        }
        this.#depth--;
        if (this.#depth === itemDepth()) cut = i + 1;
      } else if (c === 0x2c && this.#array && this.#depth === 1) {
        buffer[i] = 0x20;  // a comma between elements
      }
    }
    this.#carry = buffer.subarray(cut);
    if (cut === 0) return null;
    return buffer.subarray(0, cut);
  }

  /**
   * At the end of the input: null when nothing is left, {rest} for bytes that hold no complete
   * object (the engine reports what is wrong with them), {truncated: true} when a top-level
   * array lacks its ']'.
   */
  finish() {
    const rest = this.#carry;
    this.#carry = new Uint8Array(0);
    if (this.#array && this.#depth > 0) return {truncated: true, rest};
    const blank = (b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
    return rest.some((b) => !blank(b)) ? {rest} : null;
  }
}

/** Line (1-based) and column (1-based, in bytes) of `offset` given the batch and what came before. */
export function lineColumn(batch, at, {lines, lastNewline}, batchStart) {
  let line = lines + 1;
  let newline = lastNewline;
  for (let i = 0; i < at && i < batch.length; i++) {
    if (batch[i] === 0x0a) {
      line++;
      newline = batchStart + i;
    }
  }
  return {line, column: batchStart + at - newline};
}
