// Exports of what the page shows: tables as CSV (RFC 4180) or Markdown, a view as a Markdown
// document, each chart as a standalone SVG (its styles and colours written in) or a PNG.
//
//   downloadText('findings.csv', csvOf([['code', 'message'], ...rows]), 'text/csv');
//   markdownOf(sectionRoot);          // headings, figures, lists and tables, as on screen
//   watchChartExports(document.body); // an "SVG · PNG" pair under every chart that appears
//
// Nothing here judges: the figures are the ones on screen or in the engine's report.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** One CSV field: quoted when it holds a comma, quote, or line break (RFC 4180). */
function csvField(value) {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of fields as CSV text, lines ended by CRLF as RFC 4180 writes them. */
export function csvOf(rows) {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const mdCell = (value) => String(value ?? '').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();

/** A Markdown table of a header row and rows. */
export function markdownTable(head, rows) {
  const width = Math.max(head.length, ...rows.map((r) => r.length));
  const pad = (r) => [...r, ...Array(width - r.length).fill('')];
  return [`| ${pad(head).map(mdCell).join(' | ')} |`, `| ${pad(head).map(() => '---').join(' | ')} |`,
          ...rows.map((r) => `| ${pad(r).map(mdCell).join(' | ')} |`)].join('\n') + '\n';
}

const cellText = (cell) => cell.textContent.replace(/\s+/g, ' ').trim();

/** A DOM table's header and body rows as text ({head, rows}); a table without a head takes its first row. */
export function tableRows(table) {
  const headRow = table.tHead?.rows[table.tHead.rows.length - 1];
  const bodyRows = [...table.tBodies].flatMap((b) => [...b.rows]);
  const head = headRow ? [...headRow.cells].map(cellText) : (bodyRows.length ? [...bodyRows.shift().cells].map(cellText) : []);
  return {head, rows: bodyRows.map((tr) => [...tr.cells].map(cellText))};
}

const shown = (node) => !node.closest('[hidden]') && node.getClientRects().length > 0;

/**
 * A Markdown document of what `root` shows: each visible card's heading, its figures ("label:
 * value"), its list items, callouts and tables (those in a closed "table view" too: they are the
 * charts' numbers). `title` is the first line.
 */
export function markdownOf(root, title) {
  const out = [`# ${title}`, ''];
  for (const card of root.querySelectorAll('section.card')) {
    if (!shown(card)) continue;
    const heading = card.querySelector('h2, h3');
    if (heading) out.push(`## ${cellText(heading)}`, '');
    for (const node of card.querySelectorAll('.figure, .callout, li.finding, ul.insights > li, table, .route-result, .growth-summary')) {
      const inTableView = node.closest('details.table-view');
      if (node.tagName !== 'TABLE' && !shown(node)) continue;
      if (node.tagName === 'TABLE') {
        if (node.closest('[hidden]') || (!inTableView && !shown(node)) || node.closest('table') !== node) continue;
        const {head, rows} = tableRows(node);
        if (rows.length === 0) continue;
        const caption = node.caption ? cellText(node.caption) : inTableView ? cellText(inTableView.querySelector('summary')) : '';
        if (caption) out.push(`*${mdCell(caption)}*`, '');
        out.push(markdownTable(head, rows));
      } else if (node.classList.contains('figure')) {
        const label = node.querySelector('.figure-label');
        const value = node.querySelector('.figure-value');
        const sub = node.querySelector('.figure-sub');
        if (label && value && cellText(value)) {
          out.push(`- ${mdCell(cellText(label))}: **${mdCell(cellText(value))}**${sub && cellText(sub) ? ` (${mdCell(cellText(sub))})` : ''}`);
        }
      } else {
        out.push(`- ${mdCell(cellText(node))}`);
      }
    }
    out.push('');
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Saves `content` (text or a Blob) as a file named `name`. */
export function download(name, content, type = 'text/plain') {
  const blob = content instanceof Blob ? content : new Blob([content], {type: `${type};charset=utf-8`});
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);  // lint-ok: time for the browser to start the download
}

/** The CSS rules that style charts (charts.css: selectors under .chart), as text. */
function chartRules() {
  const rules = [];
  for (const sheet of document.styleSheets) {
    let list;
    try {
      list = sheet.cssRules;
    } catch {
      continue;  // another origin's sheet
    }
    for (const rule of list) {
      if (rule.selectorText?.includes('.chart') || rule.selectorText?.includes('svg')) rules.push(rule.cssText);
    }
  }
  return rules.join('\n');
}

/**
 * A chart's SVG as a standalone file: the styles it draws with written into it, the colours of
 * its CSS variables resolved as they are on screen, its size fixed, the namespace declared.
 */
export function chartSvgText(svg) {
  const clone = svg.cloneNode(true);
  const box = svg.getBoundingClientRect();
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('width', String(Math.round(box.width)));
  clone.setAttribute('height', String(Math.round(box.height)));
  clone.classList.add('chart');
  const css = chartRules();
  const computed = getComputedStyle(svg);
  const vars = [...new Set(css.match(/--[\w-]+/g) ?? [])]
    .map((name) => [name, computed.getPropertyValue(name).trim()]).filter(([, v]) => v);
  const style = document.createElementNS(SVG_NS, 'style');
  style.textContent = `svg { ${vars.map(([n, v]) => `${n}: ${v};`).join(' ')} font-family: ${computed.fontFamily}; ` +
    `font-size: ${computed.fontSize}; color: ${computed.color}; background: ${getComputedStyle(document.body).backgroundColor}; }\n${css}`;
  clone.insertBefore(style, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

/** A chart as a PNG blob at `scale` times its size on screen (drawn from its standalone SVG). */
export async function chartPng(svg, scale = 2) {
  const text = chartSvgText(svg);
  const box = svg.getBoundingClientRect();
  // A data: URL, which the page's Content-Security-Policy (img-src 'self' data:) lets an image load.
  const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(box.width * scale));
    canvas.height = Math.max(1, Math.round(box.height * scale));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png'));
  }
}

/** A file name from a chart's label: "Logical to physical partition map" -> "logical-to-physical-partition-map". */
const slug = (text) => (text || 'chart').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'chart';

/** Puts "SVG · PNG" under the chart `svg` (once per chart box). */
function addExports(svg) {
  const box = svg.closest('.chart') ?? svg.parentElement;
  if (!box || box.nextElementSibling?.classList.contains('chart-export')) return;
  const name = () => slug(svg.querySelector('title')?.textContent ?? svg.getAttribute('aria-label'));
  const button = (text, testid, action) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small secondary';
    b.textContent = text;
    b.dataset.testid = testid;
    b.addEventListener('click', () => action(box.querySelector('svg') ?? svg));
    return b;
  };
  const bar = document.createElement('div');
  bar.className = 'chart-export';
  bar.append('Download this chart: ',
             button('SVG', 'export-svg', (s) => download(`${name()}.svg`, chartSvgText(s), 'image/svg+xml')),
             ' ',
             button('PNG', 'export-png', async (s) => download(`${name()}.png`, await chartPng(s))));
  box.after(bar);
}

/** Watches `root` for charts drawn into it and gives each its export buttons; returns a stop function. */
export function watchChartExports(root) {
  const scan = () => root.querySelectorAll('.chart > svg, .keycmp-chart > svg').forEach(addExports);
  scan();
  let pending = 0;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = requestAnimationFrame(() => {
      pending = 0;
      scan();
    });
  });
  observer.observe(root, {childList: true, subtree: true});
  return () => observer.disconnect();
}
