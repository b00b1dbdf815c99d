// One chart of the element: a figure with its caption, the chart (keyboard reachable, redrawn
// when its width changes) and its table alternative under "Table view". mount() returns a view
// that owns only what is inside `root` and can be torn down.
import {h} from './element-dom.js';

/**
 * Mounts a chart figure in `root`: draw(chartNode) draws it (again on resize); table is the
 * table alternative. Returns {node, redraw, destroy}.
 */
export function mountChartFigure(root, {testid, caption, label, draw, tableNode, openTable = false}) {
  const chart = h('div', {className: 'chart', testid: `${testid}-chart`,
                          attrs: {tabindex: '0', role: 'group', 'aria-label': label}});
  const details = h('details', {className: 'table-view', testid: `${testid}-table-view`},
                    [h('summary', {text: 'Table view'}), tableNode]);
  if (openTable) details.open = true;
  const node = h('figure', {className: 'pp-chart', testid}, [h('figcaption', {text: caption}), chart, details]);
  root.append(node);
  const redraw = () => {
    try {
      draw(chart);
    } catch (e) {
      chart.replaceChildren(h('p', {className: 'error', text: `The chart could not be drawn: ${e.message}`}));
    }
  };
  redraw();
  let width = chart.clientWidth;
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => {
    if (chart.clientWidth !== width) {
      width = chart.clientWidth;
      redraw();
    }
  }) : null;
  observer?.observe(chart);
  return {node, redraw, destroy() {
    observer?.disconnect();
    node.remove();
  }};
}
