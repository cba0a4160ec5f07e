// Product pages with a navigation menu and a feature list, and a list model
// learnt from such pages that finds the feature list, for the tests of the
// list finder's proposals (tests/workflow/list_proposals_test.cc,
// tests/cli/proposals_cli_test.cc).
#ifndef VERTEX_TESTS_TESTING_PROPOSAL_PAGES_H_
#define VERTEX_TESTS_TESTING_PROPOSAL_PAGES_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "common/lists/list_finder.h"
#include "common/workflow/list_proposals.h"
#include "gtest/gtest.h"

namespace vertex::test_support {

inline std::vector<std::string> Words(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(absl::StrCat(prefix, " ", std::string(1, static_cast<char>('a' + i))));
  return out;
}

// A product page: a navigation menu (links), the title, a feature list.
inline std::string ProductPage(const std::string& title, const std::vector<std::string>& features) {
  std::string html = "<html><body><ul class=\"nav\">";
  for (const char* n : {"Home", "Shop", "Sale", "Help"}) absl::StrAppend(&html, "<li><a href=\"/", n, "\">", n, "</a></li>");
  absl::StrAppend(&html, "</ul><h1>", title, "</h1><p>Some prose about the ", title, ", long enough to be prose.</p>");
  absl::StrAppend(&html, "<div class=\"description\"><ul class=\"features\">");
  for (const std::string& f : features) absl::StrAppend(&html, "<li><span>", f, "</span></li>");
  return html + "</ul></div><p>Footer</p></body></html>";
}

// A model learnt from product pages whose positives are the features.
inline v1::ListModel FeatureListModel() {
  std::vector<html::Page> pages;
  html::Parser parser;
  for (int i = 0; i < 6; ++i) {
    pages.push_back(parser.Parse(ProductPage(absl::StrCat("T", i), Words("f", 3 + i % 4)), "http://t.test/").value());
  }
  std::vector<lists::LabelledPage> labelled;
  for (size_t i = 0; i < pages.size(); ++i) {
    lists::LabelledPage l;
    l.page = &pages[i];
    l.positives = workflow::ValueElements(pages[i], Words("f", 6));
    l.name = absl::StrCat("train-", i);
    labelled.push_back(std::move(l));
  }
  lists::TrainOptions o;
  o.min_leaf = 1;
  o.pruning_alpha = 0;
  absl::StatusOr<v1::ListModel> model = lists::TrainListModel(labelled, o);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : v1::ListModel();
}

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_TESTING_PROPOSAL_PAGES_H_
