// What the element needs only once a chart is on screen: D3 (vendor/d3.min.js, a classic script
// that sets window.d3, loaded once per page) and the chart styles for a shadow root: the page's
// own charts.css (the colour variables and chart rules, so the page and the element draw alike),
// themed by the element's --pp-* properties. Neither is fetched by an element showing tables.

const SITE = new URL('../', import.meta.url);

let d3Promise = null;
/** Resolves once window.d3 exists; adds the script to the document at most once. */
export function loadD3() {
  if (globalThis.d3) return Promise.resolve(globalThis.d3);
  d3Promise ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL('vendor/d3.min.js', SITE).href;
    script.addEventListener('load', () => (globalThis.d3 ? resolve(globalThis.d3) : reject(new Error('D3 did not load.'))));
    script.addEventListener('error', () => {
      d3Promise = null;
      reject(new Error('D3 (vendor/d3.min.js) could not be loaded.'));
    });
    document.head.append(script);
  });
  return d3Promise;
}

// The page's names for colours, mapped to the element's (partition-playground.js STYLE: --_fg is
// --pp-fg or its default, and so on), after the page's own values so these win.
const THEME = `
:host {
  --text: var(--_fg); --muted: var(--_muted); --border: var(--_border); --surface: var(--_bg);
  --surface-2: var(--_stripe); --accent: var(--_accent); --accent-strong: var(--_accent);
  --bar: var(--_accent); --bar-hover: var(--_fg); --danger: var(--_error); --route: var(--_accent);
  --sans: var(--pp-font, system-ui, sans-serif); --mono: var(--pp-mono, ui-monospace, monospace);
}
figure.pp-chart { margin: 0; min-width: 0; }
figure.pp-chart figcaption { color: var(--_muted); font-size: .85em; margin: .2em 0; }
.chart { width: 100%; min-height: 200px; overflow-x: auto; }
/* A chart is drawn at its box's width (again when that changes) and never scaled down, which would
   shrink its labels: one drawn wider than its box scrolls in it. */
.chart svg { display: block; max-width: none; height: auto; overflow: visible; }
/* The axis titles a size smaller than the page's, so a phone-wide chart holds them whole. */
.chart .axis-label { font-size: 11px; }
.pp-charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 320px), 1fr)); gap: .8em; }
details.table-view { margin-top: .3em; overflow-x: auto; }
details.table-view td.num, details.table-view th.num { white-space: nowrap; }
details.table-view summary { cursor: pointer; color: var(--_accent); }
details.table-view summary:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
`;

/**
 * The rules of charts.css as text for a shadow root: :root (the colour variables) becomes :host,
 * and the dark colours apply to a host with theme="dark" whatever the OS says, and not to one
 * with theme="light".
 */
function hostRules(rules) {
  const out = [];
  for (const rule of rules) {
    if (rule.cssRules && rule.media) {
      const inner = hostRules(rule.cssRules);
      if (/prefers-color-scheme:\s*dark/.test(rule.media.mediaText)) {
        out.push(`@media ${rule.media.mediaText} {\n${inner.map((r) => r.replace(/:host\b/g, ':host(:not([theme="light"]))')).join('\n')}\n}`);
        out.push(...inner.map((r) => r.replace(/:host\b/g, ':host([theme="dark"])')));
      } else {
        out.push(`@media ${rule.media.mediaText} {\n${inner.join('\n')}\n}`);
      }
    } else {
      out.push(rule.cssText.replace(/:root\b/g, ':host'));
    }
  }
  return out;
}

/**
 * A constructed sheet of `css` a shadow root can adopt, or null where the browser has no
 * constructable, adoptable sheets (Safari before 16.4): the caller then uses a <style>.
 */
export function constructedSheet(css) {
  if (!('adoptedStyleSheets' in ShadowRoot.prototype)) return null;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  } catch {
    return null;
  }
}

/** `text`'s rules, parsed by a constructed sheet or, before Safari 16.4, a detached document's <style>. */
function parsedRules(text) {
  const sheet = constructedSheet(text);
  if (sheet) return sheet.cssRules;
  const doc = document.implementation.createHTMLDocument('');
  const style = doc.createElement('style');
  style.textContent = text;
  doc.head.append(style);
  return style.sheet.cssRules;
}

let cssPromise = null;
/** The rules of charts.css plus the element's theme, as CSS text, fetched once. */
function chartCss() {
  cssPromise ??= fetch(new URL('charts.css', SITE)).then((r) => {
    if (!r.ok) throw new Error(`charts.css: HTTP ${r.status}`);
    return r.text();
  }).then((text) => `${hostRules(parsedRules(text)).join('\n')}\n${THEME}`);
  cssPromise.catch(() => { cssPromise = null; });
  return cssPromise;
}

let sheet = null;
/** D3 and the chart rules, adopted by `shadowRoot` after its own sheets (else a <style> in it). */
export async function prepareCharts(shadowRoot) {
  const [, css] = await Promise.all([loadD3(), chartCss()]);
  sheet ??= constructedSheet(css);
  if (sheet) {
    if (!shadowRoot.adoptedStyleSheets.includes(sheet)) {
      shadowRoot.adoptedStyleSheets = [...shadowRoot.adoptedStyleSheets, sheet];
    }
  } else if (!shadowRoot.querySelector('style[data-pp-charts]')) {
    // No constructable sheets (Safari before 16.4): the same rules as a <style>, once per root.
    const style = document.createElement('style');
    style.dataset.ppCharts = '';
    style.textContent = css;
    shadowRoot.append(style);
  }
}
