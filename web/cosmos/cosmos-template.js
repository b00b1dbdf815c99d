// The Cosmos DB mode's markup: the template mountCosmosView renders into the root it is given
// (index.html keeps only the empty panel). Static text only, never data; numbers of the engine's
// limits table are written as <span data-limit="id"> and filled from the engine (fillLimits in
// web/common/limits.js), so the prose cannot drift from core/limits.h. Ids are unique within the
// page: the view looks them up inside its root only (scopedById).
export const COSMOS_TEMPLATE = `
<main class="wrap layout">
  <aside class="sidebar">
    <section class="card" aria-labelledby="data-heading">
      <h2 id="data-heading">1 · Data</h2>

      <label class="field-label" for="example-select">Bundled example</label>
      <select id="example-select" data-testid="example-select">
        <option value="">Loading examples…</option>
      </select>
      <p class="hint" id="example-description" data-testid="example-description"></p>
      <p class="lesson" id="example-lesson" data-testid="example-lesson" hidden></p>

      <div class="or"><span>or</span></div>

      <label class="dropzone" id="dropzone" data-testid="dropzone">
        <input type="file" id="file-input" class="visually-hidden" data-testid="file-input"
               accept=".json,.ndjson,.jsonl,.txt,.gz,application/json,application/x-ndjson,application/gzip">
        <span class="dropzone-icon" aria-hidden="true"></span>
        <span class="dropzone-title">Drop a JSON or NDJSON file here</span>
        <span class="dropzone-sub">or <span class="link-like">choose a file</span>; gzipped (.gz) too. Big
          files are streamed, never read whole.</span>
      </label>

      <div class="or"><span>or</span></div>

      <label class="field-label" for="paste-input">Paste JSON</label>
      <textarea id="paste-input" data-testid="paste-input" rows="7" spellcheck="false"
                placeholder='{"id": "1", "userId": "alice", "city": "Oslo"}
{"id": "2", "userId": "bob", "city": "Lyon"}
{"id": "3", "userId": 5}'></textarea>
      <div class="row">
        <button type="button" id="analyze-button" data-testid="analyze-button" class="primary">Analyze</button>
        <span class="hint">Ctrl+Enter</span>
      </div>
      <p class="hint paste-hint">Accepted: one object, a JSON array of objects, or NDJSON (objects separated
        by whitespace, typically one per line).</p>
    </section>

    <section class="card keybar" aria-labelledby="key-heading" data-testid="keybar">
      <h2 id="key-heading">2 · Partition key</h2>
      <form id="key-form" class="key-form" data-testid="key-form" autocomplete="off">
        <label class="visually-hidden" for="key-input">Partition key path (JSON pointer)</label>
        <input id="key-input" data-testid="key-input" list="key-candidates" type="text"
               spellcheck="false" placeholder="/customerId" value="/customerId">
        <datalist id="key-candidates"></datalist>
        <button type="submit" class="primary" data-testid="key-apply">Apply key</button>
      </form>
      <div class="quick-ru">
        <label for="quick-ru-input">Container RU/s</label><button type="button" class="term-help" data-term="ru"></button>
        <input type="number" id="quick-ru-input" data-testid="quick-ru-input" min="0" step="100"
               inputmode="numeric" aria-describedby="quick-ru-hint">
        <span class="hint" id="quick-ru-hint">the same as section 7's throughput</span>
      </div>
      <p class="source-line" data-testid="source-line" id="source-line"></p>
      <p class="hint key-pick" data-testid="key-pick-note" id="key-pick-note" role="status" hidden></p>
    </section>
  </aside>

  <div class="main-col">
    <div class="progress" id="progress" data-testid="progress" hidden>
      <div class="progress-head">
        <span id="progress-text" aria-live="polite">Reading…</span>
        <button type="button" id="cancel-button" class="small" data-testid="cancel-button">Cancel</button>
      </div>
      <div class="progress-track" role="progressbar" aria-label="Analysis progress" aria-valuemin="0"
           aria-valuemax="100" id="progress-track"><div class="progress-bar" id="progress-bar"></div></div>
    </div>

    <section class="card error-panel" id="error-panel" data-testid="error-panel" role="alert" hidden>
      <h2 id="error-title">Could not analyze the data</h2>
      <p class="error-message" id="error-message" data-testid="error-message"></p>
      <dl class="error-location" id="error-location" data-testid="error-location"></dl>
      <pre class="error-excerpt" id="error-excerpt" data-testid="error-excerpt" hidden></pre>
      <p class="hint" id="error-hint"></p>
    </section>

    <section class="card candidates-card" aria-label="Candidate key paths" data-testid="candidates-card">
      <p class="hint">A JSON pointer such as <code>/customerId</code> or <code>/address/city</code>. For a
        hierarchical key, list up to three paths separated by commas: <code>/address/country, /customerId</code>.</p>
      <details class="candidates" id="candidates" data-testid="candidates" open>
        <summary>Candidate key paths <span class="hint" id="candidates-note" data-testid="candidates-note"></span></summary>
        <div class="table-scroll">
          <table class="candidates-table">
            <thead>
              <tr><th scope="col">path (click to use)</th><th scope="col" class="num">items with it</th>
                <th scope="col" class="num">distinct values</th><th scope="col">types</th>
                <th scope="col" title="the key advisor's verdict (section 11 says why)">advisor</th></tr>
            </thead>
            <tbody id="candidate-rows" data-testid="candidate-rows"></tbody>
          </table>
        </div>
      </details>
    </section>


    <p class="callout warn" id="shared-data-note" data-testid="shared-data-note" role="status" hidden></p>

    <div id="results" class="results" data-testid="results" hidden>
      <nav class="card section-nav" aria-label="Result sections">
        <ul>
          <li><a href="#summary-heading">Summary</a></li>
          <li><a href="#findings-heading">Findings</a></li>
          <li><a href="#charts-heading">Sizes</a></li>
          <li><a href="#partitions-heading">Logical partitions</a></li>
          <li><a href="#container-heading">Container</a></li>
          <li><a href="#workload-heading">Workload</a></li>
          <li><a href="#growth-heading">Growth</a></li>
          <li><a href="#synthetic-heading">Synthetic keys</a></li>
          <li><a href="#advisor-heading">Key advisor</a></li>
          <li><a href="#compare-heading">Compare keys</a></li>
        </ul>
        <div class="view-switch" id="view-switch" data-testid="view-switch" role="radiogroup"
             aria-label="Which key the results show" hidden>
          <span class="view-label">Results show</span>
          <label><input type="radio" name="view" value="plain" data-testid="view-plain" checked>
            <span>the plain key</span></label>
          <label><input type="radio" name="view" value="synthetic" data-testid="view-synthetic">
            <span>the synthetic key</span></label>
        </div>
        <div class="export-bar" data-testid="export-bar">
          <span class="view-label">Download</span>
          <button type="button" class="small secondary" data-testid="export-report-md">the report (Markdown)</button>
          <button type="button" class="small secondary" data-testid="export-partitions-csv">its logical partitions (CSV)</button>
          <button type="button" class="small secondary" data-testid="export-findings-csv">the findings (CSV)</button>
          <button type="button" class="small secondary" data-testid="export-findings-md">the findings (Markdown)</button>
        </div>
      </nav>
      <section class="card" aria-labelledby="summary-heading">
        <h2 id="summary-heading">3 · Summary</h2>
        <div class="summary-grid" data-testid="summary">
          <div class="figure"><span class="figure-label">items</span>
            <span class="figure-value" data-testid="summary-items"></span></div>
          <div class="figure"><span class="figure-label">logical partitions</span>
            <span class="figure-value" data-testid="summary-partitions"></span></div>
          <div class="figure"><span class="figure-label">total size of items</span>
            <span class="figure-value" data-testid="summary-bytes"></span></div>
          <div class="figure"><span class="figure-label">largest partition</span>
            <span class="figure-value" data-testid="summary-largest"></span>
            <span class="figure-sub" data-testid="summary-largest-key"></span></div>
          <div class="figure"><span class="figure-label">mean partition</span>
            <span class="figure-value" data-testid="summary-mean"></span></div>
          <div class="figure"><span class="figure-label">top 1% of partitions hold</span>
            <span class="figure-value" data-testid="summary-top1"></span>
            <span class="figure-sub" data-testid="summary-top1-sub"></span></div>
          <div class="figure"><span class="figure-label" title="0 = every partition the same size; towards 1 = one partition holds everything">Gini skew (0 even … 1 all in one)</span><button type="button" class="term-help" data-term="gini"></button>
            <span class="figure-value" data-testid="summary-gini"></span>
            <span class="figure-sub" data-testid="summary-gini-sub"></span></div>
          <div class="figure"><span class="figure-label">items without the key: <code>undefined</code></span>
            <span class="figure-value" data-testid="summary-undefined"></span></div>
          <div class="figure"><span class="figure-label">items with an invalid key</span>
            <span class="figure-value" data-testid="summary-invalid"></span>
            <span class="figure-sub">object or array value</span></div>
          <div class="figure"><span class="figure-label">oversized items (&gt; <span data-limit="cosmos_item_bytes"></span>)</span>
            <span class="figure-value" data-testid="summary-oversized"></span></div>
        </div>
        <ul class="insights" id="insights" data-testid="insights"></ul>
      </section>

      <section class="card" aria-labelledby="findings-heading" data-testid="findings-panel">
        <h2 id="findings-heading">4 · Findings: quotas and rules</h2>
        <p class="hint">Every Cosmos DB quota or rule the data (or the container below) breaks, with
          where: items by line, column, byte offset and item number; partitions by key.</p>
        <p class="findings-empty" id="findings-empty" data-testid="findings-empty" hidden>No quota or
          rule is broken.</p>
        <ul class="findings" id="findings" data-testid="findings"></ul>
      </section>

      <section class="card" aria-labelledby="charts-heading">
        <h2 id="charts-heading">5 · How sizes are spread</h2>
        <div class="charts">
          <figure>
            <div class="chart" id="histogram" data-testid="histogram"></div>
            <figcaption>How many partitions have each size. Bins are log-spaced (each is √2 times
              wider than the last), so tiny and huge partitions fit on one axis. Covers all
              partitions.</figcaption>
            <details class="table-view" data-testid="histogram-table-view">
              <summary>Table view of the histogram</summary>
              <div class="table-scroll"><table data-testid="histogram-table"></table></div>
            </details>
          </figure>
          <figure>
            <div class="chart" id="concentration" data-testid="concentration"></div>
            <figcaption>How much of the data the largest partitions hold. The dashed diagonal is a
              perfectly even spread; the further the curve bulges above it, the more skewed.</figcaption>
            <details class="table-view" data-testid="concentration-table-view">
              <summary>Table view of the curve</summary>
              <div class="table-scroll"><table data-testid="concentration-table"></table></div>
            </details>
          </figure>
        </div>
      </section>

      <section class="card" aria-labelledby="partitions-heading">
        <h2 id="partitions-heading">6 · Logical partitions, largest first</h2>
        <div class="table-scroll">
          <table class="partitions-table">
            <thead>
              <tr><th scope="col" class="num">#</th><th scope="col">key value</th>
                <th scope="col" class="num">items</th><th scope="col" class="num">bytes</th>
                <th scope="col" class="col-share">share of bytes</th><th scope="col" class="num col-largest">largest item</th>
                <th scope="col" class="col-epk"><abbr title="effective partition key: the hash that places the partition">EPK</abbr></th>
                <th scope="col" class="num col-range">physical</th></tr>
            </thead>
            <tbody id="partition-rows" data-testid="partition-rows"></tbody>
          </table>
        </div>
        <div class="pager">
          <button type="button" class="small" id="page-prev" data-testid="page-prev">← Larger</button>
          <span id="page-status" data-testid="partitions-status"></span>
          <button type="button" class="small" id="page-next" data-testid="page-next">Smaller →</button>
        </div>
      </section>

      <section class="card" id="container-panel" data-testid="container-panel" aria-labelledby="container-heading">
        <h2 id="container-heading">7 · Container: physical partitions</h2>
        <p class="hint">Cosmos DB hashes every key value to an <strong>effective partition key</strong> (EPK)<button type="button" class="term-help" data-term="epk"></button>
          and gives each physical partition a contiguous range of EPKs, <code>[min, max)</code>, from
          <code>""</code> to <code>FF</code>. A physical partition serves at most <span data-limit="cosmos_physical_partition_ru_per_second"></span> and stores at most
          <span data-limit="cosmos_physical_partition_bytes"></span>, so the throughput and the storage decide how many there are; throughput is shared evenly
          between them.</p>
        <form id="container-form" class="settings" data-testid="container-form" autocomplete="off">
          <fieldset>
            <legend>Partition key definition</legend>
            <label class="field-label" for="hash-version">Hash version</label><button type="button" class="term-help" data-term="hash"></button>
            <select id="hash-version" data-testid="hash-version">
              <option value="2">V2 (new containers)</option>
              <option value="1">V1 (classic containers)</option>
              <option value="multihash">MultiHash (hierarchical key)</option>
            </select>
            <label class="check" id="large-keys-label">
              <input type="checkbox" id="large-keys" data-testid="large-keys" checked>
              <span>Large partition keys (values up to <span data-limit="cosmos_key_bytes_large"></span>; without: <span data-limit="cosmos_key_bytes_classic"></span>)</span>
            </label>
            <p class="hint" id="hash-hint" data-testid="hash-hint"></p>
          </fieldset>
          <fieldset>
            <legend>Throughput</legend>
            <div class="radio-row" role="radiogroup" aria-label="Throughput mode">
              <label><input type="radio" name="throughput-mode" value="manual" data-testid="ru-manual" checked>
                <span>Manual</span></label>
              <label><input type="radio" name="throughput-mode" value="autoscale" data-testid="ru-autoscale">
                <span>Autoscale</span></label>
              <label><input type="radio" name="throughput-mode" value="serverless" data-testid="ru-serverless">
                <span>Serverless</span></label>
            </div>
            <label class="field-label" for="ru-input" id="ru-label">Provisioned RU/s</label>
            <input type="number" id="ru-input" data-testid="ru-input" min="0" step="100"
                   inputmode="numeric">
            <p class="hint" id="ru-hint" data-testid="ru-hint"></p>
            <label class="field-label" for="created-ru-input" id="created-ru-label">Created with RU/s (blank: as now)</label>
            <input type="number" id="created-ru-input" data-testid="created-ru-input" min="0" step="100"
                   inputmode="numeric" placeholder="as now">
            <label class="check"><input type="checkbox" id="shared-database" data-testid="shared-database">
              <span>A shared-throughput database: the RU/s are the database's, shared with these containers</span></label>
            <table class="shared-with" data-testid="shared-with" hidden>
              <thead><tr><th scope="col">other container</th><th scope="col">GB stored</th><th scope="col">RU/s asked</th><th scope="col"><span class="visually-hidden">remove</span></th></tr></thead>
              <tbody></tbody>
            </table>
            <button type="button" class="small" data-testid="shared-add" hidden>Add a container</button>
          </fieldset>
        </form>

        <div class="summary-grid physical-grid">
          <div class="figure"><span class="figure-label">physical partitions</span>
            <span class="figure-value" data-testid="physical-count"></span>
            <span class="figure-sub" data-testid="physical-count-sub"></span></div>
          <div class="figure"><span class="figure-label">RU/s per physical partition</span>
            <span class="figure-value" data-testid="physical-share"></span></div>
          <div class="figure"><span class="figure-label">largest physical partition</span>
            <span class="figure-value" data-testid="physical-largest"></span>
            <span class="figure-sub" data-testid="physical-largest-sub"></span></div>
          <div class="figure"><span class="figure-label">storage (largest / mean)</span>
            <span class="figure-value" data-testid="physical-balance"></span>
            <span class="figure-sub" data-testid="physical-balance-verdict">1.00 = perfectly balanced</span></div>
        </div>
        <p class="explain-line" id="physical-explain" data-testid="physical-explain" aria-live="polite"></p>
        <section class="capacity" data-testid="capacity" aria-label="Throughput rules">
          <h3>What the service does with this throughput</h3>
          <ul class="capacity-lines" data-testid="capacity-lines"></ul>
          <details data-testid="merge-commands" hidden>
            <summary>Merging partitions: the Azure CLI and PowerShell commands (preview feature; PowerShell's -WhatIf runs the service's own simulation)</summary>
            <pre class="command" data-testid="merge-cli"></pre>
            <pre class="command" data-testid="merge-ps"></pre>
          </details>
          <details data-testid="redistribution-commands" hidden>
            <summary>Throughput redistribution: the Azure CLI and PowerShell commands (preview feature)</summary>
            <pre class="command" data-testid="redistribution-cli"></pre>
            <pre class="command" data-testid="redistribution-ps"></pre>
            <p class="hint">The ids are the model's physical partitions; list the service's with
              <code>az cosmosdb sql container retrieve-partition-throughput --all-partitions</code>.</p>
          </details>
        </section>

        <figure class="wide-figure">
          <div class="chart map-chart" id="partition-map" data-testid="partition-map"></div>
          <figcaption>Logical → physical map. Each column is a physical partition, labelled with its id and
            EPK range <code>[min, max)</code>; its logical partitions are stacked by size, largest at the
            bottom, the rest in one hatched “others” block. Hot logical partitions are red, striped and
            marked <strong>HOT</strong>; a physical partition asked for more than its share is marked
            <strong>▲ over share</strong> with its expected 429 fraction; the physical partitions a routed query touches are outlined and
            marked <strong>◆ query</strong>. Hover a block for its key, EPK, size and demand.</figcaption>
        </figure>
        <details class="table-view" data-testid="map-table-view">
          <summary>Table view of the map</summary>
          <div class="table-scroll"><table class="ranges-table" data-testid="map-table"></table></div>
        </details>

        <div class="route">
          <h3 id="route-heading">Query routing</h3>
          <form id="route-form" class="inline-form" data-testid="route-form" autocomplete="off">
            <label class="field-label" for="route-input">Query filtered on the partition key value</label>
            <div class="row-inline">
              <input type="text" id="route-input" data-testid="route-input" spellcheck="false"
                     placeholder='"Beef Products"' aria-describedby="route-hint">
              <button type="submit" class="primary" data-testid="route-apply">Route</button>
              <button type="button" data-testid="route-clear" id="route-clear">Clear</button>
            </div>
            <p class="hint" id="route-hint">A JSON value (<code>"Beef Products"</code>, <code>5</code>,
              <code>true</code>; text without quotes is taken as a string). For a hierarchical key, a JSON array
              of the first 1–3 values: <code>["Contoso"]</code> is a prefix, <code>["Contoso", "alice"]</code>
              more precise.</p>
          </form>
          <p class="route-result" id="route-result" data-testid="route-result" aria-live="polite"></p>
        </div>
      </section>

      <section class="card" aria-labelledby="workload-heading" data-testid="workload-panel">
        <h2 id="workload-heading">8 · Workload and hot partitions</h2>
        <form id="workload-form" class="settings" data-testid="workload-form" autocomplete="off">
          <fieldset>
            <legend>Requests per second</legend>
            <div class="field-grid">
              <label>Point reads/s <input type="number" id="reads-input" data-testid="reads-input" min="0" step="10"></label>
              <label>Writes/s <input type="number" id="writes-input" data-testid="writes-input" min="0" step="10"></label>
              <label>Queries/s <input type="number" id="queries-input" data-testid="queries-input" min="0" step="10"></label>
            </div>
          </fieldset>
          <fieldset>
            <legend>How requests spread over keys</legend>
            <label class="field-label" for="spread-select">Spread</label>
            <select id="spread-select" data-testid="spread-select">
              <option value="uniform">Uniform over items</option>
              <option value="field">Proportional to a field</option>
              <option value="zipf">Zipf (by size rank)</option>
            </select>
            <p class="hint" id="spread-hint">Uniform: a key gets its share of the items. Field: its share of a
              numeric field's sum (say, /requests). Zipf: the n-th largest key gets 1/nˢ of the requests (s is Zipf's exponent<button type="button" class="term-help" data-term="zipf"></button>).</p>
            <div class="field-grid">
              <label id="weight-path-label" hidden>Field (JSON pointer)
                <input type="text" id="weight-path" data-testid="weight-path" spellcheck="false" placeholder="/requests"></label>
              <label id="zipf-label" hidden>Zipf exponent s
                <input type="number" id="zipf-input" data-testid="zipf-input" min="0.1" step="0.1"></label>
            </div>
          </fieldset>
          <fieldset>
            <legend>Request costs (editable assumptions)</legend>
            <div class="field-grid">
              <label>Point read × <input type="number" id="read-factor" data-testid="read-factor" min="0" step="0.1"></label>
              <label>Write × <input type="number" id="write-factor" data-testid="write-factor" min="0" step="0.1"></label>
              <label>Query RU per partition <input type="number" id="query-ru" data-testid="query-ru" min="0" step="0.5"></label>
            </div>
            <details class="table-view" data-testid="cost-table-view">
              <summary>The charges used</summary>
              <p class="hint">Point reads and writes cost what the published charges per item size say, for the
                partition's mean item size (interpolated between the sizes below), times the factors above.
                Source: published charges per item size,
                <span class="mono">learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption</span>.
                A query filtered on the partition key costs the “query RU per partition” for every physical
                partition it touches: <span data-limit="cosmos_default_query_ru"></span> is our assumption, not a published figure.</p>
              <div class="table-scroll"><table class="cost-table" data-testid="cost-table"></table></div>
            </details>
          </fieldset>
        </form>
        <div class="summary-grid physical-grid">
          <div class="figure"><span class="figure-label">demand</span>
            <span class="figure-value" data-testid="demand-total"></span>
            <span class="figure-sub" data-testid="demand-total-sub"></span></div>
          <div class="figure"><span class="figure-label">requests throttled (HTTP 429)</span>
            <span class="figure-value" data-testid="throttled-total"></span>
            <span class="figure-sub">expected share of all requests, every partition together (a bar in the chart gives its own partition's share)</span></div>
          <div class="figure"><span class="figure-label">hot logical partitions</span>
            <span class="figure-value" data-testid="hot-count"></span></div>
        </div>
        <p class="callout" id="hot-cause" data-testid="hot-cause" hidden></p>
        <figure class="wide-figure">
          <div class="chart" id="demand-chart" data-testid="demand-chart"></div>
          <figcaption>RU/s demand per physical partition against its share of the throughput (the dashed
            line). The part above the line is striped: those requests are expected to be throttled
            (HTTP 429). The percentage above a bar is that partition's own requests throttled; the
            figure above is the share of all requests, which a busy partition's own share exceeds when others are idle.</figcaption>
        </figure>
        <details class="table-view" data-testid="demand-table-view">
          <summary>Table view of the demand</summary>
          <div class="table-scroll"><table class="ranges-table" data-testid="demand-table"></table></div>
        </details>
        <h3>Hottest logical partitions</h3>
        <p class="hint">A logical partition is <strong>hot</strong> when its demand alone exceeds its physical partition's share.</p>
        <div class="table-scroll">
          <table class="hot-table">
            <thead><tr><th scope="col">key</th><th scope="col" class="num">demand RU/s</th>
              <th scope="col" class="num">items</th><th scope="col" class="num">bytes</th>
              <th scope="col">EPK</th><th scope="col">status</th></tr></thead>
            <tbody id="hot-rows" data-testid="hot-rows"></tbody>
          </table>
        </div>
      </section>

      <section class="card" aria-labelledby="growth-heading" data-testid="growth-panel">
        <h2 id="growth-heading">9 · Growth and splits</h2>
        <p class="hint">Multiply the data (every logical partition grows by the same factor) and/or raise the
          throughput. A physical partition that passes <span data-limit="cosmos_physical_partition_bytes"></span>, or throughput that needs more partitions,
          splits a range at the midpoint of its EPK range; whole logical partitions move to the new half.</p>
        <form id="growth-form" class="settings" data-testid="growth-form" autocomplete="off">
          <div class="field-grid">
            <label>Data × <input type="number" id="growth-input" data-testid="growth-input" min="1" step="1" value="1"></label>
            <label>RU/s after growing (0 = unchanged)
              <input type="number" id="grown-ru-input" data-testid="grown-ru-input" min="0" step="100" value="0"></label>
          </div>
          <div class="row quick" role="group" aria-label="Quick growth factors">
            <span class="hint">Quick:</span>
            <button type="button" class="small" data-growth="1">×1</button>
            <button type="button" class="small" data-growth="100">×100</button>
            <button type="button" class="small" data-growth="10000">×10,000</button>
            <button type="button" class="small" data-growth="storage" data-testid="growth-past-storage"
                    title="The smallest factor that takes the data past one physical partition's storage quota">past <span data-limit="cosmos_physical_partition_bytes"></span></button>
          </div>
        </form>
        <p class="explain-line" id="growth-summary" data-testid="growth-summary" aria-live="polite"></p>
        <p class="callout bad" id="split-cannot-help" data-testid="split-cannot-help" hidden></p>
        <div class="before-after" id="before-after" data-testid="before-after" hidden>
          <figure>
            <figcaption class="figure-title">Before</figcaption>
            <div class="chart map-chart" id="map-before" data-testid="map-before"></div>
          </figure>
          <figure>
            <figcaption class="figure-title">After growing</figcaption>
            <div class="chart map-chart" id="map-after" data-testid="map-after"></div>
          </figure>
        </div>
        <details class="table-view" id="after-table-view" data-testid="after-table-view" hidden>
          <summary>Table view of the layout after growing</summary>
          <div class="table-scroll"><table class="ranges-table" data-testid="after-table"></table></div>
        </details>
        <div id="splits-block" hidden>
          <h3>Splits</h3>
          <div class="table-scroll">
            <table class="splits-table">
              <thead><tr><th scope="col">parent</th><th scope="col">children</th><th scope="col">reason</th>
                <th scope="col" class="num">logical partitions left / right</th>
                <th scope="col" class="num">bytes left / right</th></tr></thead>
              <tbody id="split-rows" data-testid="split-rows"></tbody>
            </table>
          </div>
          <p class="hint" id="moved-summary" data-testid="moved-summary"></p>
          <ul class="moved-list" id="moved-list" data-testid="moved-list"></ul>
        </div>
      </section>

      <section class="card" aria-labelledby="synthetic-heading" data-testid="synthetic-panel">
        <h2 id="synthetic-heading">10 · Synthetic keys</h2>
        <p class="hint">When no property spreads the data well, build the key: concatenate several
          properties or pieces of them (the month of a date, the first letters of a code: dates are
          ISO-8601 strings or epoch seconds or milliseconds, bucketed in UTC), or add a suffix 1..N to a value — random (spreads writes, but a read by the value must
          ask all N keys) or computed from another property (spreads as well, and a read that knows that
          property asks one key). The result is analyzed as a second key on the same data, shown next to the
          plain key.</p>
        <form id="synthetic-form" class="settings" data-testid="synthetic-form" autocomplete="off">
          <label class="field-label" for="synthetic-kind">Kind</label>
          <select id="synthetic-kind" data-testid="synthetic-kind">
            <option value="concat">Concatenate properties</option>
            <option value="random_suffix">Random suffix 1..N</option>
            <option value="hash_suffix">Pre-calculated suffix: hash(property) mod N</option>
          </select>
          <div class="field-grid">
            <label data-for="concat">Properties (JSON pointers, comma-separated; a piece of a value:
              <code>month(/orderDate)</code>, <code>year</code>, <code>day</code>, <code>hour</code>,
              <code>left(/sku, 3)</code>, <code>substring(/sku, 4, 2)</code>)
              <input type="text" id="synthetic-paths" data-testid="synthetic-paths" spellcheck="false"
                     placeholder="/tenantId, month(/orderDate)"></label>
            <label data-for="random_suffix hash_suffix">Value (the key path above)
              <input type="text" id="synthetic-base" data-testid="synthetic-base" readonly tabindex="-1"></label>
            <label>Separator
              <input type="text" id="synthetic-separator" data-testid="synthetic-separator" maxlength="8"></label>
            <label data-for="random_suffix hash_suffix">N (suffixes)
              <input type="number" id="synthetic-buckets" data-testid="synthetic-buckets" min="1" step="1"></label>
            <label data-for="random_suffix">Seed
              <input type="number" id="synthetic-seed" data-testid="synthetic-seed" min="0" step="1" value="1"></label>
            <label data-for="hash_suffix">Suffix from (JSON pointer)
              <input type="text" id="synthetic-suffix-path" data-testid="synthetic-suffix-path" spellcheck="false"
                     placeholder="/vin"></label>
          </div>
          <div class="row">
            <button type="submit" class="primary" data-testid="synthetic-apply">Analyze with this key</button>
            <button type="button" id="synthetic-remove" data-testid="synthetic-remove" disabled>Remove</button>
            <span class="hint" id="synthetic-note" data-testid="synthetic-note"></span>
          </div>
        </form>
        <div id="synthetic-compare-block" hidden>
          <h3>Plain key and synthetic key, side by side</h3>
          <div class="table-scroll">
            <table class="compare-table" data-testid="synthetic-compare">
              <thead><tr><th scope="col"></th><th scope="col">plain key</th><th scope="col">synthetic key</th></tr></thead>
              <tbody id="compare-rows"></tbody>
            </table>
          </div>
          <p class="hint" id="synthetic-examples" data-testid="synthetic-examples"></p>
        </div>
      </section>

      <section class="card" aria-labelledby="advisor-heading" data-testid="advisor-panel">
        <h2 id="advisor-heading">11 · Key advisor</h2>
        <p class="hint" id="advisor-note" data-testid="advisor-note"></p>
        <div class="table-scroll">
          <table class="advisor-table">
            <thead><tr><th scope="col" class="num">rank</th><th scope="col">path (click to use)</th>
              <th scope="col">verdict</th><th scope="col" class="num">distinct values</th>
              <th scope="col" class="num" title="share of the sampled items that have the path">coverage</th>
              <th scope="col" class="num" title="the largest logical partition with the data grown">largest, grown</th>
              <th scope="col" class="num" title="Gini coefficient of the partition sizes: 0 even, towards 1 all in one">Gini</th>
              <th scope="col" class="num" title="storage of the fullest physical partition over the mean">physical max / mean</th>
              <th scope="col" title="whether the largest partition would pass the logical partition quota with the data grown">over <span data-limit="cosmos_logical_partition_bytes"></span></th>
              <th scope="col" title="whether an item (by id) ever held another value at this path in the sample">value per id</th></tr></thead>
            <tbody id="advisor-rows" data-testid="advisor-rows"></tbody>
          </table>
        </div>
        <button type="button" class="link-button" id="advisor-more" data-testid="advisor-more" hidden></button>
      </section>

      <section class="card" aria-labelledby="compare-heading" data-testid="compare-panel">
        <h2 id="compare-heading">12 · Compare keys</h2>
        <div class="keycmp" data-testid="compare-root"></div>
      </section>
    </div>
    <section class="card explain" aria-labelledby="explain-heading" data-testid="explain">
      <h2 id="explain-heading">What is a logical partition?</h2>
      <p>Every item in a Cosmos DB container has a <strong>partition key</strong>: the value found at
        the container's key path, such as <code>/customerId</code>. All items that share one key value
        form one <strong>logical partition</strong>. The service keeps each logical partition together
        on one physical partition, so a single key value can never be spread out.</p>
      <ul>
        <li>One logical partition can hold at most <strong data-limit="cosmos_logical_partition_bytes"></strong>; one item at most
          <strong data-limit="cosmos_item_bytes"></strong>.</li>
        <li>Items without the key path are not rejected: together they form one more partition of
          their own, the <em>undefined</em> partition (written <code>{}</code> by the SDKs).</li>
        <li>Values are typed: the string <code class="k-string">"5"</code> and the number
          <code class="k-number">5</code> are different partitions. Objects and arrays are not valid
          key values.</li>
        <li>A good key has many distinct values and spreads bytes and requests evenly. A few huge
          partitions ("hot partitions") limit how far the container can scale.</li>
      </ul>
      <p class="hint">Key paths are JSON pointers: <code>/address/city</code> reaches into nested
        objects, <code>~1</code> stands for <code>/</code> and <code>~0</code> for <code>~</code> in a
        field name (the field <code>promo/code</code> is <code>/promo~1code</code>).</p>
    </section>
  </div>
</main>
`;
