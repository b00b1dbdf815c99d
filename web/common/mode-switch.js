// The page's mode switch: "Cosmos DB" and "Cassandra", a tab list (WAI-ARIA tabs pattern: arrow
// keys, Home and End move between the tabs, the selected tab alone is in the tab order). Each tab
// shows its panel and hides the other; nothing in a hidden panel is reset, so switching back finds
// everything as it was. #cassandra (or #sizing: any tab's data-mode) in the address opens that mode.
//
//   initModeSwitch(tablist, {panels: {cosmos: node, cassandra: node, sizing: node}, onChange: (mode) => ...});
// The tabs are read inside `tablist`; the panels are given (the composition root finds them).

export function initModeSwitch(tablist, {panels = {}, onChange} = {}) {
  const tabs = [...tablist.querySelectorAll('[role="tab"][data-mode]')];
  let mode = null;
  /** The mode the address names (#cassandra, #sizing), or undefined. */
  const modeFromHash = () => tabs.slice(1).find((t) => location.hash === `#${t.dataset.mode}`)?.dataset.mode;

  function select(next, {focus = false, fromHash = false} = {}) {
    const tab = tabs.find((t) => t.dataset.mode === next) ?? tabs[0];
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      const panel = panels[t.dataset.mode];
      if (panel) panel.hidden = !on;
    }
    if (focus) tab.focus();
    const changed = mode !== tab.dataset.mode;
    mode = tab.dataset.mode;
    document.body.dataset.mode = mode;
    if (!fromHash) {
      const url = mode !== tabs[0].dataset.mode ? `#${mode}` : `${location.pathname}${location.search}`;
      history.replaceState(null, '', url);
    }
    if (changed) onChange?.(mode);
  }

  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab.dataset.mode));
    tab.addEventListener('keydown', (event) => {
      const i = tabs.indexOf(tab);
      let j = -1;
      if (event.key === 'ArrowRight' || event.key === 'ArrowDown') j = (i + 1) % tabs.length;
      else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') j = (i - 1 + tabs.length) % tabs.length;
      else if (event.key === 'Home') j = 0;
      else if (event.key === 'End') j = tabs.length - 1;
      if (j < 0) return;
      event.preventDefault();
      select(tabs[j].dataset.mode, {focus: true});
    });
  }
  window.addEventListener('hashchange', () => {
    const named = modeFromHash();
    if (named) select(named, {fromHash: true});
  });
  select(modeFromHash() ?? 'cosmos', {fromHash: true});
  return {select, get mode() { return mode; }};
}
