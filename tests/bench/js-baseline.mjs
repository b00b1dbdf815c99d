// The plain-JS baseline a web developer would write, shared by the bench page's one-thread run
// and its pool of workers (js-pool-worker.mjs): decode 1 MiB chunks with TextDecoder, split
// lines, JSON.parse each, group by item[field] in a Map with count and size (the line's string
// length: UTF-16 code units, cheaper than exact UTF-8 bytes).
const SLICE_BYTES = 1 << 20;

/** Groups the NDJSON bytes `u8` by item[field]: {items, groups: Map(key -> {count, bytes})}. */
export function groupLines(u8, field = 'userId') {
  const decoder = new TextDecoder();
  const groups = new Map();
  let items = 0;
  let rest = '';
  const handle = (line) => {
    if (line.trim() === '') return;
    const item = JSON.parse(line);
    items++;
    const key = item[field];
    let group = groups.get(key);
    if (group === undefined) {
      group = {count: 0, bytes: 0};
      groups.set(key, group);
    }
    group.count++;
    group.bytes += line.length;
  };
  for (let at = 0; at < u8.length; at += SLICE_BYTES) {
    const chunk = u8.subarray(at, Math.min(u8.length, at + SLICE_BYTES));
    const lines = (rest + decoder.decode(chunk, {stream: true})).split('\n');
    rest = lines.pop();
    for (const line of lines) handle(line);
  }
  handle(rest + decoder.decode());
  return {items, groups};
}

/** Cut points of `u8` into `pieces` parts, each ending after a '\n' (the last at the end). */
export function cutAtLines(u8, pieces) {
  const cuts = [0];
  for (let i = 1; i < pieces; i++) {
    let at = Math.max(Math.floor((u8.length * i) / pieces), cuts[cuts.length - 1]);
    const nl = u8.indexOf(10, at);
    cuts.push(nl < 0 ? u8.length : nl + 1);
  }
  cuts.push(u8.length);
  return cuts;
}
