// Handlers of the sizing mode (protocol.js sizing-tables, size-table; docs/sizing.md): a CQL
// table sized from its schema and estimates, entirely in the engine (data-sizing, the analysis
// of a slot measured as Cassandra partitions, is in analysis.js beside the slots).

export async function sizingTables({cql}, ctx) {
  return (await ctx.engine()).engine.sizingTables(cql);
}

export async function sizeTable({request}, ctx) {
  return (await ctx.engine()).engine.sizeTable(request);
}
