// A key comparison run end to end, as the CLI and the page's worker run it over input they can
// read twice (report/key_comparison.h has the comparison, report/key_traffic.h the second read):
//  1. the first read: every key's analysis, and the values held at the properties that the
//     queries' unbound parameters are compared with (the most common one binds each);
//  2. Compare: the comparison under a container and the queries, again and again without
//     re-reading;
//  3. when the queries or the write spread ask for it (second_read_needed), a second read of the
//     same bytes under every key as laid out, whose figures join the report (ApplyTraffic).
//
//   auto run = ComparisonRun::Create(request);       // request.queries: SQL or path lists
//   run->Feed(bytes)...; run->Finish();
//   run->Compare(request.container, nullptr);          // the request's queries
//   if (run->second_read_needed()) { run->FeedSecond(bytes)...; run->FinishSecond(); }
//   ComparisonToJson(run->report());
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/report/key_comparison.h"

namespace partplay {

class ComparisonRun {
 public:
  // Reads the request's query text (ParseQueryList) into its queries and parameters, prepares
  // the queries (PrepareQueries: a located error names the query) and, when
  // it reads twice, counts the values their unbound parameters take. Errors: kBadOption.
  static StatusOr<std::unique_ptr<ComparisonRun>> Create(ComparisonRequest request);
  ~ComparisonRun();

  Status Feed(std::string_view bytes);
  Status Finish();
  uint64_t bytes_consumed() const;
  uint64_t items_seen() const;

  // After Finish: the comparison under `container` and `queries` (null: the request's; else
  // prepared here, their unbound parameters taking the first read's values, so they may only
  // compare properties the request's queries did: kInvalidState otherwise, read again then).
  // The report is kept; a second read, when needed, completes it.
  Status Compare(const ContainerOptions& container, const std::vector<QuerySpec>* queries,
                 const cosmosql::Parameters* parameters = nullptr);
  // Compare under a model (ParseComparisonModelJson): its container, queries, parameters and
  // query text.
  Status CompareModel(ComparisonRequest model);
  // Whether the last Compare waits for a second read (before any, whether one under the
  // request's own queries would): the request asks for one and there are queries or a write
  // spread to measure.
  bool second_read_needed() const;
  Status FeedSecond(std::string_view bytes);
  Status FinishSecond();  // adds the traffic figures to the report and ranks the keys again
  uint64_t second_items_seen() const;

  // After Compare (and FinishSecond when it was needed).
  const ComparisonReport& report() const;

 private:
  class Impl;
  explicit ComparisonRun(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace partplay
