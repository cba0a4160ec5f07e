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
  // Glued to their labels differently: not whole words, and no character
  // range either.
  absl::StatusOr<std::optional<v1::TextRange>> r = LearnTextRange({{"ISBN:9781", "9781"}, {"ISBN13:97822x", "97822"}});
  ASSERT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("not a run of whole words"));
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("characters: 5+4+0, 7+5+1"));
  r = LearnTextRange({{"Publisher: Ace", "Tor"}});
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("does not occur"));
  r = LearnTextRange({{"a b c d", "b"}, {"x y z w v", "w"}});  // 1+1+2 vs 3+1+1
  ASSERT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("1+1+2, 3+1+1"));
  EXPECT_EQ(LearnTextRange({}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LearnTextRange({{"text", " "}}).status().code(), absl::StatusCode::kInvalidArgument);
}

v1::TextRange Chars(int skip_start, int skip_end, int length, bool anchor_end) {
  v1::TextRange r = Range(skip_start, skip_end, length, anchor_end);
  r.set_unit(v1::TextRange::CHARACTERS);
  return r;
}

TEST(LearnTextRange, CharactersWhenNoWordRangeFits) {
  const std::vector<Case> cases = {
      // Currency glued to the amount, a suffix after it: both ends constant.
      {{{"£340.00 (inc VAT)", "340.00"}, {"£47.82 (inc VAT)", "47.82"}},
       Chars(1, 10, 0, false),
       {{"£1,299.00 (inc VAT)", "1,299.00"}}},
      // Code points, not bytes: "€" is three bytes, one character.
      {{{"€13.00", "13.00"}}, Chars(1, 0, 0, false), {{"€7.50", "7.50"}, {"€120.99", "120.99"}}},
      // A label glued to a value of constant length, varying tails.
      {{{"SKU:A1234 new", "A1234"}, {"SKU:B5678", "B5678"}}, Chars(4, 0, 5, false), {{"SKU:C9012 (old)", "C9012"}}},
      // Varying heads, a fixed-length value a constant distance from the end.
      {{{"Ref 12-ab!", "ab"}, {"Reference 9-cd!", "cd"}}, Chars(0, 1, 2, true), {{"R 1-xy!", "xy"}}},
      // Words still win when they fit, even where characters would too.
      {{{"By: Ann Lee", "Ann Lee"}}, Range(1, 0, 0, false), {{"By: Bo Chen Jr.", "Bo Chen Jr."}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.examples[0].node_text);
    absl::StatusOr<std::optional<v1::TextRange>> r = LearnTextRange(c.examples);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->has_value());
    EXPECT_EQ((*r)->ShortDebugString(), c.want.ShortDebugString());
    for (const auto& [text, value] : c.applied) EXPECT_EQ(rule::ApplyTextRange(**r, text), value);
  }
}

// Each candidate list as ShortDebugStrings ("" for no range).
std::vector<std::string> Describe(const std::vector<std::optional<v1::TextRange>>& ranges) {
  std::vector<std::string> out;
  for (const auto& r : ranges) out.push_back(r ? r->ShortDebugString() : "");
  return out;
}

TEST(RangeCandidates, OrderOfPreference) {
  struct Row {
    const char* name;
    std::vector<RangeExample> examples;
    bool typed;
    std::vector<std::string> want;
  };
  const std::vector<Row> rows = {
      {"whole text, untyped", {{"Dune", "Dune"}}, false, {""}},
      {"words then characters", {{"By: Ann Lee", "Ann Lee"}}, false,
       {"skip_start: 1", "skip_start: 4 unit: CHARACTERS"}},
      {"typed: nearest offsets, then the regex alone",
       {{"Price: £340.00 (inc VAT)", "340.00"}, {"Price: £47.82 + p&p", "47.82"}},
       true,
       {"skip_start: 8 unit: CHARACTERS nearest_match: true", ""}},
      {"typed, words fit: word ranges first",
       {{"Our Price: $5.99 (save 10%)", "$5.99"}, {"Our Price: $12.00", "$12.00"}},
       true,
       {"skip_start: 2 length: 1", "skip_start: 2 nearest_match: true",
        "skip_start: 11 unit: CHARACTERS nearest_match: true", ""}},
      // Three five-character values: the constant length is their
      // coincidence; the regex finds "4.99" or "1,234.56" on other pages.
      {"typed, constant character length: without the length first",
       {{"£12.00 (inc VAT)", "12.00"}, {"€13.00", "13.00"}, {"$47.82 each", "47.82"}},
       true,
       {"skip_start: 1 unit: CHARACTERS", "skip_start: 1 length: 5 unit: CHARACTERS",
        "skip_start: 1 unit: CHARACTERS nearest_match: true", ""}},
      {"typed, constant characters after the value: the start alone first",
       {{"£12.00 (inc VAT)", "12.00"}, {"£7.50 (inc VAT)", "7.50"}},
       true,
       {"skip_start: 1 unit: CHARACTERS", "skip_start: 1 skip_end: 10 unit: CHARACTERS",
        "skip_start: 1 unit: CHARACTERS nearest_match: true", "skip_end: 10 anchor_end: true unit: CHARACTERS nearest_match: true", ""}},
      {"untyped, constant character length: kept",
       {{"£12.00 (inc VAT)", "12.00"}, {"€13.00", "13.00"}},
       false,
       {"skip_start: 1 length: 5 unit: CHARACTERS"}},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    absl::StatusOr<std::vector<std::optional<v1::TextRange>>> got = RangeCandidates(row.examples, row.typed);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Describe(*got), row.want);
  }
  // Untyped and inconsistent: nothing to try.
  EXPECT_EQ(RangeCandidates({{"a b c d", "b"}, {"x y z w v", "w"}}, false).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(RangeCandidates({{"a b", "q"}}, true).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::learn
