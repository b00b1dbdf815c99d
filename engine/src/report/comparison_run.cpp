// A key comparison run end to end (report/comparison_run.h): the first read, the comparison,
// and the second read the queries and the write spread need.
#include "partplay/report/comparison_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "partplay/report/key_traffic.h"
#include "partplay/report/query_workload.h"

namespace partplay {

class ComparisonRun::Impl {
 public:
  ComparisonRequest request;
  std::unique_ptr<KeyComparison> comparison;
  std::unique_ptr<ValueCounter> counter;
  std::vector<std::string> counted;  // the pointers the counter counts
  bool finished = false;
  // Of the last Compare (the request's queries before one).
  std::optional<ComparisonReport> report;
  std::vector<QuerySpec> queries;
  std::vector<std::unique_ptr<ItemQuery>> evaluators;
  std::unique_ptr<KeyTrafficPass> traffic;
  bool traffic_done = false;
};

namespace {

// Moves the query box's text (ParseQueryList) into the request's queries and parameters.
Status ReadQueryText(ComparisonRequest& request) {
  if (request.query_text.empty()) return Status::Ok();
  auto list = ParseQueryList(request.query_text);
  if (!list.ok()) return Status(list.status()).WithField("/query_text");  // "queries, line N: ..."
  for (QuerySpec& q : list.value().queries) {
    if (request.queries.size() == kMaxComparedQueries) {
      return Status(ErrorCode::kBadOption,
                    fmt::format("query_text: at most {} queries in all", kMaxComparedQueries))
          .WithField("/query_text");
    }
    request.queries.push_back(std::move(q));
  }
  for (auto& [name, value] : list.value().parameters) {
    if (!request.parameters.emplace(name, value).second) {
      return Status(ErrorCode::kBadOption, fmt::format("query_text: gives {} a second value", name))
          .WithField("/query_text");
    }
  }
  request.query_text.clear();
  return Status::Ok();
}

}  // namespace

ComparisonRun::ComparisonRun(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ComparisonRun::~ComparisonRun() = default;

StatusOr<std::unique_ptr<ComparisonRun>> ComparisonRun::Create(ComparisonRequest request) {
  auto impl = std::make_unique<Impl>();
  if (Status s = ReadQueryText(request); !s.ok()) return s;
  if (request.queries.size() > kMaxComparedQueries) {
    return Status(ErrorCode::kBadOption, fmt::format("at most {} queries", kMaxComparedQueries));
  }
  // Without a second read, path lists stay as the comparison takes them without a parser.
  if (Status s = PrepareQueries(request.queries, request.parameters, request.second_read);
      !s.ok()) {
    return s;
  }
  if (request.second_read) {
    impl->counted = PointersToCount(request.queries, request.parameters);
    if (!impl->counted.empty()) {
      auto counter = ValueCounter::Create(impl->counted);
      if (!counter.ok()) return counter.status();
      impl->counter = std::move(counter).value();
    }
  }
  auto comparison = KeyComparison::Create(request.keys);
  if (!comparison.ok()) return comparison.status();
  impl->comparison = std::move(comparison).value();
  impl->queries = request.queries;  // until a Compare names others
  impl->request = std::move(request);
  return std::unique_ptr<ComparisonRun>(new ComparisonRun(std::move(impl)));
}

Status ComparisonRun::Feed(std::string_view bytes) {
  if (impl_->counter) {
    if (Status s = impl_->counter->Feed(bytes); !s.ok()) return s;
  }
  return impl_->comparison->Feed(bytes);
}

Status ComparisonRun::Finish() {
  if (impl_->counter) {
    if (Status s = impl_->counter->Finish(); !s.ok()) return s;
  }
  if (Status s = impl_->comparison->Finish(); !s.ok()) return s;
  impl_->finished = true;
  return Status::Ok();
}

uint64_t ComparisonRun::bytes_consumed() const { return impl_->comparison->bytes_consumed(); }
uint64_t ComparisonRun::items_seen() const { return impl_->comparison->items_seen(); }

Status ComparisonRun::Compare(const ContainerOptions& container,
                              const std::vector<QuerySpec>* queries,
                              const cosmosql::Parameters* parameters) {
  Impl& m = *impl_;
  if (!m.finished) return Status(ErrorCode::kInvalidState, "compare after the first read");
  m.report.reset();
  m.traffic.reset();
  m.evaluators.clear();
  m.traffic_done = false;
  const cosmosql::Parameters& given = parameters ? *parameters : m.request.parameters;
  m.queries = queries ? *queries : m.request.queries;
  if (queries) {
    if (m.queries.size() > kMaxComparedQueries) {
      return Status(ErrorCode::kBadOption, fmt::format("at most {} queries", kMaxComparedQueries));
    }
    if (Status s = PrepareQueries(m.queries, given, m.request.second_read); !s.ok()) return s;
    if (m.request.second_read) {
      for (const std::string& pointer : PointersToCount(m.queries, given)) {
        if (std::find(m.counted.begin(), m.counted.end(), pointer) == m.counted.end()) {
          return Status(ErrorCode::kInvalidState,
                        fmt::format("a parameter takes its value from {}, which the first read "
                                    "did not count: compare again from the input",
                                    pointer));
        }
      }
    }
  }
  if (Status s = BindParameters(m.queries, given, m.counter.get()); !s.ok()) return s;
  auto report = m.comparison->Compare(container, m.queries);
  if (!report.ok()) return report.status();
  m.report = std::move(report).value();
  if (second_read_needed()) {
    auto evaluators = EvaluatorsOf(m.queries);
    if (!evaluators.ok()) return evaluators.status();
    m.evaluators = std::move(evaluators).value();
    std::vector<ItemQuery*> pointers;
    for (auto& e : m.evaluators) pointers.push_back(e.get());
    auto pass = KeyTrafficPass::Create(TrafficKeysOf(*m.report), std::move(pointers),
                                       m.request.writes);
    if (!pass.ok()) return pass.status();
    m.traffic = std::move(pass).value();
  }
  return Status::Ok();
}

Status ComparisonRun::CompareModel(ComparisonRequest model) {
  if (Status s = ReadQueryText(model); !s.ok()) return s;
  return Compare(model.container, &model.queries, &model.parameters);
}

bool ComparisonRun::second_read_needed() const {
  const Impl& m = *impl_;
  return m.request.second_read && (m.request.writes.enabled || !m.queries.empty());
}

Status ComparisonRun::FeedSecond(std::string_view bytes) {
  if (!impl_->traffic || impl_->traffic_done) {
    return Status(ErrorCode::kInvalidState, "no second read is waiting: compare first");
  }
  return impl_->traffic->Feed(bytes);
}

Status ComparisonRun::FinishSecond() {
  Impl& m = *impl_;
  if (!m.traffic || m.traffic_done) {
    return Status(ErrorCode::kInvalidState, "no second read is waiting: compare first");
  }
  if (Status s = m.traffic->Finish(); !s.ok()) return s;
  if (Status s = ApplyTraffic(*m.report, m.traffic->result()); !s.ok()) return s;
  m.traffic_done = true;
  return Status::Ok();
}

uint64_t ComparisonRun::second_items_seen() const {
  return impl_->traffic ? impl_->traffic->items_seen() : 0;
}

const ComparisonReport& ComparisonRun::report() const {
  static const ComparisonReport kNone;
  return impl_->report ? *impl_->report : kNone;
}

}  // namespace partplay
