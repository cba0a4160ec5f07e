// The list finder's proposals (list_proposals.h), the editor's answers
// (proposal_editor.h) and GetAnnotationTasks filling them in.
#include "common/workflow/list_proposals.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/lists/list_finder.h"
#include "common/store/rule_store.h"
#include "common/workflow/annotations.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/proposal_editor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/proposal_pages.h"

namespace vertex::workflow {
namespace {

using test_support::ProductPage;
using test_support::Words;

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kUrl[] = "http://shop.test/p/1.html";

html::Page Parse(const std::string& html, const std::string& url = kUrl) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, url);
  EXPECT_TRUE(page.ok()) << page.status();
  return *std::move(page);
}

// A suggestion of the li items of `ul` on `page` (as SuggestLists gives).
v1::ListSuggestion SuggestionOf(const html::Page& page, const std::string& ul_class, double score) {
  absl::StatusOr<std::vector<html::Node>> items =
      lists::NodesOfXPaths(page, {absl::StrCat("//ul[@class='", ul_class, "']")});
  EXPECT_TRUE(items.ok()) << items.status();
  v1::ListSuggestion s;
  for (html::Node li = (*items)[0].first_element_child(); li; li = li.next_element_sibling()) {
    s.add_node_xpaths(lists::AbsoluteXPath(li));
    s.add_texts(li.Text());
    if (html::Node a = li.first_element_child(); a && a.tag() == "a") {
      s.set_kind(v1::ListSuggestion::HOTLIST);
      s.add_urls(a.attribute("href"));
    }
  }
  s.set_score(score);
  return s;
}

schema::CompiledSchema Schema(const std::string& extra = "") {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(
      absl::StrCat(R"({"vertical": "product", "attributes": [
        {"name": "title", "mandatory": true},
        {"name": "features", "multi_valued": true},
        {"name": "tags", "multi_valued": true})",
                   extra, "]}"),
      "test schema");
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

TEST(ValueElementsTest, OutermostElementsWithTheWholeText) {
  const html::Page page = Parse(ProductPage("Lamp", {"Dimmable", "Brass"}));
  const std::vector<html::Node> found = ValueElements(page, {"dimmable", "Brass", "Nowhere"});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].tag(), "li");  // not its span: the li has the same text
  EXPECT_EQ(ItemPath(found[0]), "/html/body/div.description/ul.features/li");
  EXPECT_EQ(found[1].Text(), "Brass");
}

TEST(AssignSuggestionsTest, EvidenceOfStructureBeatsRank) {
  // Annotated on another page of the cluster: features are in ul.features.
  AttributeEvidence features;
  features.annotated_pages = 1;
  AddValueEvidence(Parse(ProductPage("Desk", {"Oak", "Drawers"})), {"Oak", "Drawers"}, &features);
  const html::Page page = Parse(ProductPage("Lamp", Words("feature", 3)));
  const std::vector<v1::ListSuggestion> suggestions = {SuggestionOf(page, "nav", 0.9),
                                                       SuggestionOf(page, "features", 0.7)};
  const std::vector<v1::ProposedList> out =
      AssignSuggestions(Schema(), suggestions, page, {{"features", features}, {"tags", features}}, 7);
  // One suggestion per attribute: "tags" has the same evidence but the
  // match is taken; the nav list matches neither.
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].attribute(), "features");
  EXPECT_THAT(out[0].values(), ElementsAreArray(Words("feature", 3)));
  EXPECT_EQ(out[0].xpaths_size(), 3);
  EXPECT_THAT(out[0].urls(), IsEmpty());
  EXPECT_EQ(out[0].model_version(), 7);
  EXPECT_THAT(out[0].reason(), HasSubstr("ul.features/li"));
  EXPECT_THAT(out[0].reason(), HasSubstr("1 annotated page"));
}

TEST(AssignSuggestionsTest, ItemsInsideTheAnnotatedElementsShareTheirStructure) {
  AttributeEvidence features;
  features.annotated_pages = 1;
  AddValueEvidence(Parse(ProductPage("Desk", {"Oak", "Drawers"})), {"Oak", "Drawers"}, &features);
  const html::Page page = Parse(ProductPage("Lamp", Words("feature", 3)));
  // The list finder's items are the spans inside the li the evidence holds.
  v1::ListSuggestion spans = SuggestionOf(page, "features", 0.7);
  for (std::string& x : *spans.mutable_node_xpaths()) x += "/span[1]";
  const std::vector<v1::ProposedList> out =
      AssignSuggestions(Schema(), {SuggestionOf(page, "nav", 0.9), spans}, page, {{"features", features}}, 1);
  ASSERT_GE(out.size(), 1u);
  EXPECT_EQ(out[0].attribute(), "features");
  EXPECT_THAT(out[0].values(), ElementsAreArray(Words("feature", 3)));
  EXPECT_THAT(out[0].reason(), HasSubstr("100% of its items sit where features's values are"));
}

TEST(AssignSuggestionsTest, RuleValuesOnThePageMatchToo) {
  const html::Page page = Parse(ProductPage("Lamp", Words("feature", 4)));
  AttributeEvidence features;
  features.rule_values = true;
  for (const std::string& v : Words("FEATURE", 3)) features.page_values.insert(html::FoldText(v));
  const std::vector<v1::ProposedList> out = AssignSuggestions(
      Schema(), {SuggestionOf(page, "nav", 0.9), SuggestionOf(page, "features", 0.7)}, page, {{"features", features}}, 1);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].attribute(), "features");
  EXPECT_THAT(out[0].reason(), HasSubstr("75% of its values are the ones the current rule extracts"));
  // "tags" has no evidence: the best list left, to be confirmed.
  EXPECT_EQ(out[1].attribute(), "tags");
  EXPECT_THAT(out[1].values(), ElementsAre("Home", "Shop", "Sale", "Help"));
  EXPECT_THAT(out[1].urls(), ElementsAre("/Home", "/Shop", "/Sale", "/Help"));
  EXPECT_THAT(out[1].reason(), HasSubstr("confirm it is tags"));
}

TEST(AssignSuggestionsTest, KnownAttributeWithNoMatchGetsNothing) {
  const html::Page page = Parse(ProductPage("Lamp", Words("feature", 3)));
  AttributeEvidence elsewhere;
  elsewhere.annotated_pages = 2;
  elsewhere.item_paths.insert("/html/body/div.specs/ol/li");
  const std::vector<v1::ProposedList> out = AssignSuggestions(
      Schema(), {SuggestionOf(page, "nav", 0.9)}, page, {{"features", elsewhere}, {"tags", elsewhere}}, 1);
  EXPECT_THAT(out, IsEmpty());
}

TEST(AssignSuggestionsTest, NoEvidenceMarkupNamingTheAttributeThenBestUnclaimedNeverSingleValued) {
  const html::Page page = Parse(ProductPage("Lamp", Words("feature", 3)));
  const std::vector<v1::ListSuggestion> suggestions = {SuggestionOf(page, "nav", 0.9),
                                                       SuggestionOf(page, "features", 0.7)};
  std::vector<v1::ProposedList> out = AssignSuggestions(Schema(), suggestions, page, {}, 1);
  ASSERT_EQ(out.size(), 2u);
  // ul.features names "features" though the menu ranks first.
  EXPECT_EQ(out[0].attribute(), "features");
  EXPECT_EQ(out[0].values(0), "feature a");
  EXPECT_THAT(out[0].reason(), HasSubstr("markup names it"));
  EXPECT_EQ(out[1].attribute(), "tags");
  EXPECT_EQ(out[1].values(0), "Home");
  EXPECT_THAT(out[1].reason(), HasSubstr("no other attribute claims"));
  // Without a name in the markup: the best unclaimed, in schema order.
  const html::Page plain = Parse(ProductPage("Lamp", Words("feature", 3)), kUrl);
  const std::vector<v1::ProposedList> ordered =
      AssignSuggestions(Schema(), {SuggestionOf(plain, "nav", 0.9)}, plain, {}, 1);
  ASSERT_EQ(ordered.size(), 1u);
  EXPECT_EQ(ordered[0].attribute(), "features");
  EXPECT_EQ(ordered[0].values(0), "Home");
  // The cap.
  ProposalOptions one;
  one.max_per_task = 1;
  EXPECT_EQ(AssignSuggestions(Schema(), suggestions, page, {}, 1, one).size(), 1u);
}

TEST(AssignSuggestionsTest, ValueTypeMustFit) {
  const html::Page page = Parse(ProductPage("Lamp", {"$10.00", "$12.50", "$9.99"}));
  const schema::CompiledSchema schema = Schema(R"(, {"name": "prices", "type": "price", "multi_valued": true})");
  // features and tags are known elsewhere: only prices takes unclaimed lists.
  AttributeEvidence elsewhere;
  elsewhere.annotated_pages = 1;
  elsewhere.item_paths.insert("/html/body/ol/li");
  const std::vector<v1::ProposedList> out =
      AssignSuggestions(schema, {SuggestionOf(page, "nav", 0.9), SuggestionOf(page, "features", 0.7)}, page,
                        {{"features", elsewhere}, {"tags", elsewhere}}, 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].attribute(), "prices");
  EXPECT_EQ(out[0].values(0), "$10.00");  // not the menu: its words are no prices
}

TEST(AssignSuggestionsTest, SuggestionsThatDoNotResolveAndRecordLevelSchemasGiveNothing) {
  const html::Page page = Parse(ProductPage("Lamp", Words("feature", 3)));
  v1::ListSuggestion bad = SuggestionOf(page, "features", 0.7);
  bad.set_node_xpaths(0, "/html[1]/body[1]/table[9]");
  EXPECT_THAT(AssignSuggestions(Schema(), {bad}, page, {}, 1), IsEmpty());
  absl::StatusOr<schema::CompiledSchema> records = schema::CompiledSchema::FromJson(
      R"({"vertical": "x", "record_level": true, "attributes": [
          {"name": "name", "pivot": true, "mandatory": true}, {"name": "tags", "multi_valued": true}]})",
      "records");
  ASSERT_TRUE(records.ok()) << records.status();
  EXPECT_THAT(AssignSuggestions(*records, {SuggestionOf(page, "features", 0.7)}, page, {}, 1), IsEmpty());
}

TEST(ProposalAnnotationLinesTest, ParseAsAnnotations) {
  v1::GetAnnotationTasksResponse tasks;
  v1::AnnotationTask* t = tasks.add_tasks();
  t->set_cluster_id("c1");
  t->set_url(kUrl);
  t->set_file("pages/0001.htm");
  t->set_rank(1);
  v1::ProposedList* p = t->add_proposed();
  p->set_attribute("tags");
  p->add_values("Home");
  p->add_values("Shop");
  p->add_urls("http://shop.test/Home");
  p->add_urls("http://shop.test/Shop");
  p->set_reason("because");
  tasks.add_tasks()->set_url("http://shop.test/p/2.html");  // no proposal: no line
  const std::string lines = ProposalAnnotationLines(tasks);
  EXPECT_THAT(lines, HasSubstr("# cluster c1, task 1, pages/0001.htm: because"));
  EXPECT_THAT(lines, HasSubstr("links: http://shop.test/Home http://shop.test/Shop"));
  absl::StatusOr<std::vector<SourcedAnnotation>> parsed = ParseAnnotations(lines, "proposals.jsonl");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].annotation.file(), "pages/0001.htm");
  EXPECT_EQ((*parsed)[0].annotation.attribute(), "tags");
  EXPECT_THAT((*parsed)[0].annotation.values(), ElementsAre("Home", "Shop"));
  EXPECT_FALSE((*parsed)[0].annotation.partial());
}

TEST(AnswerProposalTest, Table) {
  struct Case {
    std::vector<std::string> truth, proposal;
    bool has_proposal;
    ProposalAnswer answer;
    size_t inputs;
    std::vector<std::string> values;
  };
  const std::vector<Case> cases = {
      {{"a", "b", "c"}, {}, false, ProposalAnswer::kLabel, 3, {"a", "b", "c"}},
      {{"a", "b", "c"}, {"A", " b", "c"}, true, ProposalAnswer::kAccept, 1, {"a", "b", "c"}},
      {{"a", "b", "c", "d"}, {"a", "b", "c", "d", "x"}, true, ProposalAnswer::kTrim, 2, {"a", "b", "c", "d"}},
      {{"a", "b"}, {"a", "b", "x", "y"}, true, ProposalAnswer::kLabel, 2, {"a", "b"}},
      {{"a", "b", "c"}, {"home", "a", "b", "c"}, true, ProposalAnswer::kTrim, 2, {"a", "b", "c"}},
      {{"a", "b", "c"}, {"home", "a", "c", "b"}, true, ProposalAnswer::kLabel, 3, {"a", "b", "c"}},
      {{"a", "b", "c", "d", "e"}, {"a"}, true, ProposalAnswer::kPartial, 1, {"a"}},
      {{"a", "b", "c", "d"}, {"a", "b", "x"}, true, ProposalAnswer::kPartial, 2, {"a", "b"}},
      {{"a", "b", "c", "d", "e"}, {"a", "x", "c"}, true, ProposalAnswer::kLabel, 5, {"a", "b", "c", "d", "e"}},
      {{"a", "b"}, {"x", "y"}, true, ProposalAnswer::kLabel, 2, {"a", "b"}},
      {{}, {"x", "y"}, true, ProposalAnswer::kLabel, 1, {}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    v1::ProposedList p;
    for (const std::string& v : c.proposal) p.add_values(v);
    const EditorAnswer a = AnswerProposal(c.truth, c.has_proposal ? &p : nullptr);
    SCOPED_TRACE(absl::StrCat("case ", i));
    EXPECT_STREQ(ProposalAnswerName(a.answer), ProposalAnswerName(c.answer));
    EXPECT_EQ(a.inputs, c.inputs);
    EXPECT_EQ(a.labelling_inputs, std::max<size_t>(c.truth.size(), 1));
    EXPECT_EQ(a.values, c.values);
    EXPECT_EQ(a.partial, c.answer == ProposalAnswer::kPartial);
  }
  AttributeInputs sum;
  v1::ProposedList right;
  for (const char* v : {"a", "b", "c"}) right.add_values(v);
  sum.Add(AnswerProposal({"a", "b", "c"}, &right), true);
  sum.Add(AnswerProposal({"a", "b", "c"}, nullptr), false);
  EXPECT_EQ(sum.inputs, 4u);
  EXPECT_EQ(sum.labelling_inputs, 6u);
  EXPECT_EQ(sum.proposals, 1u);
  EXPECT_EQ(sum.accepted, 1u);
  EXPECT_EQ(sum.labelled, 1u);
}

// GetAnnotationTasks over an in-memory store.
class EngineProposalsTest : public ::testing::Test {
 protected:
  EngineProposalsTest() : store_(store::NewInMemoryStore()), engine_(store_.get(), LearningEngineOptions{}) {}

  void SetUp() override {
    v1::RegisterSiteRequest r;
    r.set_site("shop");
    *r.mutable_schema() = Schema().proto();
    ASSERT_TRUE(engine_.RegisterSite(r).ok());
    v1::AddSamplePagesRequest add;
    add.set_site("shop");
    for (int i = 0; i < 12; ++i) {
      v1::Page* p = add.add_pages();
      p->set_url(absl::StrCat("http://shop.test/p/", i, ".html"));
      p->set_html(ProductPage(absl::StrCat("Product ", i), Words(absl::StrCat("feature ", i), 3 + i % 3)));
    }
    absl::StatusOr<v1::AddSamplePagesResponse> added = engine_.AddSamplePages(add);
    ASSERT_TRUE(added.ok()) << added.status();
  }

  v1::ListModel FeatureModel() { return test_support::FeatureListModel(); }

  v1::GetAnnotationTasksResponse Tasks() {
    v1::GetAnnotationTasksRequest r;
    r.set_site("shop");
    absl::StatusOr<v1::GetAnnotationTasksResponse> tasks = engine_.GetAnnotationTasks(r);
    EXPECT_TRUE(tasks.ok()) << tasks.status();
    EXPECT_GT(tasks->tasks_size(), 0);
    return *tasks;
  }

  size_t Proposals(const v1::GetAnnotationTasksResponse& tasks) {
    size_t n = 0;
    for (const v1::AnnotationTask& t : tasks.tasks()) n += static_cast<size_t>(t.proposed_size());
    return n;
  }

  std::unique_ptr<store::RuleStore> store_;
  LearningEngine engine_;
};

TEST_F(EngineProposalsTest, NoModelNoProposals) { EXPECT_EQ(Proposals(Tasks()), 0u); }

TEST_F(EngineProposalsTest, ModelProposesTheFeatureListForAMultiValuedAttribute) {
  ASSERT_TRUE(store_->PutListModel(FeatureModel()).ok());
  const v1::GetAnnotationTasksResponse tasks = Tasks();
  for (const v1::AnnotationTask& t : tasks.tasks()) {
    ASSERT_GE(t.proposed_size(), 1) << t.url();
    // No annotation yet: the first multi-valued attribute gets the best list.
    const v1::ProposedList& p = t.proposed(0);
    EXPECT_EQ(p.attribute(), "features");
    EXPECT_EQ(p.model_version(), 1);
    ASSERT_GE(p.values_size(), 3);
    EXPECT_THAT(p.values(0), HasSubstr("feature"));
    EXPECT_THAT(p.reason(), HasSubstr("confirm"));
    for (const v1::ProposedList& q : t.proposed()) EXPECT_NE(q.attribute(), "title");
  }
  ASSERT_EQ(tasks.clusters_size(), 1);
  EXPECT_EQ(tasks.clusters(0).next().proposed_size(), tasks.tasks(0).proposed_size());
}

TEST_F(EngineProposalsTest, AfterLearningTheAnnotatedStructureIsProposed) {
  ASSERT_TRUE(store_->PutListModel(FeatureModel()).ok());
  const v1::AnnotationTask first = Tasks().tasks(0);
  v1::LearnRequest learn;
  learn.set_site("shop");
  learn.set_cluster_id(first.cluster_id());
  for (const char* attribute : {"title", "features", "tags"}) {
    v1::Annotation* a = learn.add_annotations();
    a->set_url(first.url());
    a->set_attribute(attribute);
  }
  const std::string n = first.url().substr(first.url().rfind('/') + 1, first.url().find(".html") - first.url().rfind('/') - 1);
  learn.mutable_annotations(0)->add_values("Product " + n);
  const int count = 3 + std::stoi(n) % 3;
  for (const std::string& v : Words("feature " + n, count)) learn.mutable_annotations(1)->add_values(v);
  learn.mutable_annotations(2)->set_absent(true);
  absl::StatusOr<v1::LearnResponse> learnt = engine_.Learn(learn);
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  // Tasks of the other pages (the loop may be done with the cluster).
  v1::GetAnnotationTasksResponse tasks;
  for (int i = 0; i < 12; ++i) {
    const std::string url = absl::StrCat("http://shop.test/p/", i, ".html");
    if (url == first.url()) continue;
    v1::AnnotationTask* t = tasks.add_tasks();
    t->set_cluster_id(first.cluster_id());
    t->set_url(url);
  }
  ASSERT_TRUE(AddListProposals(*store_, "shop", {}, &tasks).ok());
  for (const v1::AnnotationTask& t : tasks.tasks()) {
    // The model finds one list (the features; it learnt the menu is none):
    // features claims it by structure, tags (annotated absent) gets none.
    ASSERT_EQ(t.proposed_size(), 1) << t.url();
    const v1::ProposedList& p = t.proposed(0);
    EXPECT_EQ(p.attribute(), "features");
    EXPECT_THAT(p.values(0), HasSubstr("feature"));
    EXPECT_THAT(p.reason(), HasSubstr("ul.features/li"));
  }
}

TEST_F(EngineProposalsTest, AModelThatDoesNotLoadGivesNoProposalAndNoError) {
  v1::ListModel bad = FeatureModel();
  bad.set_feature_names(0, "no such feature");
  ASSERT_TRUE(store_->PutListModel(bad).ok());
  EXPECT_EQ(Proposals(Tasks()), 0u);
}

TEST_F(EngineProposalsTest, APageWithoutListsGivesNoProposal) {
  ASSERT_TRUE(store_->PutListModel(FeatureModel()).ok());
  v1::AddSamplePagesRequest add;
  add.set_site("shop");
  for (int i = 0; i < 6; ++i) {
    v1::Page* p = add.add_pages();
    p->set_url(absl::StrCat("http://shop.test/about/", i, ".html"));
    p->set_html(absl::StrCat("<html><body><div><p>Nothing but prose ", i, ", plain prose.</p></div></body></html>"));
  }
  ASSERT_TRUE(engine_.AddSamplePages(add).ok());
  const v1::GetAnnotationTasksResponse tasks = Tasks();
  for (const v1::AnnotationTask& t : tasks.tasks()) {
    if (t.url().find("/about/") != std::string::npos) {
      EXPECT_EQ(t.proposed_size(), 0) << t.url();
    }
  }
}

}  // namespace
}  // namespace vertex::workflow
