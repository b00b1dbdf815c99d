// Small DOM helpers shared by the page's modules. Text only: nothing here parses HTML, so keys,
// values and messages from the data can never become markup.
import {formatKeyValue, truncate} from './format.js';

/**
 * document.createElement with a class, text, title, data-testid, attributes and children: the one
 * element builder of the page and the element (embed/element-dom.js re-exports it).
 */
export function h(tag, {className, text, title, testid, attrs} = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (title !== undefined) node.title = title;
  if (testid) node.dataset.testid = testid;
  for (const [k, v] of Object.entries(attrs ?? {})) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}

/** A key rendered with its types visible: "5" (string) vs 5 (number), undefined in italics. */
export function keyNode(key, {max = 90} = {}) {
  const values = Array.isArray(key) ? key : [key];
  const wrap = h('span', {className: 'key'});
  if (values.length > 1) wrap.append(h('span', {className: 'k-sep', text: '['}));
  values.forEach((v, i) => {
    if (i > 0) wrap.append(h('span', {className: 'k-sep', text: ', '}));
    const {text, type} = formatKeyValue(v);
    const title = type === 'undefined' ? 'no value at the key path (the undefined partition, {})' : `${type}: ${text}`;
    wrap.append(h('span', {className: `k-${type}`, text: truncate(text, max), title}));
  });
  if (values.length > 1) wrap.append(h('span', {className: 'k-sep', text: ']'}));
  return wrap;
}

/** Sets a figure's text and data-value, with an optional level ('warn', 'bad') on its .figure. */
export function setFigure(node, text, value, {level = '', title} = {}) {
  node.textContent = text;
  node.dataset.value = String(value);
  node.title = title ?? '';
  const figure = node.closest('.figure');
  if (figure) {
    figure.classList.toggle('warn', level === 'warn');
    figure.classList.toggle('bad', level === 'bad');
  }
}

/** A <table> filled from a header row and body rows (arrays of strings or nodes). */
export function fillTable(table, head, rows, {caption} = {}) {
  const parts = [];
  if (caption) parts.push(h('caption', {className: 'visually-hidden', text: caption}));
  parts.push(h('thead', {}, [h('tr', {}, head.map((c) => {
    const th = h('th', {className: c.num ? 'num' : '', text: c.label, title: c.title});
    th.scope = 'col';
    return th;
  }))]));
  parts.push(h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell, i) => {
    const td = h('td', {className: head[i]?.num ? 'num' : head[i]?.className ?? ''});
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell ?? '';
    return td;
  })))));
  table.replaceChildren(...parts);
}

/** getElementById inside `root` only (the root itself included): a view owns nothing outside it. */
export const scopedById = (root) => (id) => (root.id === id ? root : root.querySelector(`#${CSS.escape(id)}`));
/** The first element inside `root` with data-testid `id`. */
export const scopedByTestId = (root) => (id) => root.querySelector(`[data-testid="${id}"]`);

/**
 * Submits `form` as pressing its submit button does (form.requestSubmit: validation, then a
 * cancelable submit event); where requestSubmit is missing (Safari before 16), checks validity
 * and dispatches the same event.
 */
export function submitForm(form) {
  if (typeof form.requestSubmit === 'function') {
    form.requestSubmit();
  } else if (form.reportValidity()) {
    form.dispatchEvent(new Event('submit', {bubbles: true, cancelable: true}));
  }
}
