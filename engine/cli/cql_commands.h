// The CQL subcommands of partplay (argv: the arguments after the subcommand's name):
//
//   partplay token --types T1[,T2...] VALUE...
//       the Murmur3Partitioner token of the partition key whose components are the CQL literals
//       VALUE... of the given types, e.g. partplay token --types text,int "'hello'" 42
//   partplay token --types T1[,T2...] --stdin
//       batch mode: each input line is a JSON array of CQL literal strings (["'hello'", "42"]);
//       each output line is the token, or "error: <message>" for a line that fails
//   partplay cql [--nodes N] [--vnodes V] [--random-tokens [--seed S]] [--format F] FILE|-
//       runs a CQL script; --format json (default) prints one line per SELECT,
//       {"columns": [...], "rows": [[...], ...]}, and {"error": {...}} per failed statement;
//       --format cqlsh prints what cqlsh would (errors on stderr); --format details prints every
//       result with tokens and replicas as one JSON object.
//
// Exit code: 0, or the error code (error_codes.h) of the first failure.
#pragma once

int RunTokenCommand(int argc, char** argv);
int RunCqlCommand(int argc, char** argv);
