// The Cassandra view's markup: the CQL console with its bulk load, the results, and the ring panel
// with the cluster form, the Cosmos DB Cassandra API panel, the ring, ownership and load, as one
// template that mountCassandraView (cql-view.js) renders into the root it is given. Bounds and
// defaults in it (ring size, vnodes, RU/s) come from the engine's limits table
// (common/limits.js), so call it once the engine is loaded (client.ready). Ids are unique inside
// the view's root; the view looks them up there only.
import {limitText, limitValue} from '../common/limits.js';

/** The view's markup, for root.innerHTML (no user text goes in). */
export function cassandraMarkup() {
  return `
<main class="wrap cql-layout">
  <section class="card cql-console" aria-labelledby="cql-console-heading">
    <h2 id="cql-console-heading">1 · CQL console</h2>
    <label class="field-label" for="cql-example">Example script</label>
    <select id="cql-example" data-testid="cql-example">
      <option value="">Loading examples…</option>
    </select>
    <p class="hint" id="cql-example-description" data-testid="cql-example-description"></p>

    <label class="field-label cql-editor-label" for="cql-editor">CQL script</label>
    <textarea id="cql-editor" class="cql-editor" data-testid="cql-editor" rows="20" spellcheck="false"
              autocapitalize="off" autocomplete="off" aria-describedby="cql-editor-hint"
              placeholder="CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
USE ks;
CREATE TABLE t (k text, c int, v text, PRIMARY KEY (k, c));
INSERT INTO t (k, c, v) VALUES ('a', 1, 'x');
SELECT * FROM t;"></textarea>
    <div class="row">
      <button type="button" class="primary" id="cql-run" data-testid="cql-run">Run</button>
      <span class="hint" id="cql-editor-hint">Ctrl+Enter runs the script; statements end with <code>;</code>.
        Keyspaces and tables stay until you reset the session.</span>
    </div>
    <div class="row">
      <button type="button" class="small" id="cql-reset" data-testid="cql-reset">Reset session</button>
      <span class="cql-status" id="cql-status" data-testid="cql-status" aria-live="polite"></span>
    </div>

    <details class="cql-load" id="cql-load" data-testid="cql-load" open>
      <summary>Load rows from a JSON or CSV file</summary>
      <p class="hint"><strong>JSON</strong>: each object becomes one row, as <code>INSERT … JSON</code> would write
        it (property names are column names; NDJSON, a JSON array or one object). <strong>CSV</strong>: as
        <code>cqlsh COPY … TO</code> and <code>dsbulk unload</code> write it, read as <code>COPY … FROM</code> does;
        a bad row is listed and the others load. A gzipped file (<code>.gz</code>) is decompressed as it is read.
        The file is read in the engine's worker a piece at a time, so a file of millions of rows keeps the page
        responsive.</p>
      <div class="cql-load-fields">
        <div>
          <label class="field-label" for="cql-load-table">Into table</label>
          <select id="cql-load-table" data-testid="cql-load-table"></select>
        </div>
        <fieldset class="cql-load-format" data-testid="cql-load-format">
          <legend class="field-label">Format</legend>
          <label><input type="radio" name="cql-load-format" id="cql-load-format-json" value="json"
                        data-testid="cql-load-format-json" checked> JSON</label>
          <label><input type="radio" name="cql-load-format" id="cql-load-format-csv" value="csv"
                        data-testid="cql-load-format-csv"> CSV</label>
        </fieldset>
      </div>
      <fieldset class="cql-csv-options" id="cql-csv-options" data-testid="cql-csv-options" hidden>
        <legend>CSV options</legend>
        <p class="hint">A file named <code>.csv</code> or <code>.csv.gz</code> is read as CSV; change it here.</p>
        <div class="cql-csv-grid">
          <label class="check"><input type="checkbox" id="cql-csv-header" data-testid="cql-csv-header" checked>
            First line is a header</label>
          <label>Delimiter
            <select id="cql-csv-delimiter" data-testid="cql-csv-delimiter">
              <option value="," selected>, comma</option>
              <option value=";">; semicolon</option>
              <option value="&#9;">tab</option>
              <option value="|">| pipe</option>
            </select></label>
          <label>Null text
            <input type="text" id="cql-csv-null" data-testid="cql-csv-null" placeholder="empty field" size="8"
                   spellcheck="false" autocomplete="off"></label>
        </div>
        <details class="cql-csv-more" data-testid="cql-csv-more">
          <summary>More options</summary>
          <div class="cql-csv-grid">
            <label>Quote <input type="text" id="cql-csv-quote" data-testid="cql-csv-quote" value="&quot;"
                                maxlength="1" size="2" spellcheck="false" autocomplete="off"></label>
            <label>Escape <input type="text" id="cql-csv-escape" data-testid="cql-csv-escape" value="\\"
                                 maxlength="1" size="2" spellcheck="false" autocomplete="off"></label>
            <label class="wide">Timestamp format
              <input type="text" id="cql-csv-datetimeformat" data-testid="cql-csv-datetimeformat"
                     placeholder="%Y-%m-%d %H:%M:%S.%f%z" spellcheck="false" autocomplete="off"></label>
            <label class="wide">Columns, in the file's order
              <input type="text" id="cql-csv-columns" data-testid="cql-csv-columns"
                     placeholder="the table's columns" spellcheck="false" autocomplete="off"></label>
          </div>
        </details>
      </fieldset>
      <div class="row cql-load-actions">
        <label class="file-button">
          <input type="file" id="cql-load-input" class="visually-hidden" data-testid="cql-load-input"
                 accept=".json,.ndjson,.jsonl,.csv,.tsv,.txt,.gz,application/json,application/x-ndjson,text/csv,application/gzip">
          <span class="button-like">Choose a file…</span>
        </label>
        <button type="button" id="cql-load-again" data-testid="cql-load-again" disabled>Load it again</button>
        <button type="button" class="primary" id="cql-load-example" data-testid="cql-load-example" hidden></button>
      </div>
      <div class="progress cql-progress" id="cql-progress" data-testid="cql-progress" hidden>
        <div class="progress-head">
          <span id="cql-progress-text" aria-live="polite">Loading…</span>
          <button type="button" class="small" id="cql-load-cancel" data-testid="cql-load-cancel">Cancel</button>
        </div>
        <div class="progress-track" role="progressbar" aria-label="Loading progress" aria-valuemin="0"
             aria-valuemax="100" id="cql-progress-track"><div class="progress-bar" id="cql-progress-bar"></div></div>
      </div>
      <p class="cql-load-status" id="cql-load-status" data-testid="cql-load-status" aria-live="polite"></p>
      <ol class="cql-load-failures" id="cql-load-failures" data-testid="cql-load-failures" hidden></ol>
    </details>
  </section>

  <section class="card cql-results-card" aria-labelledby="cql-results-heading">
    <h2 id="cql-results-heading">2 · Results, statement by statement</h2>
    <p class="hint">Rows come back as Cassandra returns them: partitions in token order, rows within a
      partition in clustering order. Each row also shows its partition key, its token and the nodes holding a
      replica (the first is the primary); click a row to see its partition on the ring.</p>
    <p class="cql-empty hint" id="cql-empty" data-testid="cql-empty">Run a script to see its results.</p>
    <ol class="cql-results" id="cql-results" data-testid="cql-results"></ol>
  </section>

  <section class="card cql-ring-card" aria-labelledby="ring-heading" data-testid="ring-panel">
    <h2 id="ring-heading">3 · The token ring: where partitions live</h2>
    <p class="hint">Cassandra hashes a row's partition key with Murmur3 to a <strong>token</strong> between
      −2<sup>63</sup> and 2<sup>63</sup>−1. Every node owns <code>num_tokens</code> points (vnodes) on that ring and
      the range up to each of them; a partition's replicas are the nodes found walking clockwise from its token
      (SimpleStrategy: the next <em>replication factor</em> distinct nodes; NetworkTopologyStrategy: per
      datacenter, distinct racks first) — what <code>nodetool getendpoints</code> answers.</p>
    <form id="ring-form" class="settings ring-form" data-testid="ring-form" autocomplete="off">
      <fieldset>
        <legend>Cluster</legend>
        <div class="field-grid">
          <label>Nodes per datacenter
            <input type="number" id="ring-nodes" data-testid="ring-nodes" min="1" max="${limitValue('cassandra_ring_max_nodes')}" step="1"
                   value="${limitValue('cassandra_default_ring_nodes')}"></label>
          <label>Vnodes per node (num_tokens)
            <input type="number" id="ring-vnodes" data-testid="ring-vnodes" min="1" max="${limitValue('cassandra_ring_max_num_tokens')}" step="1"
                   value="${limitValue('cassandra_default_num_tokens')}"></label>
          <label>Datacenters
            <input type="number" id="ring-datacenters" data-testid="ring-datacenters" min="1" max="${limitValue('cassandra_ring_form_max_datacenters')}" step="1" value="1"></label>
          <label>Racks per datacenter
            <input type="number" id="ring-racks" data-testid="ring-racks" min="1" max="${limitValue('cassandra_ring_form_max_racks')}" step="1" value="1"></label>
          <label>Datacenter names
            <input type="text" id="ring-dc-names" data-testid="ring-dc-names" placeholder="datacenter1, datacenter2"
                   spellcheck="false" autocapitalize="off"></label>
        </div>
        <p class="hint" id="ring-nodes-hint">Each datacenter has this many nodes, dealt to its racks in turn; the
          ring has datacenters × nodes in all. Names, comma-separated, set how many datacenters there are
          (empty: datacenter1, datacenter2, …).</p>
      </fieldset>
      <fieldset>
        <legend>Token assignment</legend>
        <div class="radio-row" role="radiogroup" aria-label="Token assignment">
          <label><input type="radio" name="ring-tokens" value="even" data-testid="ring-tokens-even" checked> Evenly spaced</label>
          <label><input type="radio" name="ring-tokens" value="random" data-testid="ring-tokens-random"> Random</label>
        </div>
        <div class="field-grid">
          <label id="ring-seed-label">Seed (random tokens)
            <input type="number" id="ring-seed" data-testid="ring-seed" min="0" step="1" value="1"></label>
        </div>
        <p class="hint">Even: token i of N·V is −2<sup>63</sup> + i·⌊2<sup>64</sup>/(N·V)⌋, dealt to the nodes in
          turn. Random: each node draws its tokens at random (reproducible from the seed), as Cassandra does
          without an allocation algorithm.</p>
      </fieldset>
      <p class="ring-form-error" id="ring-form-error" data-testid="ring-form-error" role="alert" hidden></p>
    </form>

    <div class="ring-context">
      <label class="ring-table-pick">Table drawn
        <select id="cql-table" data-testid="cql-table"></select></label>
      <p class="replication" id="replication" data-testid="replication"></p>
      <label class="check cosmos-toggle">
        <input type="checkbox" id="cosmos-api" data-testid="cosmos-api-toggle">
        <span><strong>Cosmos DB Cassandra API</strong>: the same table in Azure Cosmos DB, which speaks CQL but
          places data on physical partitions instead of nodes</span>
      </label>
    </div>

    <div class="cosmos-api-panel" id="cosmos-api-panel" data-testid="cosmos-api-panel" hidden>
      <div class="summary-grid">
        <div class="figure"><span class="figure-label">replicas of every partition</span>
          <span class="figure-value" data-testid="cosmos-replicas"></span>
          <span class="figure-sub">fixed: no replication factor to choose</span></div>
        <div class="figure"><span class="figure-label">write quorum</span>
          <span class="figure-value" data-testid="cosmos-quorum"></span>
          <span class="figure-sub">replicas that acknowledge a write</span></div>
        <div class="figure"><span class="figure-label">physical partitions</span>
          <span class="figure-value" data-testid="cosmos-physical"></span>
          <span class="figure-sub" data-testid="cosmos-physical-sub"></span></div>
        <div class="figure"><span class="figure-label">storage per physical partition</span>
          <span class="figure-value" data-testid="cosmos-physical-limit"></span>
          <span class="figure-sub">and ${limitText('cosmos_physical_partition_ru_per_second')}</span></div>
        <div class="figure"><span class="figure-label">storage per logical partition</span>
          <span class="figure-value" data-testid="cosmos-logical-limit"></span>
          <span class="figure-sub" data-testid="cosmos-largest"></span></div>
      </div>
      <div class="field-grid cosmos-ru">
        <label>Provisioned throughput (RU/s)
          <input type="number" id="cosmos-ru" data-testid="cosmos-ru" min="0"
               max="${limitValue('cosmos_cassandra_api_max_ru_per_second')}" step="1000"
               value="${limitValue('cosmos_cassandra_api_default_ru_per_second')}"></label>
      </div>
      <p class="explain-line" id="cosmos-explain" data-testid="cosmos-explain"></p>
      <div class="table-scroll">
        <table class="cosmos-compare" data-testid="cosmos-compare">
          <caption class="visually-hidden">Apache Cassandra and the Cosmos DB Cassandra API compared</caption>
          <thead><tr><th scope="col"></th><th scope="col">Apache Cassandra (this cluster)</th>
            <th scope="col">Cosmos DB Cassandra API</th></tr></thead>
          <tbody id="cosmos-compare-rows"></tbody>
        </table>
      </div>
    </div>

    <div class="ring-grid">
      <figure class="ring-figure">
        <div class="chart ring-chart" id="ring-chart" data-testid="ring-chart"></div>
        <figcaption id="ring-caption">The ring: each arc is a token range, coloured by the node that owns it;
          dots are the partitions of the table drawn, at their token. Click a dot (or a result row) to select its
          partition: the numbered markers show where the walk clockwise finds each replica (1 = primary).</figcaption>
      </figure>
      <div class="ring-side">
        <div class="ring-selection" id="ring-selection" data-testid="ring-selection" aria-live="polite"></div>
        <h3 id="ownership-heading">Ownership</h3>
        <div class="table-scroll">
          <table class="ownership-table" data-testid="ownership-table" aria-labelledby="ownership-heading"></table>
        </div>
        <p class="hint" id="ownership-note" data-testid="ownership-note"></p>
      </div>
    </div>
    <details class="table-view" data-testid="ring-ranges-view">
      <summary>Table view of the ring: token ranges</summary>
      <div class="table-scroll"><table data-testid="ring-ranges-table"></table></div>
      <p class="hint" id="ring-ranges-note"></p>
    </details>
    <details class="table-view" data-testid="ring-partitions-view">
      <summary>Table view of the dots: partitions in token order</summary>
      <div class="table-scroll"><table data-testid="ring-partitions-table"></table></div>
      <p class="hint" id="ring-partitions-note"></p>
    </details>

    <h3 id="load-heading">Load per node</h3>
    <p class="hint" id="load-hint">What each node holds as a replica of the table drawn: partitions, rows and
      bytes (the sizing formulas' size on disk). A node holds every partition it is a replica of, so the sums
      are the table times its replication.</p>
    <figure class="wide-figure">
      <div class="chart load-chart" id="load-chart" data-testid="load-chart"></div>
    </figure>
    <details class="table-view" data-testid="load-table-view" open>
      <summary>Table view of the load</summary>
      <div class="table-scroll"><table class="load-table" data-testid="load-table"></table></div>
    </details>
  </section>
</main>`;
}
