// `partplay size` (argv: the arguments after "size"): will the partitions get too big? Two ways:
//
//   partplay size --schema FILE.cql --table NAME --rows-per-partition N|A*B [options]
//       sizes a CQL table from estimates (table_sizing.h): every term of Nv and St, the table
//       total, the limits broken, the growth over time and the redesign options.
//   partplay size --data FILE --key PATH [--key PATH ...] [--values-per-row N]
//       measures the partitions of JSON items grouped by the key (data_sizing.h).
//
// --format text (default) shows the arithmetic; --format json prints docs/sizing.md's object.
// Exit code: 0, or the error's code number (error_codes.h); errors name what and where.
#pragma once

int RunSizeCommand(int argc, char** argv);
