// The element's DOM helpers (text only, never HTML), shared by partition-playground.js and its
// chart views (embed/*-views.js): the page's one h() (common/dom.js), and the element's tables.
import {h} from '../common/dom.js';

export {h};

/**
 * A table in its own horizontal scroller (div.table-scroll): head is [text | {text, num}], rows
 * are [[cell]] with cell text or {text, num, mono}. A table wider than the element scrolls inside
 * it, so every column stays reachable on a phone and the element never widens the page; testid
 * is the table's.
 */
export function table(caption, head, rows, {testid} = {}) {
  const cellOf = (tag, c) => {
    const spec = typeof c === 'object' && c !== null ? c : {text: c};
    const node = h(tag, {text: String(spec.text ?? ''), className: [spec.num ? 'num' : '', spec.mono ? 'mono' : '']
      .filter(Boolean).join(' ')});
    if (tag === 'th') node.setAttribute('scope', 'col');
    return node;
  };
  return h('div', {className: 'table-scroll'}, [h('table', {testid}, [
    h('caption', {text: caption}),
    h('thead', {}, [h('tr', {}, head.map((c) => cellOf('th', c)))]),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => cellOf('td', c))))),
  ])]);
}

