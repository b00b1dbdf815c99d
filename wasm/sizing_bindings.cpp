// Embind bindings of the sizing domain (sizing/sizing_request.h): sizing a table from its schema,
// and the tables a schema script creates with the columns that need an average size. JSON text
// in, the answer shape of status_value.h out; sizing from analysed data is Analysis.dataSizing
// (ingest_bindings.cpp).
//
//   JSON.parse(Module.sizingTables(cql).json).tables;   // [{name, columns, variable_columns}]
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "partplay/sizing/sizing_request.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::wasm::JsonAnswer;

// docs/sizing.md: `partplay size --request-json` in the page.
val SizeTable(std::string request_json) {
  return JsonAnswer(partplay::SizeTableJson(request_json));
}

// docs/sizing.md "Tables of a script".
val SizingTables(std::string cql) { return JsonAnswer(partplay::SizingTablesJson(cql)); }

}  // namespace

EMSCRIPTEN_BINDINGS(partplay_sizing) {
  emscripten::function("sizeTable", &SizeTable);
  emscripten::function("sizingTables", &SizingTables);
}
