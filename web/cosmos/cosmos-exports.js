// The Cosmos DB view's downloads: the report as Markdown (what the results show, section by
// section), its logical partitions and its findings as CSV (the engine's report, every field),
// the findings as Markdown. The comparison's own table has its pair (compare-view.js).
//
//   wireExports(root, {report: () => viewReport(), title: () => 'orders.ndjson, key /customerId'});
import {csvOf, download, markdownOf, markdownTable} from '../common/export.js';
import {formatKey} from '../common/format.js';

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'report';

/** A finding's rows: one per located item, or one for the finding alone. */
function findingRows(f) {
  const base = [f.severity, f.code, f.count ?? 0, f.message, (f.keys ?? []).map((k) => formatKey(k)).join('; ')];
  const items = f.items ?? [];
  if (!items.length) return [[...base, '', '', '', '', '', '']];
  return items.map((i) => [...base, i.item_index, i.where?.line ?? '', i.where?.column ?? '', i.where?.byte_offset ?? '',
                           i.bytes ?? '', i.type ?? '']);
}

const FINDING_HEAD = ['severity', 'code', 'count', 'message', 'partitions', 'item index', 'line', 'column', 'byte offset',
                      'item bytes', 'type'];

export function wireExports(root, {report, title}) {
  const on = (testid, action) => root.querySelector(`[data-testid="${testid}"]`).addEventListener('click', action);
  const name = () => slug(title());
  const findings = () => report()?.container?.findings ?? [];

  on('export-report-md', () => {
    const results = root.querySelector('[data-testid="results"]');
    const heading = `Partition Playground: ${title()}`;
    const text = markdownOf(results, heading).replace(`# ${heading}\n`,
      `# ${heading}\n\nExported ${new Date().toISOString().slice(0, 19).replace('T', ' ')} UTC; every figure as the page showed it.\n`);
    download(`${name()}.md`, text, 'text/markdown');
  });
  on('export-partitions-csv', () => {
    const r = report();
    const rows = (r?.partitions ?? []).map((p, i) => [i + 1, JSON.stringify(p.key), p.items, p.bytes, p.largest_item_bytes,
                                                      p.largest_item_index, p.epk ?? '']);
    download(`${name()}-partitions.csv`, csvOf([['rank', 'key (JSON)', 'items', 'bytes', 'largest item bytes',
                                                'largest item index', 'EPK'], ...rows]), 'text/csv');
  });
  on('export-findings-csv', () => {
    download(`${name()}-findings.csv`, csvOf([FINDING_HEAD, ...findings().flatMap(findingRows)]), 'text/csv');
  });
  on('export-findings-md', () => {
    const list = findings();
    const text = `# Findings: ${title()}\n\n` + (list.length
      ? markdownTable(FINDING_HEAD, list.flatMap(findingRows))
      : 'No quota or rule is broken.\n');
    download(`${name()}-findings.md`, text, 'text/markdown');
  });
}
