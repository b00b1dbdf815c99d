// Status, StatusOr, the error-code table and the RETURN_IF_ERROR / ASSIGN_OR_RETURN macros.
#include "partplay/core/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace partplay {
namespace {

struct TableRow {
  ErrorCode code;
  int number;
  std::string name;
  std::string description;
};

std::vector<TableRow> Table() {
  return {
#define PARTPLAY_X(name, number, short_name, description) \
  {ErrorCode::name, number, short_name, description},
      PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  };
}

TEST(ErrorCodeTest, NameAndDescriptionForEveryCodeInTheTable) {
  std::vector<TableRow> table = Table();
  // 23, and the six the page and its worker raise (cancelled .. engine_failed).
  ASSERT_EQ(table.size(), 29u);
  for (const TableRow& row : table) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(static_cast<int>(row.code), row.number);
    // The CLI exits with the code: it must fit an exit status.
    EXPECT_GE(row.number, 0);
    EXPECT_LE(row.number, 255);
    EXPECT_EQ(ErrorCodeName(row.code), row.name);
    EXPECT_EQ(ErrorCodeDescription(row.code), row.description);
    EXPECT_FALSE(ErrorCodeDescription(row.code).empty());
  }
}

TEST(ErrorCodeTest, NamesAndNumbersAreUnique) {
  std::set<std::string> names;
  std::set<int> numbers;
  for (const TableRow& row : Table()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_TRUE(numbers.insert(row.number).second) << row.number;
  }
}

TEST(ErrorCodeTest, SpotChecksOfTheTable) {
  EXPECT_EQ(ErrorCodeName(ErrorCode::kOk), "ok");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kInterrupted), "interrupted");
  EXPECT_EQ(static_cast<int>(ErrorCode::kInterrupted), 130);  // 128 + SIGINT, as shells report
  EXPECT_EQ(ErrorCodeName(ErrorCode::kMalformedJson), "malformed_json");
  EXPECT_EQ(static_cast<int>(ErrorCode::kMalformedJson), 11);
  EXPECT_EQ(ErrorCodeName(ErrorCode::kQuerySyntax), "query_syntax");
  EXPECT_EQ(static_cast<int>(ErrorCode::kQuerySyntax), 44);
  EXPECT_EQ(ErrorCodeName(ErrorCode::kBadKeyPath), "bad_key_path");
  EXPECT_EQ(static_cast<int>(ErrorCode::kBadKeyPath), 20);
  EXPECT_EQ(ErrorCodeName(ErrorCode::kInternal), "internal");
  EXPECT_EQ(static_cast<int>(ErrorCode::kInternal), 99);
  EXPECT_EQ(ErrorCodeDescription(ErrorCode::kTruncatedInput), "the input ends inside a JSON value");
}

TEST(ErrorCodeTest, NumbersOutsideTheTableAreUnknown) {
  for (int n : {1, 4, 18, 98, 100, -1, 12345}) {
    EXPECT_EQ(ErrorCodeName(static_cast<ErrorCode>(n)), "unknown") << n;
    EXPECT_EQ(ErrorCodeDescription(static_cast<ErrorCode>(n)), "unknown error code") << n;
  }
}

TEST(SourceLocationTest, DefaultIsUnknownAndAnyFieldMakesItKnown) {
  SourceLocation none;
  EXPECT_EQ(none.byte_offset, -1);
  EXPECT_EQ(none.line, 0);
  EXPECT_EQ(none.column, 0);
  EXPECT_EQ(none.item_index, -1);
  EXPECT_FALSE(none.known());

  SourceLocation offset;
  offset.byte_offset = 0;
  EXPECT_TRUE(offset.known());
  SourceLocation item;
  item.item_index = 0;
  EXPECT_TRUE(item.known());
  SourceLocation line;
  line.line = 1;
  EXPECT_TRUE(line.known());
  SourceLocation column_only;
  column_only.column = 4;  // a column without a line says nothing
  EXPECT_FALSE(column_only.known());
}

TEST(StatusTest, DefaultAndOkAreOk) {
  Status a;
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(a.code(), ErrorCode::kOk);
  EXPECT_EQ(a.message(), "");
  EXPECT_FALSE(a.where().known());
  EXPECT_TRUE(Status::Ok().ok());
  EXPECT_EQ(Status::Ok().ToString(), "ok");
}

TEST(StatusTest, ErrorKeepsCodeMessageAndLocation) {
  SourceLocation where{41, 3, 7, 2};
  Status s(ErrorCode::kMalformedJson, "expected ':'", where);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kMalformedJson);
  EXPECT_EQ(s.message(), "expected ':'");
  EXPECT_EQ(s.where().byte_offset, 41);
  EXPECT_EQ(s.where().line, 3);
  EXPECT_EQ(s.where().column, 7);
  EXPECT_EQ(s.where().item_index, 2);
}

TEST(StatusTest, ToStringWithoutLocation) {
  EXPECT_EQ(Status(ErrorCode::kBadOption, "give 1 to 3 paths").ToString(),
            "bad_option: give 1 to 3 paths");
  EXPECT_EQ(Status(ErrorCode::kInternal, "").ToString(), "internal: ");
}

TEST(StatusTest, ToStringWithFullLocation) {
  Status s(ErrorCode::kMalformedJson, "boom", SourceLocation{41, 3, 7, 2});
  EXPECT_EQ(s.ToString(), "malformed_json at line 3, column 7 (byte 41, item 2): boom");
}

TEST(StatusTest, ToStringWithPartialLocations) {
  EXPECT_EQ(Status(ErrorCode::kBadKeyPath, "m", SourceLocation{-1, 1, 4, -1}).ToString(),
            "bad_key_path at line 1, column 4: m");
  EXPECT_EQ(Status(ErrorCode::kEmptyInput, "m", SourceLocation{0, 1, 1, -1}).ToString(),
            "empty_input at line 1, column 1 (byte 0): m");
  EXPECT_EQ(Status(ErrorCode::kNotAnObject, "m", SourceLocation{-1, 0, 0, 5}).ToString(),
            "not_an_object (item 5): m");
  EXPECT_EQ(Status(ErrorCode::kTruncatedInput, "m", SourceLocation{12, 0, 0, -1}).ToString(),
            "truncated_input (byte 12): m");
  // Byte 0 and item 0 are real positions, not "absent".
  EXPECT_EQ(Status(ErrorCode::kTooDeep, "m", SourceLocation{0, 0, 0, 0}).ToString(),
            "too_deep (byte 0, item 0): m");
}

TEST(StatusTest, ToStringOfAnUnknownCode) {
  EXPECT_EQ(Status(static_cast<ErrorCode>(77), "odd").ToString(), "unknown: odd");
}

TEST(StatusOrTest, HoldsAValue) {
  StatusOr<std::string> v(std::string("hello"));
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v.status().ok());
  EXPECT_EQ(v.value(), "hello");
  EXPECT_EQ(v->size(), 5u);
  v.value() += "!";
  EXPECT_EQ(v.value(), "hello!");
  const StatusOr<std::string>& c = v;
  EXPECT_EQ(c.value(), "hello!");
  EXPECT_EQ(c->front(), 'h');
}

TEST(StatusOrTest, HoldsAnError) {
  StatusOr<int> v(Status(ErrorCode::kIo, "cannot read x.json", SourceLocation{-1, 0, 0, -1}));
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), ErrorCode::kIo);
  EXPECT_EQ(v.status().message(), "cannot read x.json");
}

TEST(StatusOrTest, MovesAMoveOnlyValueOut) {
  StatusOr<std::unique_ptr<int>> v(std::make_unique<int>(42));
  ASSERT_TRUE(v.ok());
  std::unique_ptr<int> p = std::move(v).value();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 42);
}

// --- macros ------------------------------------------------------------------------------------

int g_evaluations = 0;

Status Step(bool fail, ErrorCode code = ErrorCode::kIo) {
  ++g_evaluations;
  return fail ? Status(code, "step failed") : Status::Ok();
}

Status TwoSteps(bool fail_first, bool fail_second, int& reached) {
  reached = 0;
  PARTPLAY_RETURN_IF_ERROR(Step(fail_first, ErrorCode::kIo));
  reached = 1;
  PARTPLAY_RETURN_IF_ERROR(Step(fail_second, ErrorCode::kUsage));
  reached = 2;
  return Status::Ok();
}

TEST(MacroTest, ReturnIfErrorPassesOkThrough) {
  int reached = -1;
  g_evaluations = 0;
  Status s = TwoSteps(false, false, reached);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(reached, 2);
  EXPECT_EQ(g_evaluations, 2);  // each expression evaluated exactly once
}

TEST(MacroTest, ReturnIfErrorReturnsTheFirstError) {
  int reached = -1;
  g_evaluations = 0;
  Status s = TwoSteps(true, false, reached);
  EXPECT_EQ(s.code(), ErrorCode::kIo);
  EXPECT_EQ(reached, 0);
  EXPECT_EQ(g_evaluations, 1);

  g_evaluations = 0;
  s = TwoSteps(false, true, reached);
  EXPECT_EQ(s.code(), ErrorCode::kUsage);
  EXPECT_EQ(s.message(), "step failed");
  EXPECT_EQ(reached, 1);
  EXPECT_EQ(g_evaluations, 2);
}

StatusOr<int> Half(int x) {
  ++g_evaluations;
  if (x % 2) return Status(ErrorCode::kBadOption, "odd", SourceLocation{-1, 0, 0, x});
  return x / 2;
}

StatusOr<int> Quarter(int x, int& reached) {
  reached = 0;
  PARTPLAY_ASSIGN_OR_RETURN(int h, Half(x));
  reached = 1;
  PARTPLAY_ASSIGN_OR_RETURN(int q, Half(h));
  reached = 2;
  return q;
}

Status AssignToExisting(int x, int& out) {
  PARTPLAY_ASSIGN_OR_RETURN(out, Half(x));
  return Status::Ok();
}

StatusOr<std::unique_ptr<int>> MakeBox(bool fail) {
  if (fail) return Status(ErrorCode::kOutOfMemory, "no box");
  return std::make_unique<int>(7);
}

Status UnboxMoveOnly(bool fail, int& out) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<int> box, MakeBox(fail));
  out = *box;
  return Status::Ok();
}

TEST(MacroTest, AssignOrReturnAssignsValues) {
  int reached = -1;
  g_evaluations = 0;
  StatusOr<int> q = Quarter(12, reached);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q.value(), 3);
  EXPECT_EQ(reached, 2);
  EXPECT_EQ(g_evaluations, 2);
}

TEST(MacroTest, AssignOrReturnReturnsTheErrorWithItsLocation) {
  int reached = -1;
  StatusOr<int> q = Quarter(7, reached);
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(q.status().where().item_index, 7);
  EXPECT_EQ(reached, 0);

  q = Quarter(6, reached);  // 6 -> 3 -> odd
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().where().item_index, 3);
  EXPECT_EQ(reached, 1);
}

TEST(MacroTest, AssignOrReturnIntoAnExistingVariable) {
  int out = -1;
  EXPECT_TRUE(AssignToExisting(10, out).ok());
  EXPECT_EQ(out, 5);
  out = -1;
  Status s = AssignToExisting(9, out);
  EXPECT_EQ(s.code(), ErrorCode::kBadOption);
  EXPECT_EQ(out, -1);  // untouched on error
}

TEST(MacroTest, AssignOrReturnMovesMoveOnlyValues) {
  int out = 0;
  EXPECT_TRUE(UnboxMoveOnly(false, out).ok());
  EXPECT_EQ(out, 7);
  out = 0;
  Status s = UnboxMoveOnly(true, out);
  EXPECT_EQ(s.code(), ErrorCode::kOutOfMemory);
  EXPECT_EQ(out, 0);
}

}  // namespace
}  // namespace partplay
