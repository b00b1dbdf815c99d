// The Cassandra view's bulk load: JSON or CSV rows (gzipped or not) read in the worker a piece at a
// time into a table (client.cqlLoad), with its progress, cancel, the rows that failed, and the
// examples' data files. Part of the Cassandra view (cql-view.js): `v` is the view's context.
import {h} from '../common/dom.js';
import {formatInt, formatMs, formatPercent, progressBytes, progressShare, sourceSize} from '../common/format.js';
import {LoadFormat, SourceKind} from '../worker/protocol.js';
import {plural} from './cql-text.js';

/** The delay before a load shows its progress bar (a quick load shows none). */
const PROGRESS_DELAY_MS = 300; // lint-ok: display timing

/** The format a file's name says ('csv' for .csv/.tsv, 'json' for .json/.ndjson/.jsonl, gzipped or not), or null. */
export function formatOfName(name) {
  const base = String(name ?? '').toLowerCase().replace(/\.gz$/, '');
  if (/\.(csv|tsv)$/.test(base)) return LoadFormat.CSV;
  if (/\.(json|ndjson|jsonl)$/.test(base)) return LoadFormat.JSON;
  return null;
}

/** The bulk-load part: {offerExampleLoad, syncExampleLoad, cancel}; wires its controls. */
export function bulkLoadPart(v) {
  const {el, state, client, examplesBase} = v;
  const enqueue = (task) => v.enqueue(task);
  const ru = () => v.ru();
  const acceptView = (view) => v.acceptView(view);
  const runStatements = (script) => v.runStatements(script);

  function chosenFormat() {
    return el.formatCsv.checked ? LoadFormat.CSV : LoadFormat.JSON;
  }

  function setFormat(format) {
    el.formatCsv.checked = format === LoadFormat.CSV;
    el.formatJson.checked = format !== LoadFormat.CSV;
    syncFormat();
  }

  function syncFormat() {
    el.csvOptions.hidden = chosenFormat() !== LoadFormat.CSV;
  }

  /** The CSV options of the controls (protocol.js CsvOptions); the engine checks their values. */
  function csvOptions() {
    const options = {header: el.csvHeader.checked, delimiter: el.csvDelimiter.value};
    if (el.csvNull.value !== '') options.null = el.csvNull.value;
    if (el.csvQuote.value !== '') options.quote = el.csvQuote.value;
    if (el.csvEscape.value !== '') options.escape = el.csvEscape.value;
    const datetime = el.csvDatetime.value.trim();
    if (datetime) options.datetimeformat = datetime;
    const columns = el.csvColumns.value.split(',').map((c) => c.trim()).filter(Boolean);
    if (columns.length) options.columns = columns;
    return options;
  }

  /** Puts CsvOptions (an example's) into the controls; what they do not give goes back to its default. */
  function setCsvControls(csv = {}) {
    el.csvHeader.checked = csv.header ?? true;
    el.csvDelimiter.value = [...el.csvDelimiter.options].some((o) => o.value === csv.delimiter) ? csv.delimiter : ',';
    el.csvNull.value = csv.null ?? '';
    el.csvQuote.value = csv.quote ?? '"';
    el.csvEscape.value = csv.escape ?? '\\';
    el.csvDatetime.value = csv.datetimeformat ?? '';
    el.csvColumns.value = Array.isArray(csv.columns) ? csv.columns.join(', ') : '';
  }

  function loadFile(file) {
    if (!file) return undefined;
    // The name decides the format when it says one (.csv, .csv.gz, .json, .ndjson.gz, ...).
    const named = formatOfName(file.name);
    if (named) setFormat(named);
    if (/\.tsv(\.gz)?$/i.test(file.name)) el.csvDelimiter.value = '\t';
    state.lastLoad = {source: {kind: SourceKind.FILE, file, name: file.name}, name: file.name};
    el.loadAgain.disabled = false;
    return loadRows(state.lastLoad);
  }

  /** Loads `source` into the table picked (or `table`) in the format and with the options chosen. */
  function loadRows({source, name}, {table = el.loadTable.value, after = ''} = {}) {
    if (!source || !table) return undefined;
    const format = chosenFormat();
    const csv = format === LoadFormat.CSV ? csvOptions() : undefined;
    const abort = new AbortController();
    state.loadAbort = abort;
    let progress = null;
    el.loadStatus.textContent = '';
    el.loadStatus.classList.remove('bad', 'partial');
    showFailures([]);
    const timer = setTimeout(() => {
      el.progress.hidden = false;
      updateProgress(progress, name);
    }, PROGRESS_DELAY_MS);
    return enqueue(async () => {
      try {
        const out = await client.cqlLoad({
          table, source, format, csv, ru: ru(), signal: abort.signal,
          onProgress: (p) => {
            progress = p;
            if (!el.progress.hidden) updateProgress(p, name);
          },
        });
        showLoaded(out, name, table);
        acceptView(out.view);
        if (out.stopped) throw Object.assign(new Error(out.stopped.message), {shown: true, stopped: true});
      } catch (e) {
        if (e?.stopped) throw e;
        el.loadStatus.classList.add('bad');
        const loc = e.location;
        const item = loc && format !== LoadFormat.CSV && loc.item_index >= 0 ? `, item #${formatInt(loc.item_index)}` : '';
        const where = loc && loc.line > 0 ? ` (line ${formatInt(loc.line)}, column ${formatInt(loc.column)}${item})` : '';
        el.loadStatus.textContent = e.cancelled ? 'Loading cancelled; the rows loaded before stay.' : `${e.message}${where}`;
        el.loadStatus.dataset.rows = '';
        el.loadStatus.dataset.failed = '';
        el.loadStatus.dataset.code = e.codeName ?? '';
        if (e) e.shown = true;
        // The table may hold some rows now: show them.
        try {
          acceptView(await client.cqlView({table, ru: ru()}));
        } catch { /* the error above is what matters */ }
        throw e;
      } finally {
        clearTimeout(timer);
        el.progress.hidden = true;
        state.loadAbort = null;
      }
      // An example's queries over what it loaded.
      if (after) await runStatements(after);
    });
  }

  /** The result line of a finished (or stopped) load and the rows that failed, located. */
  function showLoaded(out, name, table) {
    const what = out.format === LoadFormat.CSV ? 'CSV' : 'JSON';
    const size = out.source ? ` (${sourceSize(out.source, what)})` : '';
    let text = `Loaded ${plural(out.rows, 'row')} from ${name}${size} into ${table} in ${formatMs(out.timing.ms)}.`;
    const stop = out.stopped;
    if (stop) {
      const loc = stop.location;
      const where = loc && loc.line > 0 ? ` at line ${formatInt(loc.line)}, column ${formatInt(loc.column)}` : '';
      // The engine's message says how many rows loaded before it (they stay).
      text = `The load of ${name} into ${table} stopped${where}: ${stop.message}.`;
    }
    const failed = out.failed ?? 0;
    const failures = out.failures ?? [];
    if (failed > 0) {
      text += ` ${plural(failed, 'row')} failed` +
        (failures.length < failed ? `; the first ${formatInt(failures.length)} are listed below.` : ', listed below.');
    }
    el.loadStatus.textContent = text;
    el.loadStatus.classList.toggle('bad', !!stop);
    el.loadStatus.classList.toggle('partial', !stop && failed > 0);
    el.loadStatus.dataset.rows = String(out.rows);
    el.loadStatus.dataset.failed = String(failed);
    el.loadStatus.dataset.table = table;
    el.loadStatus.dataset.bytes = String(out.source?.bytes ?? '');
    el.loadStatus.dataset.compressedBytes = String(out.source?.compressedBytes ?? '');
    if (stop) el.loadStatus.dataset.code = stop.codeName ?? '';
    else delete el.loadStatus.dataset.code;
    showFailures(failures);
  }

  function showFailures(failures) {
    el.loadFailures.hidden = failures.length === 0;
    el.loadFailures.replaceChildren(...failures.map((f) => {
      const li = h('li', {testid: 'cql-load-failure'}, [
        h('span', {className: 'where', text: `line ${formatInt(f.line)}, column ${formatInt(f.column)}`}),
        `: ${f.message}`,
      ]);
      li.dataset.line = String(f.line);
      li.dataset.column = String(f.column);
      return li;
    }));
  }

  function updateProgress(p, name) {
    const share = progressShare(p);
    const rows = p ? ` · ${plural(p.items, 'row')}${p.failed ? `, ${formatInt(p.failed)} failed` : ''}` : '';
    if (!p || share === null) {
      el.progressTrack.classList.add('indeterminate');
      el.progressText.textContent = `Loading ${name}${p ? `: ${progressBytes(p, chosenFormat() === LoadFormat.CSV ? 'CSV' : 'JSON')}${rows}` : '…'}`;
      return;
    }
    el.progressTrack.classList.remove('indeterminate');
    el.progressBar.style.width = `${(share * 100).toFixed(1)}%`;
    el.progressTrack.setAttribute('aria-valuenow', String(Math.round(share * 100)));
    el.progressText.textContent = `Loading ${name}: ${progressBytes(p, chosenFormat() === LoadFormat.CSV ? 'CSV' : 'JSON')} ` +
      `(${formatPercent(share)})${rows}`;
  }

  /**
   * The button that loads an example's data file ({file, table, format, csv, after} of
   * examples/cql/index.json) with the bulk load: COPY FROM, which reads a file, is for
   * `partplay cql`; on the page the example's file is loaded through the worker.
   */
  function offerExampleLoad(load) {
    const usable = load && typeof load.file === 'string' && typeof load.table === 'string';
    state.exampleLoad = usable ? load : null;
    el.loadExample.hidden = !usable;
    el.loadExample.textContent = usable ? `Load ${load.file} into ${load.table}` : '';
    syncExampleLoad();
  }

  /** The example's load is offered once its table exists: the example's script creates it when run. */
  function syncExampleLoad() {
    const table = state.exampleLoad?.table ?? null;
    const exists = !!table && (state.view?.keyspaces ?? []).some((k) => k.tables.some((t) => `${k.name}.${t}` === table));
    el.loadExample.disabled = !exists;
    el.loadExample.title = table && !exists ? `Run the script first: it creates ${table}.` : '';
  }

  el.loadInput.addEventListener('change', () => {
    const file = el.loadInput.files?.[0];
    el.loadInput.value = '';
    loadFile(file);
  });
  el.loadCancel.addEventListener('click', () => state.loadAbort?.abort());
  el.loadAgain.addEventListener('click', () => {
    if (state.lastLoad) loadRows(state.lastLoad);
  });
  el.loadExample.addEventListener('click', () => {
    const load = state.exampleLoad;
    if (!load) return;
    setFormat(load.format ?? LoadFormat.JSON);
    if (load.format === LoadFormat.CSV) setCsvControls(load.csv);
    el.loadTable.value = load.table;
    state.lastLoad = {source: {kind: SourceKind.URL, url: new URL(load.file, examplesBase).href, name: load.file},
                      name: load.file};
    el.loadAgain.disabled = false;
    loadRows(state.lastLoad, {table: load.table, after: typeof load.after === 'string' ? load.after : ''});
  });
  for (const radio of [el.formatJson, el.formatCsv]) radio.addEventListener('change', syncFormat);

  return {offerExampleLoad, syncExampleLoad, cancel: () => state.loadAbort?.abort()};
}
