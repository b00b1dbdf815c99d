// The comparison's queries (report/query_workload.h): the query list's text, parsing, parameter
// binding from the data, and each query's targeting under a key.
#include "partplay/report/query_workload.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "ingest/item_stream.h"
#include "partplay/core/defaults.h"
#include "partplay/core/json_writer.h"
#include "partplay/core/numbers.h"
#include "partplay/ingest/key_path.h"
#include "partplay/ingest/synthetic_key.h"

namespace partplay {
namespace {

namespace dom = simdjson::dom;
using cosmosql::Value;
using cosmosql::ValueKind;
using Kind = SyntheticKeyOptions::Kind;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// The element at a JSON pointer: object members by name, array elements by a decimal index.
bool At(dom::element root, const std::vector<std::string>& segments, dom::element& out) {
  dom::element at = root;
  for (const std::string& name : segments) {
    if (at.type() == dom::element_type::OBJECT) {
      if (at.get_object().value_unsafe().at_key(name).get(at)) return false;
    } else if (at.type() == dom::element_type::ARRAY) {
      uint64_t index = 0;
      if (name.empty() || name.size() > 9 ||
          !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return false;
      }
      for (char c : name) index = index * 10 + static_cast<uint64_t>(c - '0');
      bool found = false;
      dom::array elements;
      if (at.get_array().get(elements)) return false;
      for (dom::element e : elements) {
        if (index-- == 0) {
          at = e;
          found = true;
          break;
        }
      }
      if (!found) return false;
    } else {
      return false;
    }
  }
  out = at;
  return true;
}

// A query value as a partition key component; false for arrays, objects and undefined, which no
// partition key holds.
bool Component(const Value& v, KeyComponent& out) {
  switch (v.kind()) {
    case ValueKind::kNull: out = KeyComponent::Null(); return true;
    case ValueKind::kBool: out = KeyComponent::Bool(v.boolean()); return true;
    case ValueKind::kNumber: out = KeyComponent::Number(v.number()); return true;
    case ValueKind::kString: out = KeyComponent::String(v.string()); return true;
    default: return false;
  }
}

// The text a synthetic key writes for a value (ingest/synthetic_key.h).
bool SyntheticText(const Value& v, std::string& out) {
  KeyComponent c;
  return Component(v, c) && AppendSyntheticComponentText(c.kind, c.number, c.text, out);
}

const PinnedPath* Pin(const std::vector<PinnedPath>& pins, std::string_view pointer) {
  for (const PinnedPath& p : pins) {
    if (p.pointer == pointer) return &p;
  }
  return nullptr;
}

// A pin's alternatives: its values (those a key can hold), or -1 while a parameter is unbound.
int64_t Alternatives(const PinnedPath& p) {
  if (!p.parameters.empty()) return -1;
  int64_t n = 0;
  KeyComponent c;
  for (const Value& v : p.values) n += Component(v, c);
  return n;
}

// At most this many full keys are hashed for one query's targeting (an IN list of a hierarchical
// key multiplies); beyond, only the counts are given.
constexpr int64_t kMaxTargetedKeys = 10000;

void AddRange(const PhysicalLayout& layout, std::string_view epk, std::set<int>& ids) {
  StatusOr<size_t> at = Locate(layout, epk);
  if (at.ok()) ids.insert(layout.ranges[at.value()].id);
}

QueryTarget FromKeys(const std::vector<PartitionKey>& keys, PartitionKeyHashVersion version,
                     const PhysicalLayout& layout, std::string kind) {
  QueryTarget t;
  std::set<int> ids;
  for (const PartitionKey& k : keys) {
    StatusOr<std::string> epk = EffectivePartitionKey(k, version);
    if (!epk.ok()) continue;
    AddRange(layout, epk.value(), ids);
    if (keys.size() == 1) t.epk = epk.value();
  }
  t.kind = keys.empty() ? "none" : std::move(kind);
  t.logical_partitions = static_cast<int64_t>(keys.size());
  t.physical_partitions = static_cast<int64_t>(ids.size());
  t.exact = true;
  t.range_ids.assign(ids.begin(), ids.end());
  return t;
}

// Every suffixed key of the pinned values: "v-1" .. "v-N" (at most kMaxTargetedKeys).
std::vector<PartitionKey> EveryBucket(const PinnedPath& pin, const SyntheticKeyOptions& syn) {
  std::vector<PartitionKey> keys;
  for (const Value& v : pin.values) {
    std::string base;
    if (!SyntheticText(v, base)) continue;
    for (uint32_t b = 1; b <= syn.buckets && keys.size() < kMaxTargetedKeys; ++b) {
      keys.push_back({{KeyComponent::String(fmt::format("{}{}{}", base, syn.separator, b))}});
    }
  }
  return keys;
}

QueryTarget All(const PhysicalLayout& layout, uint64_t logical) {
  QueryTarget t;
  t.kind = "all";
  t.logical_partitions = static_cast<int64_t>(logical);
  t.physical_partitions = static_cast<int64_t>(layout.ranges.size());
  t.exact = true;
  for (const EpkRange& r : layout.ranges) t.range_ids.push_back(r.id);
  return t;
}

QueryTarget Counted(std::string kind, int64_t logical, const PhysicalLayout& layout) {
  QueryTarget t;
  t.kind = logical == 0 ? "none" : std::move(kind);
  t.logical_partitions = logical;
  t.physical_partitions = std::min<int64_t>(logical, static_cast<int64_t>(layout.ranges.size()));
  return t;
}

// Every combination of the pinned values of `paths` (each known), as component lists.
std::vector<std::vector<KeyComponent>> Combinations(const std::vector<const PinnedPath*>& pins) {
  std::vector<std::vector<KeyComponent>> out = {{}};
  for (const PinnedPath* p : pins) {
    std::vector<std::vector<KeyComponent>> next;
    for (const Value& v : p->values) {
      KeyComponent c;
      if (!Component(v, c)) continue;
      for (const auto& prefix : out) {
        next.push_back(prefix);
        next.back().push_back(c);
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace

StatusOr<QueryList> ParseQueryList(std::string_view text) {
  QueryList list;
  const char* const begin = text.data();
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const char* const line_begin = text.data();
    std::string_view line = Trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_number;
    const auto bad = [&](std::string_view what) {
      return Status(ErrorCode::kBadOption, fmt::format("queries, line {}: {}", line_number, what),
                    SourceLocation{-1, static_cast<int64_t>(line_number), 1, -1});
    };
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '@') {
      const size_t eq = line.find('=');
      if (eq == std::string_view::npos) return bad("a parameter line reads @name = JSON value");
      const std::string name(Trim(line.substr(0, eq)));
      if (name.size() < 2 || list.parameters.count(name)) {
        return bad(name.size() < 2 ? "a parameter needs a name" : "the parameter is given twice");
      }
      StatusOr<Value> v = cosmosql::ParseValueJson(Trim(line.substr(eq + 1)));
      if (!v.ok()) return bad(fmt::format("{}: {}", name, v.status().message()));
      list.parameters.emplace(name, std::move(v).value());
      continue;
    }
    QuerySpec q;
    // An optional rate first: a number, then the query.
    if ((line[0] >= '0' && line[0] <= '9') || line[0] == '.') {
      const size_t space = line.find_first_of(" \t");
      double rate = 0;
      if (space == std::string_view::npos || !ParseFiniteDouble(line.substr(0, space), rate) ||
          !(rate >= 0) || rate > 1e9) {
        return bad("a line starts with a rate (calls per second, 0 to 1e9), then the query");
      }
      q.rate = rate;
      line = Trim(line.substr(space));
    }
    if (!line.empty() && line[0] == '/') {
      size_t at = 0;
      while (at <= line.size()) {
        size_t comma = line.find(',', at);
        if (comma == std::string_view::npos) comma = line.size();
        std::string_view path = Trim(line.substr(at, comma - at));
        if (path.empty() || path[0] != '/') return bad("a path list reads /a, /b");
        q.paths.emplace_back(path);
        at = comma + 1;
      }
    } else {
      q.sql = std::string(line);
      q.origin = SourceLocation{line.data() - begin, static_cast<int64_t>(line_number),
                                line.data() - line_begin + 1, -1};
    }
    if (list.queries.size() == static_cast<size_t>(kCompareMaxQueries)) {
      return bad(fmt::format("at most {} queries", kCompareMaxQueries));
    }
    list.queries.push_back(std::move(q));
  }
  return list;
}

namespace {

// `where`, located in its query, as located in the text the query was read from (if any).
SourceLocation InTextOf(const QuerySpec& q, SourceLocation where) {
  if (!q.origin.known() || !where.known()) return where;
  SourceLocation out = where;
  out.line = q.origin.line + where.line - 1;
  if (where.line == 1) out.column = q.origin.column + where.column - 1;
  if (where.byte_offset >= 0) out.byte_offset = q.origin.byte_offset + where.byte_offset;
  return out;
}

// The request field a query came from: the query box's text, or its place in `queries`.
std::string FieldOf(const QuerySpec& q, size_t i) {
  return q.origin.known() ? "/query_text" : fmt::format("/queries/{}", i);
}

}  // namespace

Status PrepareQueries(std::vector<QuerySpec>& queries, const cosmosql::Parameters& given,
                      bool path_lists) {
  for (size_t i = 0; i < queries.size(); ++i) {
    QuerySpec& q = queries[i];
    if (q.sql.empty() && !path_lists) continue;
    std::string sql = q.sql;
    if (q.sql.empty()) {
      // The path list as the query it stands for: an equality on each path, by a parameter.
      q.text.clear();
      sql = "SELECT * FROM c";
      for (size_t p = 0; p < q.paths.size(); ++p) {
        q.text += (p ? ", " : "") + q.paths[p];
        StatusOr<KeyPath> path = KeyPath::Parse(q.paths[p]);
        if (!path.ok()) {
          return Status(ErrorCode::kBadOption,
                        fmt::format("query {}: {}", i + 1, path.status().message()));
        }
        sql += p ? " AND c" : " WHERE c";
        for (const std::string& name : path.value().segments()) {
          sql += '[';
          AppendJsonString(name, sql);
          sql += ']';
        }
        sql += fmt::format(" = @p{}", p + 1);
      }
    } else {
      q.text = q.sql;
    }
    StatusOr<cosmosql::Query> parsed = cosmosql::ParseQuery(sql);
    if (!parsed.ok()) {
      return Status(parsed.status().code(), fmt::format("query {}: {}", i + 1, parsed.status().message()),
                    InTextOf(q, parsed.status().where()))
          .WithField(FieldOf(q, i));
    }
    q.parsed = std::make_shared<const cosmosql::Query>(std::move(parsed).value());
    q.canonical = cosmosql::ToString(*q.parsed);
    q.sources = QueryParameters(*q.parsed);
    for (const ParameterSource& s : q.sources) {
      if (s.filters && s.pointer.empty() && given.find(s.name) == given.end()) {
        return Status(ErrorCode::kBadOption,
                      fmt::format("query {}: parameter {} is not compared by = or IN with a "
                                  "property of the item, so the data cannot give it a value: "
                                  "give it one ({} = VALUE)",
                                  i + 1, s.name, s.name))
            .WithField(FieldOf(q, i));
      }
    }
  }
  return Status::Ok();
}

std::vector<std::string> PointersToCount(const std::vector<QuerySpec>& queries,
                                         const cosmosql::Parameters& given) {
  std::vector<std::string> out;
  for (const QuerySpec& q : queries) {
    for (const ParameterSource& s : q.sources) {
      if (!s.pointer.empty() && given.find(s.name) == given.end() &&
          std::find(out.begin(), out.end(), s.pointer) == out.end()) {
        out.push_back(s.pointer);
      }
    }
  }
  return out;
}

// ---- ValueCounter ------------------------------------------------------------------------------

class ValueCounter::Impl : public internal::ItemSink {
 public:
  explicit Impl(std::vector<std::string> pointers) : pointers_(std::move(pointers)), stream_(this) {
    stream_.EnableValidatedPath();
  }
  Status Init() {
    for (const std::string& p : pointers_) {
      PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(p));
      segments_.push_back(path.segments());
    }
    counts_.resize(pointers_.size());
    return Status::Ok();
  }
  Status OnItem(simdjson::ondemand::document_reference, const internal::ItemContext& item) override {
    dom::element root;
    if (auto e = parser_.parse(item.text.data(), item.text.size()).get(root)) {
      return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
    }
    Count(root);
    return Status::Ok();
  }
  Status OnValidatedItem(dom::element root, const internal::ItemContext&, bool& taken) override {
    taken = true;
    Count(root);
    return Status::Ok();
  }
  void Count(dom::element root) {
    for (size_t i = 0; i < segments_.size(); ++i) {
      dom::element v;
      if (!At(root, segments_[i], v)) continue;
      std::string text = simdjson::minify(v);
      auto [it, added] = counts_[i].try_emplace(std::move(text), Entry{0, seen_++});
      ++it->second.items;
    }
  }
  struct Entry {
    uint64_t items;
    uint64_t first;
  };
  std::vector<std::string> pointers_;
  std::vector<std::vector<std::string>> segments_;
  std::vector<std::unordered_map<std::string, Entry>> counts_;
  uint64_t seen_ = 0;
  internal::ItemStream stream_;
  dom::parser parser_;
};

ValueCounter::ValueCounter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ValueCounter::~ValueCounter() = default;

StatusOr<std::unique_ptr<ValueCounter>> ValueCounter::Create(std::vector<std::string> pointers) {
  auto impl = std::make_unique<Impl>(std::move(pointers));
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<ValueCounter>(new ValueCounter(std::move(impl)));
}

Status ValueCounter::Feed(std::string_view bytes) {
  uint8_t* at = impl_->stream_.WritableChunk(bytes.size());
  if (at == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input chunk");
  std::copy(bytes.begin(), bytes.end(), at);
  return impl_->stream_.CommitChunk(bytes.size());
}

Status ValueCounter::Finish() { return impl_->stream_.Finish(); }

std::optional<ValueCounter::Common> ValueCounter::MostCommon(std::string_view pointer) const {
  for (size_t i = 0; i < impl_->pointers_.size(); ++i) {
    if (impl_->pointers_[i] != pointer) continue;
    const auto& counts = impl_->counts_[i];
    const std::pair<const std::string, Impl::Entry>* best = nullptr;
    for (const auto& entry : counts) {
      if (best == nullptr || entry.second.items > best->second.items ||
          (entry.second.items == best->second.items && entry.second.first < best->second.first)) {
        best = &entry;
      }
    }
    if (best == nullptr) return std::nullopt;
    StatusOr<Value> v = cosmosql::ParseValueJson(best->first);
    if (!v.ok()) return std::nullopt;
    return Common{std::move(v).value(), best->second.items, counts.size()};
  }
  return std::nullopt;
}

// ---- Binding and targeting ----------------------------------------------------------------------

Status BindParameters(std::vector<QuerySpec>& queries, const cosmosql::Parameters& given,
                      const ValueCounter* counter) {
  for (QuerySpec& q : queries) {
    q.parameters.clear();
    if (!q.parsed) continue;
    cosmosql::Parameters bound;
    for (const ParameterSource& s : q.sources) {
      BoundParameter b;
      b.name = s.name;
      b.pointer = s.pointer;
      auto it = given.find(s.name);
      if (it != given.end()) {
        b.value = it->second;
        b.from = "given";
      } else if (!s.filters) {
        continue;  // TOP/OFFSET/LIMIT only: returned rows are then not capped
      } else if (counter == nullptr) {
        b.from = "unbound";  // the data gives it a value when the items are read again
        q.parameters.push_back(std::move(b));
        continue;
      } else {
        std::optional<ValueCounter::Common> common =
            counter ? counter->MostCommon(s.pointer) : std::nullopt;
        if (common) {
          b.value = common->value;
          b.from = "most_common";
          b.items = common->items;
          b.distinct = common->distinct;
        } else {
          b.from = "none";  // undefined: nothing equals it
        }
      }
      bound.emplace(b.name, b.value);
      q.parameters.push_back(std::move(b));
    }
    q.pins = PinnedPaths(*q.parsed, &bound);
  }
  return Status::Ok();
}

namespace {

class EvaluatedQuery : public ItemQuery {
 public:
  explicit EvaluatedQuery(cosmosql::QueryEvaluator evaluator) : evaluator_(std::move(evaluator)) {}
  StatusOr<uint64_t> Rows(const simdjson::dom::element& item, int64_t item_index) override {
    return evaluator_.Rows(item, item_index);
  }

 private:
  cosmosql::QueryEvaluator evaluator_;
};

}  // namespace

StatusOr<std::vector<std::unique_ptr<ItemQuery>>> EvaluatorsOf(
    const std::vector<QuerySpec>& queries) {
  std::vector<std::unique_ptr<ItemQuery>> out;
  for (size_t i = 0; i < queries.size(); ++i) {
    const QuerySpec& q = queries[i];
    if (!q.parsed) return Status(ErrorCode::kInvalidState, "a query was not prepared");
    cosmosql::Parameters values;
    for (const BoundParameter& b : q.parameters) values.emplace(b.name, b.value);
    StatusOr<cosmosql::QueryEvaluator> e = cosmosql::QueryEvaluator::Create(*q.parsed, values);
    if (!e.ok()) {
      return Status(e.status().code(), fmt::format("query {}: {}", i + 1, e.status().message()),
                    e.status().where());
    }
    out.push_back(std::make_unique<EvaluatedQuery>(std::move(e).value()));
  }
  return out;
}

std::string QueryText(const QuerySpec& query) {
  if (!query.sql.empty()) return query.sql;
  std::string text;
  for (size_t p = 0; p < query.paths.size(); ++p) text += (p ? ", " : "") + query.paths[p];
  return text;
}

QueryTarget TargetQuery(const QuerySpec& query, const AnalysisOptions& key,
                        PartitionKeyHashVersion version, const PhysicalLayout& layout,
                        uint64_t logical_partitions) {
  const SyntheticKeyOptions& syn = key.synthetic;
  // An unprepared path list: an unbound parameter on each path.
  std::vector<PinnedPath> from_paths;
  if (!query.parsed) {
    for (size_t i = 0; i < query.paths.size(); ++i) {
      from_paths.push_back({query.paths[i], {}, {fmt::format("@p{}", i + 1)}});
    }
  }
  const std::vector<PinnedPath>& pins = query.parsed ? query.pins : from_paths;
  const auto all = [&] { return All(layout, logical_partitions); };
  if (syn.kind == Kind::kConcat || syn.kind == Kind::kHashSuffix) {
    // The paths the key is computed from; a concatenated part may take a piece of its value.
    std::vector<KeyPart> paths;
    if (syn.kind == Kind::kConcat) {
      for (const std::string& p : syn.paths) {
        StatusOr<KeyPart> part = ParseKeyPart(p);  // read before, by the analysis of this key
        paths.push_back(part.ok() ? std::move(part).value() : KeyPart{p});
      }
    } else {
      paths = {KeyPart{key.key_paths[0]}, KeyPart{syn.suffix_path}};
    }
    std::vector<const PinnedPath*> found;
    int64_t product = 1;
    bool known = true;
    for (const KeyPart& p : paths) {
      const PinnedPath* pin = Pin(pins, p.path);
      if (pin == nullptr) break;
      found.push_back(pin);
      const int64_t n = Alternatives(*pin);
      known &= n >= 0;
      product *= n >= 0 ? n : static_cast<int64_t>(pin->parameters.size() + pin->values.size());
    }
    if (found.size() < paths.size()) {
      // A hash suffix with only its value pinned: every suffix of that value.
      if (syn.kind == Kind::kHashSuffix && !found.empty()) {
        const int64_t n = Alternatives(*found[0]);
        if (n < 0) return Counted("buckets", static_cast<int64_t>(syn.buckets), layout);
        return FromKeys(EveryBucket(*found[0], syn), version, layout, "buckets");
      }
      return all();
    }
    if (!known || product > kMaxTargetedKeys) {
      return Counted(product == 1 ? "single" : "several", product, layout);
    }
    std::vector<PartitionKey> keys;
    std::set<std::string> seen;  // two pinned dates of one month make one key
    for (const std::vector<KeyComponent>& combo : Combinations(found)) {
      std::string text;
      bool ok = true;
      if (syn.kind == Kind::kConcat) {
        for (size_t i = 0; i < combo.size() && ok; ++i) {
          if (i) text += syn.separator;
          ok = AppendKeyPartText(paths[i], combo[i].kind, combo[i].number, combo[i].text, text);
        }
      } else {
        std::string suffix;
        ok = AppendSyntheticComponentText(combo[0].kind, combo[0].number, combo[0].text, text) &&
             AppendSyntheticComponentText(combo[1].kind, combo[1].number, combo[1].text, suffix);
        if (ok) text += fmt::format("{}{}", syn.separator, HashSuffixBucket(suffix, syn.buckets));
      }
      if (ok && seen.insert(text).second) keys.push_back({{KeyComponent::String(text)}});
    }
    return FromKeys(keys, version, layout, keys.size() == 1 ? "single" : "several");
  }
  if (syn.kind == Kind::kRandomSuffix) {
    const PinnedPath* pin = Pin(pins, key.key_paths[0]);
    if (pin == nullptr) return all();
    const int64_t n = Alternatives(*pin);
    if (n < 0) return Counted("buckets", static_cast<int64_t>(syn.buckets), layout);
    return FromKeys(EveryBucket(*pin, syn), version, layout, "buckets");
  }
  // A plain or hierarchical key: the leading paths pinned.
  std::vector<const PinnedPath*> leading;
  for (const std::string& p : key.key_paths) {
    const PinnedPath* pin = Pin(pins, p);
    if (pin == nullptr) break;
    leading.push_back(pin);
  }
  if (leading.empty()) return all();
  int64_t product = 1;
  bool known = true;
  for (const PinnedPath* p : leading) {
    const int64_t n = Alternatives(*p);
    known &= n >= 0;
    product *= n >= 0 ? n : static_cast<int64_t>(p->parameters.size() + p->values.size());
  }
  if (leading.size() == key.key_paths.size()) {
    if (!known || product > kMaxTargetedKeys) {
      return Counted(product == 1 ? "single" : "several", product, layout);
    }
    std::vector<PartitionKey> keys;
    for (auto& combo : Combinations(leading)) keys.push_back({std::move(combo)});
    return FromKeys(keys, version, layout, keys.size() == 1 ? "single" : "several");
  }
  // A prefix of a hierarchical key: the physical partitions holding it.
  QueryTarget t;
  t.kind = "prefix";
  t.logical_partitions = -1;
  t.physical_partitions = -1;
  if (!known || product > kMaxTargetedKeys) return t;
  std::set<int> ids;
  for (auto& combo : Combinations(leading)) {
    StatusOr<std::string> epk = EffectivePartitionKey({std::move(combo)}, version);
    if (!epk.ok()) continue;
    const std::string max = epk.value() + std::string(kMaxEffectivePartitionKey);
    for (const EpkRange& r : layout.ranges) {
      if (CompareEffectivePartitionKeys(r.min_inclusive, max) < 0 &&
          CompareEffectivePartitionKeys(epk.value(), r.max_exclusive) < 0) {
        ids.insert(r.id);
      }
    }
  }
  if (product == 0) t.kind = "none";
  t.physical_partitions = static_cast<int64_t>(ids.size());
  t.exact = true;
  t.range_ids.assign(ids.begin(), ids.end());
  return t;
}

}  // namespace partplay
