// Where things are in a text the engine read (a CQL script, pasted JSON): UTF-8 byte offsets to
// string indexes (the engine counts bytes and splits a script into statements; each result
// carries its statement's bytes), and a one-line excerpt with a caret under an error's position.
// Pure functions of strings; no DOM.

/** The string index of a UTF-8 byte offset into `text` (clamped to the text). */
export function byteToIndex(text, byteOffset) {
  let bytes = 0;
  let index = 0;
  while (index < text.length && bytes < byteOffset) {
    const code = text.codePointAt(index);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}

/**
 * The string range to select in the editor for a statement result: the statement's bytes as the
 * engine split the script (its source_begin and source_end), or null when it has none.
 */
export function statementRangeOf(script, result) {
  if (!(result?.source_begin >= 0 && result.source_end >= result.source_begin)) return null;
  return {start: byteToIndex(script, result.source_begin), end: byteToIndex(script, result.source_end)};
}

/** "LINE | text" of line `line` (1-based) with a caret under column `column` (1-based, UTF-8 bytes). */
export function caretExcerpt(script, line, column) {
  const lines = script.split('\n');
  if (!(line >= 1 && line <= lines.length)) return null;
  const source = lines[line - 1].replace(/\r$/, '').replace(/\t/g, ' ');
  const index = byteToIndex(source, Math.max(0, (column ?? 1) - 1));
  const start = Math.max(0, index - 60);
  const shown = source.slice(start, start + 120);
  const prefix = `${line} | `;
  const lead = start > 0 ? '…' : '';
  return `${prefix}${lead}${shown}\n${' '.repeat(prefix.length + lead.length + index - start)}^`;
}
