// The sizing request: the input as the page's sizing form sends it (SizeTableJson: the request
// JSON with its CQL schema, the rows formula, sizes, splits and growth, through to the report
// JSON), as the schema script the form lists tables from (SizingTablesJson), and as a rows
// formula ("100*730").
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "partplay/sizing/formulas.h"
#include "partplay/sizing/sizing_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  StatusOr<std::string> report = SizeTableJson(text);
  if (report.ok()) fuzz::Check(!report.value().empty(), "a sizing report is never empty");
  StatusOr<TableSizingRequest> request = ParseTableSizingRequestJson(text);
  if (request.ok()) {
    // The request's own schema, as the form lists its tables before sizing one.
    (void)SizingTablesJson(request.value().cql);
  } else {
    (void)SizingTablesJson(text);
  }
  if (size < 256) (void)ParseRowsFormula(text);
  return 0;
}
