// One worker of the bench page's plain-JS pool: reads its slice of the file (a Blob), groups it
// with the one-thread baseline's code (js-baseline.mjs) and posts the groups back as arrays.
import {groupLines} from './js-baseline.mjs';

self.onmessage = async ({data: {blob, field}}) => {
  const {items, groups} = groupLines(new Uint8Array(await blob.arrayBuffer()), field);
  const keys = [], counts = [], bytes = [];
  for (const [k, g] of groups) {
    keys.push(k);
    counts.push(g.count);
    bytes.push(g.bytes);
  }
  self.postMessage({items, keys, counts, bytes});
};
self.postMessage('ready');
