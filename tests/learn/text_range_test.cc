#include "common/learn/range_learner.h"
#include "common/rule/text_range.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vertex::learn {
namespace {

v1::TextRange Range(int skip_start, int skip_end, int length, bool anchor_end) {
  v1::TextRange r;
  r.set_skip_start(skip_start);
  r.set_skip_end(skip_end);
  r.set_length(length);
  r.set_anchor_end(anchor_end);
  return r;
}

TEST(LearnTextRange, WholeTextNeedsNoRange) {
  absl::StatusOr<std::optional<v1::TextRange>> r =
      LearnTextRange({{"The Hobbit", "the hobbit"}, {"  Dune\n", "Dune"}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->has_value());
}

struct Case {
  std::vector<RangeExample> examples;
  v1::TextRange want;
  std::vector<std::pair<std::string, std::string>> applied;  // text -> value on another page
};

TEST(LearnTextRange, PicksTheConsistentForm) {
  const std::vector<Case> cases = {
      // Label before, value of varying length to the end: both ends constant.
      {{{"By: J. R. R. Tolkien", "J. R. R. Tolkien"}, {"By: Frank Herbert", "Frank Herbert"}},
       Range(1, 0, 0, false),
       {{"By: Ursula K. Le Guin", "Ursula K. Le Guin"}}},
      // The paper's example: offset 2 from the start... and varying tails.
      {{{"Our Price: $25.99 (save 10%)", "$25.99"}, {"Our Price: $5.00", "$5.00"}},
       Range(2, 0, 1, false),
       {{"Our Price: $7.25 today only", "$7.25"}}},
      // Varying heads, value a fixed number of words before the end.
      {{{"Only 3 left: 12.50 USD", "12.50"}, {"In stock: 4.00 USD", "4.00"}},
       Range(0, 1, 1, true),
       {{"Back in stock soon: 9.99 USD", "9.99"}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.examples[0].node_text);
    absl::StatusOr<std::optional<v1::TextRange>> r = LearnTextRange(c.examples);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->has_value());
    EXPECT_EQ((*r)->DebugString(), c.want.DebugString());
    for (const auto& [text, value] : c.applied) EXPECT_EQ(rule::ApplyTextRange(**r, text), value);
  }
}

TEST(LearnTextRange, Rejects) {
  // Glued to its label: not whole words.
  absl::StatusOr<std::optional<v1::TextRange>> r = LearnTextRange({{"ISBN:9781", "9781"}});
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("not a run of whole words"));
  r = LearnTextRange({{"Publisher: Ace", "Tor"}});
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("does not occur"));
  r = LearnTextRange({{"a b c d", "b"}, {"x y z w v", "w"}});  // 1+1+2 vs 3+1+1
  ASSERT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("1+1+2, 3+1+1"));
  EXPECT_EQ(LearnTextRange({}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LearnTextRange({{"text", " "}}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ApplyTextRange, TooFewWordsGiveNothing) {
  EXPECT_EQ(rule::ApplyTextRange(Range(2, 0, 0, false), "Price:"), std::nullopt);
  EXPECT_EQ(rule::ApplyTextRange(Range(1, 1, 0, false), "a b"), std::nullopt);
  EXPECT_EQ(rule::ApplyTextRange(Range(0, 0, 3, false), "a b"), std::nullopt);
  EXPECT_EQ(rule::ApplyTextRange(Range(-1, 0, 0, false), "a b"), std::nullopt);
  EXPECT_EQ(rule::ApplyTextRange(Range(0, 0, 0, false), "  a \t b "), "a b");
  EXPECT_EQ(rule::ApplyTextRange(Range(0, 0, 2, true), "a b c"), "b c");
}

}  // namespace
}  // namespace vertex::learn
