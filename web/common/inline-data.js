// Inline data of a <partition-playground> element: the child <script type="application/json">
// or <script type="text/cql"> a snippet carries. The HTML parser ends a script at "</script" and,
// after "<!--", at a second "<script", so text holding those would swallow the rest of the host
// page. The page's snippets (embed-share.js) write text holding "<" with "&" and "<" as "&amp;"
// and "&lt;" and mark the script data-escaped="html"; the element (partition-playground.js)
// reads it back exactly, so every byte the engine measures is the original's. (JSON's "\u003c"
// would keep an item's values but not its bytes, and CQL has no such escape.)

/** The markup of an inline <script type="`type`"> holding `text`, safe in any host page. */
export function inlineScript(type, text) {
  if (!text.includes('<')) return `\n  <script type="${type}">\n${text}\n  </script>\n`;
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `\n  <script type="${type}" data-escaped="html">\n${escaped}\n  </script>\n`;
}

/** The text of an inline script element (or of its textContent and data-escaped value). */
export function inlineText(textContent, escaped) {
  if (escaped !== 'html') return textContent;
  return textContent.replace(/&lt;|&amp;/g, (m) => (m === '&lt;' ? '<' : '&'));
}
