#!/usr/bin/env node
// Deterministic NDJSON generator for the benchmark. Writes the file in ~1 MB pieces (never one
// giant string) into bench-data/ (gitignored), next to a `.meta.json` that records the parameters
// and the ground truth (items, item bytes, distinct userIds). A file whose meta matches the
// requested parameters is reused as it is.
//
//   node tests/bench/gen-ndjson.mjs [--items N | --gb G] [--seed S] [--users U] [--ascii]
//                                   [--dir bench-data]
//
// One item per line, e.g.
//   {"id":"9f1c2a3b-...","userId":"user-123","amount":12.5,"active":true,"tags":["a","b"],
//    "address":{"city":"München","zip":"80331"}}
// userId comes from --users users (default 50,000) with a skew: user k is drawn with probability
// ~ 1/sqrt(k), so user-0 holds ~0.45% of the items and the rarest users ~10 per million items.
// A few city names are non-ASCII, so UTF-8 bytes and UTF-16 lengths differ (--ascii: none are).
import {mkdirSync, unlinkSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {mulberry32} from '../../scripts/prng.mjs';
import {reusable, saveMeta, startWriting} from './generated-file.mjs';

/** Bump when the item shape or the PRNG use changes: old files are then regenerated. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 20240611;
export const DEFAULT_USERS = 50_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_DIR = join(repo, 'bench-data');

const CITIES = ['Seattle', 'Redmond', 'New York', 'London', 'Paris', 'Berlin', 'München', 'Zürich',
                'São Paulo', 'Kraków', 'Madrid', 'Rome', 'Oslo', 'Dublin', 'Toronto', 'Sydney',
                '東京', 'Seoul', 'Mumbai', 'Lagos', 'Cairo', 'Lima', 'Austin', 'Denver'];
// --ascii: the same cities, ASCII-only (the default keeps multi-byte UTF-8 in the data).
const ASCII_CITIES = CITIES.map((c) => ({'München': 'Munich', 'Zürich': 'Zurich', 'São Paulo': 'Sao Paulo',
                                        'Kraków': 'Krakow', '東京': 'Tokyo'})[c] ?? c);
const TAGS = ['new', 'sale', 'vip', 'gift', 'blue', 'red', 'bulk', 'promo', 'b2b', 'retail'];


const hex = (n, width) => n.toString(16).padStart(width, '0');

/**
 * Makes the item source: `next()` returns [line (without newline), userIndex].
 * Deterministic for a given seed and user count.
 */
function itemSource(seed, users, ascii) {
  const cities = ascii ? ASCII_CITIES : CITIES;
  const rand = mulberry32(seed);
  const u32 = () => Math.floor(rand() * 4294967296);
  return function next() {
    const a = u32(), b = u32(), c = u32();
    const id = `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b & 0xfff, 3)}-${hex(8 | (c >>> 30), 1)}` +
               `${hex((c >>> 16) & 0xfff, 3)}-${hex(c & 0xffff, 4)}${hex(u32(), 8)}`;
    const r = rand();
    const user = Math.min(users - 1, Math.floor(users * r * r));
    const amount = Math.round(rand() * 100_000) / 100;
    const active = rand() < 0.7;
    const tagCount = Math.floor(rand() * 4);
    let tags = '';
    for (let i = 0; i < tagCount; i++) {
      tags += `${i ? ',' : ''}"${TAGS[Math.floor(rand() * TAGS.length)]}"`;
    }
    const city = cities[Math.floor(rand() * cities.length)];
    const zip = String(Math.floor(rand() * 100_000)).padStart(5, '0');
    const line = `{"id":"${id}","userId":"user-${user}","amount":${amount},"active":${active},` +
                 `"tags":[${tags}],"address":{"city":"${city}","zip":"${zip}"}}`;
    return [line, user];
  };
}

/**
 * Ensures the NDJSON file exists; generates it when missing or when its meta does not match.
 * Give either `items` (an item count) or `targetBytes` (stop once the file is at least that big).
 * Resolves to the meta: {file, file_bytes, items, item_bytes, distinct_user_ids, ...params}.
 */
export async function ensureNdjson({items, targetBytes, seed = DEFAULT_SEED, users = DEFAULT_USERS,
                                    ascii = false, dir = DEFAULT_DIR, name, log = () => {}} = {}) {
  if ((items == null) === (targetBytes == null)) throw new Error('give either items or targetBytes');
  const params = {generator_version: GENERATOR_VERSION, seed, users, ascii,
                  ...(items != null ? {requested_items: items} : {target_bytes: targetBytes})};
  const tail = `seed${seed}-users${users}${ascii ? '-ascii' : ''}-v${GENERATOR_VERSION}.ndjson`;
  name ??= items != null ? `items-${items}-${tail}` : `big-${targetBytes}B-${tail}`;
  mkdirSync(dir, {recursive: true});
  const file = join(dir, name);
  const meta = reusable(file, params);
  if (meta) {
    log(`reusing ${file} (${(meta.file_bytes / 1e6).toFixed(1)} MB, ${meta.items} items)`);
    return {...meta, file};
  }

  log(`generating ${file} ...`);
  const started = performance.now();
  const {write, finish} = startWriting(file);
  const next = itemSource(seed, users, ascii);
  const seen = new Uint8Array(users);
  let count = 0, itemBytes = 0, fileBytes = 0, distinct = 0;
  let piece = '', pieceBytes = 0;
  const done = () => (items != null ? count >= items : fileBytes + pieceBytes >= targetBytes);
  let lastLog = started;
  while (!done()) {
    const [line, user] = next();
    const bytes = Buffer.byteLength(line);
    piece += line + '\n';
    pieceBytes += bytes + 1;
    itemBytes += bytes;
    count++;
    if (!seen[user]) {
      seen[user] = 1;
      distinct++;
    }
    if (pieceBytes >= 1 << 20) {
      await write(piece);
      fileBytes += pieceBytes;
      piece = '';
      pieceBytes = 0;
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`  ... ${(fileBytes / 1e6).toFixed(0)} MB, ${count} items`);
      }
    }
  }
  if (piece) await write(piece);
  fileBytes += pieceBytes;
  await finish(fileBytes);
  const result = {...params, items: count, file_bytes: fileBytes, item_bytes: itemBytes,
                  distinct_user_ids: distinct,
                  generated_in_s: Number(((performance.now() - started) / 1000).toFixed(2))};
  saveMeta(file, result);
  log(`generated ${(fileBytes / 1e6).toFixed(1)} MB, ${count} items in ${result.generated_in_s} s`);
  return {...result, file};
}

/** Removes a generated file and its meta. */
export function removeNdjson(file) {
  for (const f of [file, `${file}.meta.json`, `${file}.partial`]) {
    try {
      unlinkSync(f);
    } catch {}
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const options = {log: (m) => console.error(m)};
  for (let i = 0; i < args.length; i++) {
    const value = () => {
      if (i + 1 >= args.length) throw new Error(`${args[i]} needs a value`);
      return args[++i];
    };
    const a = args[i];
    if (a === '--items') options.items = Number(value());
    else if (a === '--gb') options.targetBytes = Math.round(Number(value()) * 1e9);
    else if (a === '--seed') options.seed = Number(value());
    else if (a === '--users') options.users = Number(value());
    else if (a === '--ascii') options.ascii = true;
    else if (a === '--dir') options.dir = resolve(value());
    else if (a === '-h' || a === '--help') {
      console.log('usage: node tests/bench/gen-ndjson.mjs [--items N | --gb G] [--seed S] ' +
                  '[--users U] [--ascii] [--dir bench-data]');
      process.exit(0);
    } else {
      console.error(`gen-ndjson.mjs: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (options.items == null && options.targetBytes == null) options.items = 1_000_000;
  const meta = await ensureNdjson(options);
  console.log(JSON.stringify(meta));
}
