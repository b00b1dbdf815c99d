// Number, byte and partition-key formatting. Pure functions of values; no DOM.

const intFormat = new Intl.NumberFormat(undefined, {maximumFractionDigits: 0});
const oneDecimal = new Intl.NumberFormat(undefined, {maximumFractionDigits: 1});
const twoDecimals = new Intl.NumberFormat(undefined, {minimumFractionDigits: 2, maximumFractionDigits: 2});

/** 1234567 -> "1,234,567" (in the reader's locale). */
export function formatInt(n) {
  return n === null || n === undefined || Number.isNaN(n) ? '–' : intFormat.format(n);
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
const DECIMAL_UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];
const SHORT_UNITS = ['', 'K', 'M', 'G', 'T'];

/** |n| as {value, unit}: divided by `base` while it reaches it (unit indexes `units`). */
function scaled(n, base, units) {
  let value = Math.abs(n);
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit++;
  }
  return {value, unit};
}

/**
 * The page's one byte formatter. By default binary units, the way the Cosmos DB limits are
 * written (2 MB = 2,097,152 bytes, 20 GB = 20 × 2^30 bytes): 1536 -> "1.5 KB". With `decimal`,
 * decimal units as the Cassandra sizing guide writes them (1 MB = 1,000,000 bytes): 1095005 ->
 * "1.1 MB", 512 -> "512 bytes". With `short`, a compact binary label for chart axes: 1024 -> "1K".
 */
export function formatBytes(n, {decimal = false, short = false} = {}) {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  const sign = n < 0 ? '-' : '';
  if (short) {
    const {value, unit} = scaled(n, 1024, SHORT_UNITS);
    return `${sign}${Number.isInteger(value) ? value : oneDecimal.format(value)}${SHORT_UNITS[unit]}`;
  }
  if (decimal) {
    const {value, unit} = scaled(n, 1000, DECIMAL_UNITS);
    if (unit === 0) return `${sign}${intFormat.format(value)} ${value === 1 ? 'byte' : 'bytes'}`;
    return `${sign}${oneDecimal.format(value)} ${DECIMAL_UNITS[unit]}`;
  }
  const {value, unit} = scaled(n, 1024, UNITS);
  if (unit === 0) return `${sign}${intFormat.format(value)} B`;
  return `${sign}${value >= 100 ? intFormat.format(value) : oneDecimal.format(value)} ${UNITS[unit]}`;
}

/** A compact byte label for chart axes: 1024 -> "1K", 1048576 -> "1M", 16 -> "16". */
export const formatBytesShort = (n) => formatBytes(n, {short: true});

/** 0.4231 -> "42.3%"; tiny non-zero shares keep two significant digits. */
export function formatPercent(share) {
  if (share === null || share === undefined || Number.isNaN(share)) return '–';
  const p = share * 100;
  if (p !== 0 && Math.abs(p) < 0.1) return `${p.toPrecision(2)}%`;  // lint-ok: display precision
  return `${oneDecimal.format(p)}%`;
}

export function formatDecimal(x) {
  return x === null || x === undefined || Number.isNaN(x) ? '–' : twoDecimals.format(x);
}

export function formatMs(ms) {
  if (ms < 1000) return `${Math.max(1, Math.round(ms))} ms`;
  return `${oneDecimal.format(ms / 1000)} s`;
}

/**
 * How much of a read is done (0..1) from a progress reply (protocol.js): for a gzip source the
 * compressed bytes read of the compressed total (the only total known), else the input's; null
 * when no total is known.
 */
export function progressShare(p) {
  const c = p?.compressed;
  if (c) return c.bytesTotal ? Math.min(1, c.bytesDone / c.bytesTotal) : null;
  return p?.bytesTotal ? Math.min(1, p.bytesDone / p.bytesTotal) : null;
}

/**
 * The bytes of a progress reply in words: "2.1 MB of 6.1 MB", or for a gzip source both sizes,
 * "2.1 MB of 6.1 MB gzip · 14.3 MB of JSON" (`what` names the decompressed input).
 */
export function progressBytes(p, what = 'JSON') {
  const c = p?.compressed;
  if (c) {
    const gz = c.bytesTotal ? `${formatBytes(c.bytesDone)} of ${formatBytes(c.bytesTotal)} gzip` : `${formatBytes(c.bytesDone)} gzip`;
    return `${gz} · ${formatBytes(p.bytesDone)} of ${what}`;
  }
  return p?.bytesTotal ? `${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}` : formatBytes(p?.bytesDone);
}

/**
 * The size of what a result read (its `source`: {bytes, compressedBytes?}): "41.2 MB of JSON,
 * 6.1 MB gzip" for a gzip source, "41.2 MB" otherwise.
 */
export function sourceSize(source, what = 'JSON') {
  if (!source) return '';
  if (source.compressedBytes === undefined || source.compressedBytes === null) return formatBytes(source.bytes);
  return `${formatBytes(source.bytes)} of ${what}, ${formatBytes(source.compressedBytes)} gzip`;
}

/** True for the `{}` the engine uses for a missing key value ("undefined"). */
export function isUndefinedKeyValue(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

/**
 * One key component as {text, type}: strings in JSON quotes ("5"), numbers bare (5), true,
 * false, null, and `undefined` for a missing value. type is the CSS-friendly kind.
 */
export function formatKeyValue(v) {
  if (typeof v === 'string') return {text: JSON.stringify(v), type: 'string'};
  if (typeof v === 'number') return {text: Object.is(v, -0) ? '-0' : String(v), type: 'number'};
  if (typeof v === 'boolean') return {text: String(v), type: 'boolean'};
  if (v === null) return {text: 'null', type: 'null'};
  if (isUndefinedKeyValue(v)) return {text: 'undefined', type: 'undefined'};
  return {text: JSON.stringify(v), type: 'other'};
}

/** A whole key (one value per key path) as plain text: "c-1", or ["a", 5] for several paths. */
export function formatKey(key) {
  if (!Array.isArray(key)) return formatKeyValue(key).text;
  if (key.length === 1) return formatKeyValue(key[0]).text;
  return `[${key.map((v) => formatKeyValue(v).text).join(', ')}]`;
}

/** Shortens long text for display (the full text goes into a title attribute). */
export function truncate(text, max = 80) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** RU/s, as a whole number or with one decimal when small: 9000 -> "9,000", 2.5 -> "2.5". */
export function formatRu(ru) {
  if (ru === null || ru === undefined || Number.isNaN(ru)) return '–';
  if (ru !== 0 && Math.abs(ru) < 10) return new Intl.NumberFormat(undefined, {maximumFractionDigits: 1}).format(ru);
  return formatInt(Math.round(ru));
}

/** "1 physical partition", "3 physical partitions": a count and its noun. */
export const plural = (n, one, many = `${one}s`) => `${formatInt(n)} ${n === 1 ? one : many}`;

/** An engine error's location ({byte_offset, line, column, item_index}; unknown: 0 or -1) in words. */
export function formatLocation(location) {
  if (!location) return '';
  const bits = [];
  if (location.line > 0) bits.push(`line ${formatInt(location.line)}`);
  if (location.column > 0) bits.push(`column ${formatInt(location.column)}`);
  if (location.item_index >= 0) bits.push(`item #${formatInt(location.item_index)}`);
  return bits.join(', ');
}
