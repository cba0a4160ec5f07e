// A small product site whose specifications sit in a <table> without
// <tbody> (Gumbo inserts one, libxml2's HTML parser does not), with its
// ground truth and schema, for the tests of a site's page builder
// (tests/workflow/site_builder_test.cc, tests/services).
//
// Thread-safety: pure functions.
#ifndef VERTEX_TESTS_TESTING_TABLE_SITE_H_
#define VERTEX_TESTS_TESTING_TABLE_SITE_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/workflow/api_editor.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::test_support {

inline constexpr int kTablePages = 8;

// Page i of a product site whose specifications sit in a table without
// <tbody>: Gumbo inserts one, libxml2's HTML parser does not.
inline std::string TablePage(int i) {
  return absl::StrCat(
      "<html><head><title>Item ", i, "</title></head><body>\n<div id=\"main\"><h1 class=\"name\">Widget model ", i,
      "</h1>\n<table id=\"specs\">\n<tr><td>Maker", i * 7 % 5, " Works ", i, "</td><td>", 3 + i, " kg</td></tr>\n",
      "<tr><td>", 10 + i, " cm</td><td>", 20 + i, " cm</td></tr>\n</table>\n<p>Ships in ", 1 + i % 3,
      " days.</p></div></body></html>");
}

inline std::string TableUrl(int i) { return absl::StrCat("http://tables.example/item/", 100 + i, ".html"); }

struct TableSite {
  std::vector<workflow::ClientPage> pages;
  eval::GroundTruth truth;
  v1::Schema schema_proto;
};

inline TableSite MakeTableSite() {
  TableSite site;
  site.truth.vertical = "spec";
  site.truth.site = "tables";
  site.truth.attributes = {"maker", "name"};
  for (int i = 0; i < kTablePages; ++i) {
    const std::string id = absl::StrCat("p", i);
    site.pages.push_back({id + ".htm", TableUrl(i), TablePage(i)});
    site.truth.pages[id]["name"] = {absl::StrCat("Widget model ", i)};
    site.truth.pages[id]["maker"] = {absl::StrCat("Maker", i * 7 % 5, " Works ", i)};
  }
  site.schema_proto.set_vertical("spec");
  for (const char* name : {"name", "maker"}) {
    v1::AttributeSchema* a = site.schema_proto.add_attributes();
    a->set_name(name);
    a->set_mandatory(true);
  }
  return site;
}

// Whether the libxml2 builder is implemented (branch `builder`); the tests
// that need it skip with a message otherwise.
inline bool Libxml2Available() {
  html::ParseOptions o;
  o.builder = html::PageBuilder::kLibxml2;
  html::Parser parser(o);
  return parser.Parse("<p>x</p>", "http://x.example/").ok();
}

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_TESTING_TABLE_SITE_H_
