// The Sizing view's markup (docs/sizing.md): the schema form, the approximations card, the result,
// the redesign advisor, the growth, the from-data and the from-rows sections, as one template that
// mountSizingView (sizing-panel.js) renders into the root it is given. Defaults and quotas in the
// text come from the engine's limits table (common/limits.js), so call it once the engine is
// loaded (client.ready). Ids are unique inside the view's root; the view looks them up there only.
import {limitText, limitValue} from '../common/limits.js';
import {formatInt} from '../common/format.js';

/** The split form's starting example: a month bucket over a year, 730 nights, 4 buckets. */
export const SPLIT_FORM_START = Object.freeze({distinctValues: 730, spanDays: 365, buckets: 4}); // lint-ok: a form's example values

/** The view's markup, for root.innerHTML (no user text goes in). */
export function sizingMarkup() {
  return `
<main class="wrap layout sizing-layout">
  <aside class="sidebar">
    <section class="card" aria-labelledby="sizing-form-heading">
      <h2 id="sizing-form-heading">1 · A table and your estimates</h2>
      <form id="sizing-form" class="sizing-form" data-testid="sizing-form" autocomplete="off">
        <label class="field-label" for="sizing-example">Example</label>
        <select id="sizing-example" data-testid="sizing-example"></select>
        <p class="hint" id="sizing-example-description" data-testid="sizing-example-description"></p>

        <div class="rows-source" data-testid="rows-sizing-form">
          <label class="field-label" for="rows-sizing-table">Or a table of the Cassandra mode, from its rows</label>
          <div class="row">
            <select id="rows-sizing-table" data-testid="rows-sizing-table" aria-describedby="rows-sizing-status"></select>
            <button type="button" id="rows-sizing-run" data-testid="rows-sizing-run">Size from its rows</button>
          </div>
          <p class="hint" id="rows-sizing-status" data-testid="rows-sizing-status" aria-live="polite"></p>
        </div>

        <label class="field-label" for="sizing-cql">CQL schema</label>
        <textarea id="sizing-cql" data-testid="sizing-cql" rows="14" spellcheck="false" autocapitalize="off" wrap="off"
                  aria-describedby="sizing-cql-hint"></textarea>
        <p class="hint" id="sizing-cql-hint">The script's <code>CREATE KEYSPACE</code>, <code>USE</code> and
          <code>CREATE TABLE</code> statements are read; other statements are skipped. Ctrl+Enter computes.</p>

        <label class="field-label" for="sizing-table">Table</label>
        <select id="sizing-table" data-testid="sizing-table"></select>

        <fieldset class="sizing-fieldset">
          <legend>Rows, partitions, replicas</legend>
          <div class="field-grid">
            <label>Rows per partition (Nr)
              <input type="text" id="sizing-rows" data-testid="sizing-rows" spellcheck="false" inputmode="text"
                     aria-describedby="sizing-rows-note" placeholder="100*730"></label>
            <label>Worst-case rows (optional)
              <input type="text" id="sizing-worst-rows" data-testid="sizing-worst-rows" spellcheck="false"
                     placeholder="none"></label>
            <label>Partitions
              <input type="number" id="sizing-partitions" data-testid="sizing-partitions" min="0" step="1" value="1"></label>
            <label>Replication factor
              <input type="number" id="sizing-rf" data-testid="sizing-rf" min="0" step="1" placeholder="the keyspace's"
                     aria-describedby="sizing-rf-hint"></label>
            <label>t_avg (metadata bytes per value)
              <input type="number" id="sizing-tavg" data-testid="sizing-tavg" min="0" step="1" value="${limitValue('sizing_default_t_avg_bytes')}"></label><button type="button" class="term-help" data-term="tavg"></button>
          </div>
          <p class="hint" id="sizing-rows-note" data-testid="sizing-rows-note">A number, or a product such as
            <code>100*730</code> (rooms × nights) or <code>1440*365</code> (a reading a minute for a year).</p>
          <p class="hint" id="sizing-rf-hint">Empty: the keyspace's (SimpleStrategy's factor, or the sum over
            NetworkTopologyStrategy's datacenters). Cosmos DB's API for Cassandra always keeps
            ${limitValue('cosmos_cassandra_api_replicas')}.</p>
        </fieldset>

        <fieldset class="sizing-fieldset">
          <legend>Average sizes of the variable-width columns</legend>
          <div class="field-grid avg-grid" id="sizing-avg-fields" data-testid="sizing-avg-fields"></div>
          <p class="hint" id="sizing-avg-empty">Every column has a fixed size.</p>
          <p class="hint">text, varchar, ascii, blob, varint, decimal, inet and collections have no fixed size: give
            the average in bytes (a 5-character ASCII code is 5). Fixed: boolean and tinyint 1, smallint 2,
            int, date and float 4, bigint, timestamp, time, double and counter 8, uuid and timeuuid 16.</p>
        </fieldset>

        <fieldset class="sizing-fieldset">
          <legend>Growth over time</legend>
          <div class="field-grid">
            <label>Rows per day per partition
              <input type="number" id="sizing-growth-rows" data-testid="sizing-growth-rows" min="0" step="1"
                     placeholder="none"></label>
            <label>Retention, days (0: forever)
              <input type="number" id="sizing-retention" data-testid="sizing-retention" min="0" step="1" value="0"></label>
            <label>Horizon, days (optional)
              <input type="number" id="sizing-horizon" data-testid="sizing-horizon" min="1" step="1"
                     placeholder="${formatInt(limitValue('sizing_default_horizon_days'))}"></label>
            <label>Starting on
              <input type="date" id="sizing-start-date" data-testid="sizing-start-date"></label>
          </div>
          <p class="hint">After d days a partition holds rows per day × min(d, retention) rows. The retention is a
            TTL: the table's <code>default_time_to_live</code> is not applied on its own.</p>
        </fieldset>
        <div class="row">
          <button type="submit" class="primary" data-testid="sizing-compute">Compute</button>
          <span class="hint" id="sizing-status" data-testid="sizing-status" aria-live="polite"></span>
        </div>
      </form>
    </section>

    <section class="card explain" aria-labelledby="sizing-approx-heading" data-testid="sizing-approximations">
      <h2 id="sizing-approx-heading">Where these numbers approximate</h2>
      <ul>
        <li><strong>St is one replica on disk, before compression.</strong> Compression, the SSTable format's
          per-row and per-partition overheads (row headers, clustering prefixes, the partition index),
          tombstones and any per-cell metadata beyond the t_avg average are left out. The guide the formulas
          come from calls the result an approximation that is accurate enough to be useful.</li>
        <li>The storage format is Cassandra 3.0's and later: clustering values are stored once per row.</li>
        <li>A collection counts as one value of its average size, although a non-frozen collection is stored as
          a cell per element.</li>
        <li>Sizes are in decimal units as the guide writes them (1 MB = 1,000,000 bytes), except Cosmos DB's
          quotas, counted in units of 1,024 (${limitText('cosmos_logical_partition_bytes')} =
          ${formatInt(limitValue('cosmos_logical_partition_bytes'))} bytes).</li>
        <li>A value exactly at a limit is within it. The table total of the worst and grown cases assumes every
          partition is that large.</li>
      </ul>
      <details class="table-view">
        <summary>The limits checked</summary>
        <div class="table-scroll" id="sizing-limits-view"></div>
      </details>
    </section>
  </aside>

  <div class="main-col">
    <section class="card" aria-labelledby="sizing-result-heading" data-testid="sizing-result-panel">
      <h2 id="sizing-result-heading">2 · Partition size, your numbers in every term</h2>
      <p class="hint">From the Cassandra data-modelling guide: Nv<button type="button" class="term-help" data-term="nv"></button> = Nr (Nc − Npk − Ns) + Ns values per partition,
        St<button type="button" class="term-help" data-term="st"></button> = Σ partition key + Σ static + Nr × (Σ regular + Σ clustering) + Nv × t_avg bytes, and the table
        total St × partitions × replication factor. Each case is checked against the limits; the guide insists
        on the worst case as well as the average.</p>
      <div id="sizing-error" data-testid="sizing-error-panel" class="sizing-error-panel" hidden></div>
      <div id="sizing-result" data-testid="sizing-result" class="sizing-result"></div>
    </section>

    <section class="card" aria-labelledby="sizing-advisor-heading" data-testid="sizing-advisor">
      <h2 id="sizing-advisor-heading">3 · Redesign advisor: before and after</h2>
      <p class="hint">A split adds a column to the partition key: a clustering column moved into it, a
        day/week/month bucket of a date or timestamp, or a hash bucket of N. Everything is recomputed for the
        new table; the price is the partitions a query for a whole former partition now reads.</p>
      <form id="split-form" class="settings split-form" data-testid="split-form" autocomplete="off">
        <div class="field-grid">
          <label>Split
            <select id="split-kind" data-testid="split-kind">
              <option value="time_bucket">Time bucket (day, week, month)</option>
              <option value="hash_bucket">Hash bucket of N</option>
              <option value="move_clustering_column">Move a clustering column into the key</option>
            </select></label>
          <label data-for="time_bucket move_clustering_column">Column
            <select id="split-column" data-testid="split-column"></select></label>
          <label data-for="move_clustering_column">Distinct values per partition
            <input type="number" id="split-distinct" data-testid="split-distinct" min="1" step="1" value="${SPLIT_FORM_START.distinctValues}"></label>
          <label data-for="time_bucket">Bucket
            <select id="split-unit" data-testid="split-unit">
              <option value="day">day</option>
              <option value="week">week</option>
              <option value="month" selected>month</option>
            </select></label>
          <label data-for="time_bucket">Span of a partition, days
            <input type="number" id="split-span" data-testid="split-span" min="1" step="1" value="${SPLIT_FORM_START.spanDays}"></label>
          <label data-for="hash_bucket">Buckets N
            <input type="number" id="split-buckets" data-testid="split-buckets" min="1" step="1" value="${SPLIT_FORM_START.buckets}"></label>
        </div>
        <div class="row">
          <button type="submit" data-testid="split-add">Add this option</button>
          <span class="hint" id="split-note" data-testid="split-note"></span>
        </div>
      </form>
      <ul class="split-list" id="split-list" data-testid="split-list" aria-label="Options asked for"></ul>
      <p class="hint" id="split-dropped" data-testid="split-dropped" aria-live="polite" hidden></p>
      <div id="sizing-options" class="sizing-options-wrap"></div>
    </section>

    <section class="card" aria-labelledby="sizing-growth-heading" data-testid="sizing-growth-panel">
      <h2 id="sizing-growth-heading">4 · Growth: the largest partition over time</h2>
      <div id="sizing-growth"></div>
    </section>

    <section class="card" aria-labelledby="data-sizing-heading" data-testid="data-sizing-panel">
      <h2 id="data-sizing-heading">5 · From real data: the items analyzed in the Cosmos DB mode</h2>
      <p class="hint">The JSON items loaded in the Cosmos DB mode, grouped by its partition key, measured as
        Cassandra partitions: every item is a row.</p>
      <form id="data-sizing-form" class="row data-sizing-form" data-testid="data-sizing-form" autocomplete="off">
        <label class="inline-label">Values per row
          <input type="number" id="data-values-per-row" data-testid="data-values-per-row" min="0" step="any"
                 placeholder="estimated"></label>
        <button type="submit" data-testid="data-sizing-run">Measure the loaded data</button>
        <span class="hint" id="data-sizing-status" data-testid="data-sizing-status" aria-live="polite"></span>
      </form>
      <div id="data-sizing-result" data-testid="data-sizing-result"></div>
    </section>

    <section class="card" aria-labelledby="rows-sizing-heading" data-testid="rows-sizing-panel">
      <h2 id="rows-sizing-heading">6 · From a CQL table's rows: the Cassandra mode's session</h2>
      <p class="hint">The rows you inserted or loaded in the Cassandra mode, measured partition by partition as the
        store holds them: Nr its rows, Nv = Nr (Nc − Npk − Ns) + Ns, St the bytes of its values + Nv × t_avg.
        <em>Size from its rows</em> (in 1) also fills the form with the table's schema, the mean rows per partition,
        the largest partition's rows as the worst case and each variable-width column's measured average.</p>
      <div id="rows-sizing-result" data-testid="rows-sizing-result">
        <p class="hint" data-testid="rows-sizing-empty">Nothing measured yet: pick a table in 1 and press
          <em>Size from its rows</em>.</p>
      </div>
    </section>
  </div>
</main>`;
}
