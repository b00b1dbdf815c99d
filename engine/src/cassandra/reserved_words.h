// CQL's reserved keywords: the words an unquoted name may not be (the parser rejects them as
// identifiers) and so the words a name written back out must be quoted as (QuoteName). One list
// for both, so what the parser refuses and what DESCRIBE quotes cannot drift apart.
//
// The list is Apache Cassandra's "Appendix A: CQL Keywords" (cassandra.apache.org/doc, cql/
// appendices), the 56 words marked reserved, lower case as the lexer folds unquoted names.
// Cassandra 4.0's ReservedKeywords.java also reserves IS, MATERIALIZED, DEFAULT, UNSET, MBEAN and
// MBEANS (and later versions FOR, RESTRICT, UNRESTRICT); this parser reads those as keywords only
// where its grammar expects them and accepts them as names elsewhere.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace partplay::cql {

inline constexpr std::array<std::string_view, 56> kReservedKeywords = {
    "add",      "allow",  "alter",   "and",          "apply",  "asc",     "authorize",
    "batch",    "begin",  "by",      "columnfamily", "create", "delete",  "desc",
    "describe", "drop",   "entries", "execute",      "from",   "full",    "grant",
    "if",       "in",     "index",   "infinity",     "insert", "into",    "keyspace",
    "limit",    "modify", "nan",     "norecursive",  "not",    "null",    "of",
    "on",       "or",     "order",   "primary",      "rename", "replace", "revoke",
    "schema",   "select", "set",     "table",        "to",     "token",   "truncate",
    "unlogged", "update", "use",     "using",        "view",   "where",   "with"};

static_assert(std::is_sorted(kReservedKeywords.begin(), kReservedKeywords.end()),
              "IsReservedKeyword searches the list by halves");

// Whether `word` (lower case) is a reserved keyword.
inline bool IsReservedKeyword(std::string_view word) {
  return std::binary_search(kReservedKeywords.begin(), kReservedKeywords.end(), word);
}

}  // namespace partplay::cql
