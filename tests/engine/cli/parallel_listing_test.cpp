// The CLI's listing of every partition on several threads writes the bytes one thread writes.
#include "parallel_listing.h"

#include <gtest/gtest.h>

#include <string>

#include "../report/random_analysis.h"
#include "partplay/ingest/analysis.h"

namespace partplay::cli {
namespace {

TEST(ParallelListing, AnyThreadsAndStretchesWriteTheOneThreadBytes) {
  AnalysisOptions options;
  std::unique_ptr<Analyzer> created = AnalyzeRandomItems(31, 5000, 2600, 12, options);
  ASSERT_TRUE(created);
  Analyzer& analyzer = *created;
  for (bool container : {false, true}) {
    ReportRequest request;
    if (container) request.container = ContainerOptions{};
    PartitionsJson listing(analyzer, request, nullptr);
    ASSERT_GT(listing.size(), 2000u);
    for (size_t from : {size_t{0}, size_t{1}, size_t{1000}, listing.size() - 1, listing.size()}) {
      std::string expected;
      ASSERT_TRUE(listing.Append(from, listing.size(), expected).ok());
      for (int threads : {1, 2, 3, 4, 7}) {
        for (size_t stretch : {size_t{1}, size_t{7}, size_t{64}, size_t{4096}}) {
          std::string text;
          size_t writes = 0;
          Status status = WritePartitionsJsonInParallel(
              listing, from, threads,
              [&](std::string_view piece) {
                text += piece;
                ++writes;
              },
              stretch);
          ASSERT_TRUE(status.ok()) << status.message();
          EXPECT_EQ(text, expected) << "container " << container << " from " << from
                                    << " threads " << threads << " stretch " << stretch;
          EXPECT_EQ(writes, (listing.size() - from + stretch - 1) / stretch);
        }
      }
    }
  }
}

TEST(ParallelListing, SmallListingsStayOnOneThread) {
  EXPECT_EQ(ListingThreads(0), 1);
  EXPECT_EQ(ListingThreads(8191), 1);
  EXPECT_GE(ListingThreads(8192), 1);
  EXPECT_LE(ListingThreads(1u << 30), 4);
}

}  // namespace
}  // namespace partplay::cli
