// The write guardrails (guardrails.h) on a statement that ran: items_per_collection on each
// collection value it sets or adds to (Lists/Sets/Maps Setter and Appender: the elements the
// statement writes, not those already there), partition_size and partition_tombstones on each
// partition it wrote.
#include <fmt/format.h>

#include "cassandra/json_doc.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {
namespace {

// The elements a collection literal holds (a map's entries), or -1 for another kind of value.
int64_t LiteralItems(const Literal& lit) {
  switch (lit.kind) {
    case LiteralKind::kList:
    case LiteralKind::kSet:
      return static_cast<int64_t>(lit.elements.size());
    case LiteralKind::kMap:
      return static_cast<int64_t>(lit.elements.size() / 2);
    default:
      return -1;
  }
}

Status GuardItems(const Guardrails& g, const ColumnSpec& c, int64_t items,
                  std::vector<std::string>& warnings, const SourceLocation& where) {
  // A non-frozen collection guards only what it adds; an empty one adds nothing.
  if (!c.type.is_collection() || items < 0 || (c.type.is_multi_cell() && items == 0)) {
    return Status::Ok();
  }
  return Guard(g, Guardrail::kItemsPerCollection, items, c.name, warnings, where);
}

}  // namespace

Status GuardCollectionItems(const Guardrails& g, const TableSchema& t, const InsertStatement& s,
                            std::vector<std::string>& warnings) {
  if (!g.enabled(Guardrail::kItemsPerCollection)) return Status::Ok();
  if (!s.json) {
    for (size_t i = 0; i < s.columns.size() && i < s.values.size(); ++i) {
      const ColumnSpec* c = t.Find(s.columns[i].text);
      if (c == nullptr) continue;
      PARTPLAY_RETURN_IF_ERROR(GuardItems(g, *c, LiteralItems(s.values[i]), warnings,
                                          s.values[i].where));
    }
    return Status::Ok();
  }
  internal::JsonNode object;
  size_t pos = 0;
  std::string error;
  if (!internal::ParseJson(s.json_value.text, pos, object, error)) return Status::Ok();
  for (const internal::JsonMember& m : object.members) {
    std::string name = m.name;  // a member names a column as an identifier does
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    } else {
      for (char& ch : name) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
    }
    const ColumnSpec* c = t.Find(name);
    if (c == nullptr) continue;
    int64_t items = m.value.kind == internal::JsonNode::Kind::kArray
                        ? static_cast<int64_t>(m.value.items.size())
                    : m.value.kind == internal::JsonNode::Kind::kObject
                        ? static_cast<int64_t>(m.value.members.size())
                        : -1;
    PARTPLAY_RETURN_IF_ERROR(GuardItems(g, *c, items, warnings, s.json_value.where));
  }
  return Status::Ok();
}

Status GuardCollectionItems(const Guardrails& g, const TableSchema& t, const UpdateStatement& s,
                            std::vector<std::string>& warnings) {
  if (!g.enabled(Guardrail::kItemsPerCollection)) return Status::Ok();
  for (const Assignment& a : s.assignments) {
    if (a.op != Assignment::Op::kSet && a.op != Assignment::Op::kAppend &&
        a.op != Assignment::Op::kPrepend) {
      continue;
    }
    const ColumnSpec* c = t.Find(a.column.text);
    if (c == nullptr) continue;
    PARTPLAY_RETURN_IF_ERROR(GuardItems(g, *c, LiteralItems(a.value), warnings, a.value.where));
  }
  return Status::Ok();
}

void GuardPartitionSizes(const Guardrails& g, const Table& table,
                         const std::vector<PartitionKey>& keys,
                         std::vector<std::string>& warnings) {
  if (!g.enabled(Guardrail::kPartitionSize) && !g.enabled(Guardrail::kPartitionTombstones)) return;
  const TableSchema& t = table.schema();
  for (const PartitionKey& k : keys) {
    const Partition* p = table.Find(k);
    if (p == nullptr) continue;  // a partition deleted whole is not written to an sstable here
    // SortedTableWriter.guardPartitionThreshold names it ks.table:key (key components by ':').
    std::string key;
    for (size_t i = 0; i < p->key.size(); ++i) {
      key += (i ? ":" : "") + FormatCqlsh(t.partition_column(i).type, p->key[i]);
    }
    const PartitionSize size = table.SizeOf(*p);
    const std::string what = fmt::format("{}.{}:{}", t.keyspace, t.name, key);
    // Both only warn (Guard never refuses them).
    (void)Guard(g, Guardrail::kPartitionSize, size.bytes, what, warnings, {});
    (void)Guard(g, Guardrail::kPartitionTombstones, size.tombstones, what, warnings, {});
  }
}

}  // namespace partplay::cql
