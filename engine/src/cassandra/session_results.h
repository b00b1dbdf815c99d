// Internal: the three ways a schema statement ends (failed, changed the schema, did nothing),
// and Cassandra's InvalidRequest, shared by the session's schema files.
#pragma once

#include <string>
#include <utility>

#include "partplay/cassandra/session.h"

namespace partplay::cql::internal {

inline Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

inline StatementResult Failed(StatementResult r, Status s) {
  r.kind = StatementResult::Kind::kError;
  r.status = std::move(s);
  return r;
}

inline StatementResult Changed(StatementResult r, std::string message) {
  r.kind = StatementResult::Kind::kSchemaChange;
  r.message = std::move(message);
  return r;
}

inline StatementResult Nothing(StatementResult r) {
  r.kind = StatementResult::Kind::kVoid;
  return r;
}

}  // namespace partplay::cql::internal
