// The worker protocol's reference as Markdown, written from the table (protocol.js REQUESTS), so
// the docs cannot drift from it. Not loaded by the page; for docs and tooling:
//
//   node scripts/gen-protocol-doc.mjs     (docs/protocol.md's table is protocolMarkdown())
import {REQUESTS} from './protocol.js';

/** A spec as text: 'string', 'string?', '{a, b?}', '[{name}]'. */
function specText(spec) {
  if (typeof spec === 'string') return spec.startsWith('?') ? `${spec.slice(1)}?` : spec;
  if (Array.isArray(spec)) return `[${specText(spec[0])}]`;
  if (spec && 'spec' in spec && Object.keys(spec).length === 1) return `${specText(spec.spec)}?`;
  return `{${Object.entries(spec).map(([k, v]) => `${k}: ${specText(v)}`).join(', ')}}`;
}

export function protocolMarkdown() {
  const lines = ['| type | client method | payload | result | domain | cancellable | progress |',
                 '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const e of REQUESTS) {
    const payload = Object.entries(e.payload).map(([k, v]) => `${k}: ${specText(v)}`).join(', ') || '—';
    lines.push(`| \`${e.type}\` | \`${e.client}\` | ${payload} | ${e.result} | ${e.domain ?? '—'} | ` +
               `${e.cancellable || '—'} | ${e.progress ? 'yes' : '—'} |`);
  }
  lines.push('', ...REQUESTS.map((e) => `- \`${e.type}\`: ${e.doc}`));
  return `${lines.join('\n')}\n`;
}
