// What every view of the page and of the element agrees on: how it is mounted, the handle it
// answers with, and the events it speaks. A view owns its markup (a template it renders into the
// root it is given) and looks up nothing outside that root; views, the share bar and the shell
// (app.js) talk through the handle and through events, never through each other's ids.
//
//   const view = mountCosmosView(root, client, options);   // mountXView(root, client, options)
//   view.element          // the root it rendered into
//   view.activate()       // its mode shows: redraw what needs a width (charts), start lazy work
//   view.deactivate()     // its mode hides
//   view.destroy()        // listeners, observers and timers gone; root emptied
//   view.shareState()     // what a link needs to restore it: a small plain object, or null
//   view.restoreState(s)  // Promise: drives its own controls to `s`, as a reader would
//   ...                   // plus domain methods (cosmos: source(), renderCharts())
//
// Events (CustomEvent, bubbling, dispatched on the view's root; names in VIEW_EVENTS):
//   'pp:run'     detail {state: 'loading' | 'busy' | 'ready' | 'error', runs}: an analysis of the
//                view started or finished (the share bar restores a link after the first one).
//   'pp:source'  detail {source}: the data on screen changed (the share bar offers to inline
//                the user's own data).
export const VIEW_EVENTS = Object.freeze({RUN: 'pp:run', SOURCE: 'pp:source'});

/** Renders a view's static template (no data in it) into `root`, replacing what was there. */
export function renderTemplate(root, html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  root.replaceChildren(template.content.cloneNode(true));
}

/** Dispatches a view event from `root` (bubbling, so the shell and the share bar hear it). */
export function emitViewEvent(root, type, detail) {
  root.dispatchEvent(new CustomEvent(type, {bubbles: true, detail}));
}
