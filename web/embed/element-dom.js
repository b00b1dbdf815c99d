// The element's DOM helpers (text only, never HTML), shared by partition-playground.js and its
// chart views (embed/cosmos-views.js, cassandra-views.js, sizing-views.js).

/** A DOM node with text only (never HTML). */
export function h(tag, {text, className, testid, attrs} = {}, children = []) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  if (testid) node.dataset.testid = testid;
  for (const [k, v] of Object.entries(attrs ?? {})) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** A table: head is [text | {text, num}], rows are [[cell]] with cell text or {text, num, mono}. */
export function table(caption, head, rows, {testid} = {}) {
  const cellOf = (tag, c) => {
    const spec = typeof c === 'object' && c !== null ? c : {text: c};
    const node = h(tag, {text: String(spec.text ?? ''), className: [spec.num ? 'num' : '', spec.mono ? 'mono' : '']
      .filter(Boolean).join(' ')});
    if (tag === 'th') node.setAttribute('scope', 'col');
    return node;
  };
  return h('table', {testid}, [
    h('caption', {text: caption}),
    h('thead', {}, [h('tr', {}, head.map((c) => cellOf('th', c)))]),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => cellOf('td', c))))),
  ]);
}

