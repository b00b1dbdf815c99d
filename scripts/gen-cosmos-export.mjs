// Writes examples/cosmos-export.json.gz: a gzipped Azure Cosmos DB container export (the JSON
// array the Data Explorer, `az cosmosdb` and the Data Migration tool write), every item with the
// system properties Cosmos DB adds (_rid, _self, _etag, _attachments, _ts). Deterministic: the
// same bytes on every run (fixed seed, gzip without a timestamp).
//
//   node scripts/gen-cosmos-export.mjs
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';

import {mulberry32} from './prng.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const next = mulberry32(0xC05D0B);
const int = (n) => Math.floor(next() * n);
const pick = (a) => a[int(a.length)];

// Cosmos DB resource ids: base64 of the database, collection and document ids.
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const dbRid = b64([0x1a, 0x2b, 0x3c, 0x4d]);
const collRid = b64([0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x01]);
const tenants = Array.from({length: 40}, (_, i) => `tenant-${String(i).padStart(3, '0')}`);
const kinds = ['invoice', 'invoice', 'invoice', 'payment', 'refund', 'note'];

const items = [];
for (let i = 0; i < 1500; ++i) {
  // A few tenants hold most documents (hot logical partitions).
  const tenant = next() < 0.4 ? tenants[int(3)] : pick(tenants);
  const docRid = [0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x01, 0, 0, (i >> 8) & 0xff, i & 0xff];
  const rid = b64(docRid);
  const ts = 1714521600 + int(86400 * 60);
  items.push({
    id: `${tenant}-${String(i).padStart(6, '0')}`,
    tenantId: tenant,
    kind: pick(kinds),
    amount: Math.round(next() * 500000) / 100,
    currency: pick(['EUR', 'EUR', 'USD', 'NOK']),
    lines: Array.from({length: 1 + int(6)}, () => ({sku: `SKU-${int(9000) + 1000}`, qty: 1 + int(5)})),
    _rid: rid,
    _self: `dbs/${dbRid}/colls/${collRid}/docs/${rid}/`,
    _etag: `"${(0x0c000000 + i * 7919).toString(16).padStart(8, '0')}-0000-0d00-0000-${ts.toString(16)}0000"`,
    _attachments: 'attachments/',
    _ts: ts,
  });
}
const json = JSON.stringify(items, null, 2) + '\n';
writeFileSync(path.join(root, 'examples/cosmos-export.json.gz'), gzipSync(Buffer.from(json), {level: 9}));
console.log(`examples/cosmos-export.json.gz: ${items.length} items, ${json.length} bytes of JSON`);
