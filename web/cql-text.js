// Where things are in a CQL script, for the console: the statements' character ranges (to select
// the offending statement in the editor), UTF-8 byte offsets to string indexes (the engine counts
// bytes), and a one-line excerpt with a caret under a position. Pure functions of strings; no DOM.

/**
 * The statements of a script as [{start, end}] string indexes: from the first character of the
 * statement (after blanks and comments) to just before its ';' (or the end of the script).
 * Quotes ('...', "...", $$...$$) and comments (--, //, /* *\/) are skipped over, as the engine's
 * lexer does, so a ';' inside them does not end a statement.
 */
export function statementRanges(script) {
  const ranges = [];
  let start = -1;
  let last = -1;  // just after the statement's last character that is not a blank or a comment
  let i = 0;
  const n = script.length;
  const close = () => {
    if (start >= 0) ranges.push({start, end: last});
    start = -1;
  };
  while (i < n) {
    const c = script[i];
    const next = script[i + 1];
    if ((c === '-' && next === '-') || (c === '/' && next === '/')) {
      const nl = script.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      const endComment = script.indexOf('*/', i + 2);
      i = endComment < 0 ? n : endComment + 2;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === ';') {
      close();
      i++;
      continue;
    }
    if (start < 0) start = i;
    if (c === "'" || c === '"') {
      // '' (or "") inside is an escaped quote.
      let j = i + 1;
      while (j < n) {
        if (script[j] === c) {
          if (script[j + 1] === c) j += 2;
          else break;
        } else {
          j++;
        }
      }
      i = Math.min(n, j + 1);
    } else if (c === '$' && next === '$') {
      const endDollar = script.indexOf('$$', i + 2);
      i = endDollar < 0 ? n : endDollar + 2;
    } else {
      i++;
    }
    last = i;
  }
  close();
  return ranges;
}

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

/** The statement range holding a string index (or the first one starting after it), or null. */
export function rangeAt(ranges, index) {
  return ranges.find((r) => index >= r.start && index <= r.end) ?? ranges.find((r) => r.start >= index) ?? null;
}

/**
 * The range to select in the editor for a statement result ({byte_offset}, or an error's own
 * byte_offset): the whole statement holding that position.
 */
export function statementRangeOf(script, byteOffset) {
  if (!(byteOffset >= 0)) return null;
  return rangeAt(statementRanges(script), byteToIndex(script, byteOffset));
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
