// Reading a typed key into its paths: "/a, /b" or, for a concatenated key, parts that may take a
// piece of a value, "/tenantId, month(/orderDate), left(/sku, 3)". Only the text is split here;
// the engine reads each part (ingest/synthetic_key.h) and says what is wrong with one.

/** The comma-separated items of `text`, split at commas outside parentheses, trimmed, none empty. */
export function splitKeyParts(text) {
  const parts = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    if (i === text.length || (ch === ',' && depth === 0)) {
      const part = text.slice(from, i).trim();
      if (part !== '') parts.push(part);
      from = i + 1;
    }
  }
  return parts;
}

/** True when a part takes a piece of its value ("month(/date)") rather than naming a path. */
export function isPartFunction(part) {
  return !part.startsWith('/') && part.includes('(');
}
