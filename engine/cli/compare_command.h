// `partplay compare` (argv[0] is "compare"): candidate partition keys side by side on the same
// JSON items, with a pick and the sentence that explains it (report/key_comparison.h).
//
//   partplay compare --candidate /tenantId --candidate /userId --candidate /tenantId,/userId
//       --query /tenantId --ru 10000 --growth 100 orders.ndjson
//
// --format table (default) or json (docs/report.md "Key comparison"). Exit code: 0, or the
// error's code number (error_codes.h).
#pragma once

int RunCompareCommand(int argc, char** argv);
