// What a Sizing link carries and how the view is brought back to it (embed-share.js packs it into
// the URL): the example, or the user's own schema when it fits; the table; the form's settings
// for it (rows, worst case, partitions, RF, t_avg, growth, the splits asked for, the growth's
// start date) and its column averages.
//
//   const link = createSizingLink({el, state, ...});
//   link.shareState({fits});   // {e | s, t, f: {rows, ..., splits, averages, start}}
//   await link.restoreState(shared);

export function createSizingLink({el, state, readSettings, averagesFor, currentTable, leaveExample, loadExample,
                                  fillTables, setTableSettings, compute}) {
  function shareState({fits = () => false} = {}) {
    const table = currentTable();
    if (!table) return {};
    if (state.formTable) state.settingsByTable.set(state.formTable, readSettings());
    const settings = state.settingsByTable.get(table) ?? readSettings();
    const shared = {t: table, f: {...settings, splits: settings.splits.map((x) => ({...x})),
                                  averages: {...averagesFor(table)}, start: el.startDate.value}};
    if (state.example) shared.e = state.example.id;
    else if (fits(el.cql.value)) shared.s = el.cql.value;
    return shared;
  }

  /** The link's schema (or example), table, settings and averages, then one computation. */
  async function restoreState(shared) {
    if (typeof shared.s === 'string') {
      el.cql.value = shared.s;
      leaveExample('The schema of a shared link.');
      if (!await fillTables({keep: shared.t})) return;
    } else if (shared.e && shared.e !== state.example?.id) {
      await loadExample(shared.e);
    }
    if (shared.t && [...el.table.options].some((o) => o.value === shared.t)) el.table.value = shared.t;
    if (shared.f) {
      const {averages = {}, start, ...settings} = shared.f;
      if (start) el.startDate.value = start;
      setTableSettings(currentTable(), {...settings, splits: settings.splits ?? []}, {...averages});
    }
    await compute();
  }

  return {shareState, restoreState};
}
