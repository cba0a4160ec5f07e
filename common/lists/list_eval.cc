#include "common/lists/list_eval.h"

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/html/page.h"
#include "common/lists/cart.h"
#include "common/lists/features.h"

namespace vertex::lists {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One problem, parsed, with its features and its rows in the training table.
struct Prepared {
  const ListProblem* problem = nullptr;
  html::Page page;
  PageFeatures features;
  std::vector<uint8_t> labels;
  // Element indexes of the positives, ascending.
  std::vector<size_t> positives;
  int32_t first_row = 0;

  explicit Prepared(html::Page p) : page(std::move(p)) {}
  bool in_class() const { return !problem->out_of_class; }
};

struct Context {
  std::vector<std::unique_ptr<Prepared>> pages;
  std::unique_ptr<CartData> data;
  const EvalOptions* options = nullptr;
};

absl::StatusOr<std::unique_ptr<Prepared>> Prepare(const ListProblem& problem, FeatureSet set) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(problem.html, problem.url);
  if (!page.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("problem ", problem.id, ": page: ", page.status().ToString()));
  }
  auto p = std::make_unique<Prepared>(*std::move(page));
  p->problem = &problem;
  absl::StatusOr<std::vector<html::Node>> positives = NodesOfXPaths(p->page, problem.positive_xpaths);
  if (!positives.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("problem ", problem.id, ": ", positives.status().message()));
  }
  p->features = ComputeFeatures(p->page, set);
  p->labels.assign(p->features.size(), 0);
  absl::flat_hash_set<const _xmlNode*> positive;
  for (const html::Node& n : *positives) positive.insert(n.raw());
  for (size_t i = 0; i < p->features.size(); ++i) p->labels[i] = positive.contains(p->features.elements[i].raw());
  for (size_t i = 0; i < p->labels.size(); ++i) {
    if (p->labels[i]) p->positives.push_back(i);
  }
  return p;
}

// The score of `model` on elements [from, end) of page `p`.
PageScore ScoreRange(const CartModel& model, const Prepared& p, size_t from) {
  std::vector<html::Node> predicted, expected;
  for (size_t i = from; i < p.features.size(); ++i) {
    if (model.Score(p.features, i) >= 0.5) predicted.push_back(p.features.elements[i]);
    if (p.labels[i]) expected.push_back(p.features.elements[i]);
  }
  return ScorePage(predicted, expected);
}

// Nothing predicted on page `p` (from element `from` on).
PageScore Nothing(const Prepared& p, size_t from) {
  std::vector<html::Node> expected;
  for (size_t i = from; i < p.features.size(); ++i) {
    if (p.labels[i]) expected.push_back(p.features.elements[i]);
  }
  return ScorePage({}, expected);
}

// A model from `rows`, or none when they hold no positive.
std::optional<CartModel> Train(const Context& c, const std::vector<int32_t>& rows) {
  if (rows.empty()) return std::nullopt;
  absl::StatusOr<v1::ListModel> model = TrainCart(*c.data, rows, c.options->train);
  if (!model.ok()) return std::nullopt;
  absl::StatusOr<CartModel> loaded = CartModel::Load(*model);
  if (!loaded.ok()) return std::nullopt;
  return *std::move(loaded);
}

// Each page tested with a model from the in-class pages `use(train, test)`
// admits (never the test page itself).
ProtocolResult HeldOut(const Context& c, const std::function<bool(const Prepared&, const Prepared&)>& use) {
  const Clock::time_point start = Clock::now();
  ProtocolResult r;
  r.ran = true;
  for (const auto& test : c.pages) {
    std::vector<int32_t> rows;
    for (const auto& train : c.pages) {
      if (train == test || !train->in_class() || !use(*train, *test)) continue;
      for (size_t i = 0; i < train->features.size(); ++i) rows.push_back(train->first_row + static_cast<int32_t>(i));
    }
    ProblemOutcome o;
    o.id = test->problem->id;
    o.domain = test->problem->domain;
    o.out_of_class = test->problem->out_of_class;
    std::optional<CartModel> model = Train(c, rows);
    ++r.trainings;
    o.trained = model.has_value();
    o.score = model ? ScoreRange(*model, *test, 0) : Nothing(*test, 0);
    r.outcomes.push_back(std::move(o));
  }
  r.seconds = Since(start);
  return r;
}

// Intra-page scores of page `p` for K = 1..max_inputs.
std::vector<PageScore> IntraPage(const Context& c, const Prepared& p, int* trainings) {
  std::vector<PageScore> scores;
  for (int k = 1; k <= c.options->max_inputs; ++k) {
    if (p.positives.empty()) {
      scores.push_back(Nothing(p, 0));
      continue;
    }
    if (static_cast<size_t>(k) > p.positives.size()) {
      // Every positive is labelled already: the user stopped at K = #positives.
      scores.push_back(scores.back());
      continue;
    }
    const size_t prefix = p.positives[k - 1] + 1;
    std::vector<int32_t> rows(prefix);
    for (size_t i = 0; i < prefix; ++i) rows[i] = p.first_row + static_cast<int32_t>(i);
    std::optional<CartModel> model = Train(c, rows);
    ++*trainings;
    scores.push_back(model ? ScoreRange(*model, p, prefix) : Nothing(p, prefix));
  }
  return scores;
}

std::string CurveKey(const Prepared& p) { return p.in_class() ? p.problem->domain : "(out-of-class)"; }

// Counts a problem at n inputs into its own curve and, in class, into the
// total ("").
void Count(std::map<std::string, Curve>* curves, const Prepared& p, int n, bool perfect, bool good, int max_inputs) {
  std::vector<std::string> keys{CurveKey(p)};
  if (p.in_class()) keys.push_back("");
  for (const std::string& k : keys) {
    Curve& curve = (*curves)[k];
    curve.perfect.resize(max_inputs, 0);
    curve.good.resize(max_inputs, 0);
    curve.perfect[n - 1] += perfect;
    curve.good[n - 1] += good;
  }
}

// The curves of intra-page learning and of the hybrid.
void Curves(const Context& c, ListEvalResult* r) {
  const int max = c.options->max_inputs;
  const double eps = c.options->epsilon;
  for (size_t i = 0; i < c.pages.size(); ++i) {
    const Prepared& p = *c.pages[i];
    const std::vector<PageScore>& s = r->intra_page_scores[i];
    bool perfect = false, good = false;
    for (int n = 1; n <= max; ++n) {
      perfect |= s[n - 1].perfect();
      good |= s[n - 1].good(eps);
      Count(&r->intra_page, p, n, perfect, good, max);
    }
    if (!r->hybrid_ran) continue;
    const PageScore& independent = r->leave_one_page_out.outcomes[i].score;
    perfect = independent.perfect();
    good = independent.good(eps);
    for (int n = 1; n <= max; ++n) {
      if (n >= 2) {
        perfect |= s[n - 2].perfect();
        good |= s[n - 2].good(eps);
      }
      Count(&r->hybrid, p, n, perfect, good, max);
    }
  }
}

}  // namespace

absl::StatusOr<ListEvalResult> EvaluateListFinder(const std::vector<ListProblem>& problems,
                                                  const EvalOptions& options) {
  ListEvalResult r;
  r.features = options.train.features;
  r.epsilon = options.epsilon;
  r.max_inputs = options.max_inputs;
  if (options.max_inputs < 1) return absl::InvalidArgumentError("list eval: max_inputs must be at least 1");
  Context c;
  c.options = &options;
  c.data = std::make_unique<CartData>(options.train.features);
  const Clock::time_point start = Clock::now();
  for (const ListProblem& problem : problems) {
    absl::StatusOr<std::unique_ptr<Prepared>> p = Prepare(problem, options.train.features);
    if (!p.ok()) return p.status();
    absl::StatusOr<int32_t> first =
        c.data->AddPage((*p)->features, (*p)->labels, (*p)->features.size(), static_cast<int32_t>(c.pages.size()));
    if (!first.ok()) return first.status();
    (*p)->first_row = *first;
    r.elements += (*p)->features.size();
    if (problem.out_of_class) {
      ++r.out_of_class;
    } else {
      ++r.pages[problem.domain];
    }
    c.pages.push_back(*std::move(p));
  }
  if (static_cast<int>(problems.size()) == r.out_of_class) {
    return absl::InvalidArgumentError("list eval: no in-class problem");
  }
  r.prepare_seconds = Since(start);

  if (options.leave_one_page_out) {
    r.leave_one_page_out = HeldOut(c, [](const Prepared&, const Prepared&) { return true; });
  }
  if (options.leave_one_domain_out) {
    r.leave_one_domain_out = HeldOut(
        c, [](const Prepared& train, const Prepared& test) { return train.problem->domain != test.problem->domain; });
  }
  if (options.intra_domain) {
    r.intra_domain = HeldOut(
        c, [](const Prepared& train, const Prepared& test) { return train.problem->domain == test.problem->domain; });
  }
  if (options.intra_page) {
    const Clock::time_point intra = Clock::now();
    for (const auto& p : c.pages) r.intra_page_scores.push_back(IntraPage(c, *p, &r.intra_page_trainings));
    r.intra_page_seconds = Since(intra);
    r.intra_page_ran = true;
    r.hybrid_ran = options.leave_one_page_out;
    Curves(c, &r);
  }
  return r;
}

namespace {

// The paper's figures (digest §2.3, Tables 1-2), by domain.
struct PaperRow {
  const char* domain;
  int pages;
  int cart[3][2];    // lodo, lopo, intra-domain: perfect, good
  int ripper[3][2];
};
constexpr PaperRow kPaper[] = {
    {"birds", 41, {{10, 21}, {12, 24}, {15, 25}}, {{13, 22}, {12, 23}, {13, 23}}},
    {"games", 25, {{6, 7}, {7, 8}, {7, 10}}, {{8, 9}, {10, 12}, {10, 11}}},
    {"movies", 9, {{1, 1}, {3, 5}, {8, 8}}, {{1, 3}, {3, 4}, {5, 6}}},
    {"news", 9, {{4, 4}, {4, 4}, {0, 0}}, {{2, 2}, {1, 2}, {0, 0}}},
    {"total", 84, {{21, 33}, {26, 41}, {30, 43}}, {{24, 36}, {26, 41}, {28, 40}}},
};

std::string Cell(const ProtocolResult& r, const std::string& domain, bool in_class, double eps, int total) {
  if (!r.ran) return "-";
  int perfect = 0, good = 0;
  for (const ProblemOutcome& o : r.outcomes) {
    if (o.out_of_class == in_class) continue;
    if (in_class && !domain.empty() && o.domain != domain) continue;
    perfect += o.score.perfect();
    good += o.score.good(eps);
  }
  if (total <= 0) return absl::StrCat(perfect, " / ", good);
  return absl::StrFormat("%d (%.0f%%) / %d (%.0f%%)", perfect, 100.0 * perfect / total, good, 100.0 * good / total);
}

void Tables(const ListEvalResult& r, std::string* out) {
  int in_class = 0;
  for (const auto& [d, n] : r.pages) in_class += n;
  absl::StrAppendFormat(out,
                        "Table 2 (CART, features \"%s\"): #perfect / #eps-good (eps = %.0f%%), ours [paper CART]\n",
                        FeatureSetName(r.features), 100 * r.epsilon);
  absl::StrAppendFormat(out, "%-16s %6s  %-46s %-46s %-46s\n", "domain", "#pages", "lv1-domain-out", "lv1-page-out",
                        "intra-domain lv1-page-out");
  auto row = [&](const std::string& name, const std::string& domain, int pages, int total) {
    std::string cells[3] = {Cell(r.leave_one_domain_out, domain, true, r.epsilon, total),
                            Cell(r.leave_one_page_out, domain, true, r.epsilon, total),
                            Cell(r.intra_domain, domain, true, r.epsilon, total)};
    const std::string paper_name = domain.empty() ? "total" : domain;
    for (const PaperRow& p : kPaper) {
      if (paper_name != p.domain) continue;
      for (int k = 0; k < 3; ++k) {
        if (total > 0) {
          absl::StrAppendFormat(&cells[k], " [%d (%.0f%%) / %d (%.0f%%)]", p.cart[k][0], 100.0 * p.cart[k][0] / p.pages,
                                p.cart[k][1], 100.0 * p.cart[k][1] / p.pages);
        } else {
          absl::StrAppendFormat(&cells[k], " [%d / %d of %d]", p.cart[k][0], p.cart[k][1], p.pages);
        }
      }
    }
    absl::StrAppendFormat(out, "%-16s %6d  %-46s %-46s %-46s\n", name, pages, cells[0], cells[1], cells[2]);
  };
  for (const auto& [domain, n] : r.pages) row(domain, domain, n, 0);
  row("total", "", in_class, in_class);
  if (r.out_of_class > 0) {
    absl::StrAppendFormat(out, "%-16s %6d  %-46s %-46s %-46s   (expected to fail)\n", "out-of-class", r.out_of_class,
                          Cell(r.leave_one_domain_out, "", false, r.epsilon, 0),
                          Cell(r.leave_one_page_out, "", false, r.epsilon, 0),
                          Cell(r.intra_domain, "", false, r.epsilon, 0));
  }
  absl::StrAppend(out,
                  "paper RIPPER (Table 1) totals: lodo 24 (29%) / 36 (43%), lopo 26 (31%) / 41 (49%), "
                  "intra-domain 28 (33%) / 40 (48%)\n");
  absl::StrAppendFormat(out, "time: prepare %.1fs; lopo %.1fs (%d trainings), lodo %.1fs, intra-domain %.1fs\n",
                        r.prepare_seconds, r.leave_one_page_out.seconds, r.leave_one_page_out.trainings,
                        r.leave_one_domain_out.seconds, r.intra_domain.seconds);
}

// The first n at which `counts` reaches `share` of `total`, or 0.
int Reaches(const std::vector<int>& counts, int total, double share) {
  for (size_t n = 0; n < counts.size(); ++n) {
    if (counts[n] >= share * total - 1e-9) return static_cast<int>(n + 1);
  }
  return 0;
}

void Figure(const ListEvalResult& r, std::string* out) {
  if (!r.intra_page_ran) return;
  int total = 0;
  for (const auto& [d, n] : r.pages) total += n;
  const Curve empty{std::vector<int>(r.max_inputs, 0), std::vector<int>(r.max_inputs, 0)};
  auto get = [&](const std::map<std::string, Curve>& m, const std::string& k) -> const Curve& {
    auto it = m.find(k);
    return it == m.end() ? empty : it->second;
  };
  const Curve& intra = get(r.intra_page, "");
  const Curve& hybrid = get(r.hybrid, "");
  absl::StrAppendFormat(out,
                        "\nFig. 5: in-class problems (of %d) meeting the goal with <= n user inputs "
                        "(intra-page: n labelled positives; hybrid: accept + n-1)\n",
                        total);
  absl::StrAppendFormat(out, "%6s  %-22s %-22s %-22s %-22s\n", "inputs", "intra-page perfect", "intra-page eps-good",
                        "hybrid perfect", "hybrid eps-good");
  auto pct = [&](int v) { return absl::StrFormat("%d (%.0f%%)", v, total ? 100.0 * v / total : 0.0); };
  for (int n = 1; n <= r.max_inputs; ++n) {
    absl::StrAppendFormat(out, "%6d  %-22s %-22s %-22s %-22s\n", n, pct(intra.perfect[n - 1]), pct(intra.good[n - 1]),
                          r.hybrid_ran ? pct(hybrid.perfect[n - 1]) : "-", r.hybrid_ran ? pct(hybrid.good[n - 1]) : "-");
  }
  absl::StrAppendFormat(out, "per domain at 6 inputs (hybrid perfect / eps-good; intra-page perfect / eps-good):\n");
  const int six = std::min(6, r.max_inputs) - 1;
  for (const auto& [domain, n] : r.pages) {
    const Curve& h = get(r.hybrid, domain);
    const Curve& i = get(r.intra_page, domain);
    absl::StrAppendFormat(out, "  %-14s %3d pages: hybrid %d / %d; intra-page %d / %d\n", domain, n,
                          r.hybrid_ran ? h.perfect[six] : 0, r.hybrid_ran ? h.good[six] : 0, i.perfect[six],
                          i.good[six]);
  }
  if (r.out_of_class > 0) {
    const Curve& h = get(r.hybrid, "(out-of-class)");
    const Curve& i = get(r.intra_page, "(out-of-class)");
    absl::StrAppendFormat(out, "  %-14s %3d pages: hybrid %d / %d; intra-page %d / %d (at %d inputs: %d / %d)\n",
                          "out-of-class", r.out_of_class, r.hybrid_ran ? h.perfect[six] : 0,
                          r.hybrid_ran ? h.good[six] : 0, i.perfect[six], i.good[six], r.max_inputs,
                          i.perfect[r.max_inputs - 1], i.good[r.max_inputs - 1]);
  }
  auto when = [](int n) { return n == 0 ? std::string("never") : absl::StrCat(n, " inputs"); };
  absl::StrAppendFormat(out,
                        "ours: hybrid 60%% perfect after %s, 80%% eps-good after %s; intra-page 60%% perfect after "
                        "%s, 80%% eps-good after %s\n",
                        r.hybrid_ran ? when(Reaches(hybrid.perfect, total, 0.6)) : "-",
                        r.hybrid_ran ? when(Reaches(hybrid.good, total, 0.8)) : "-",
                        when(Reaches(intra.perfect, total, 0.6)), when(Reaches(intra.good, total, 0.8)));
  absl::StrAppend(out,
                  "paper: hybrid 60% perfect / 80% eps-good after 6 inputs; intra-page needs 15-20 inputs for "
                  "perfect, 12 for eps-good\n");
  absl::StrAppendFormat(out, "time: intra-page %.1fs (%d trainings)\n", r.intra_page_seconds,
                        r.intra_page_trainings);
}

}  // namespace

std::string RenderListEval(const ListEvalResult& r) {
  std::string out;
  int in_class = 0;
  for (const auto& [d, n] : r.pages) in_class += n;
  absl::StrAppendFormat(&out, "%d problems (%d in class, %d out of class), %d elements\n", in_class + r.out_of_class,
                        in_class, r.out_of_class, r.elements);
  Tables(r, &out);
  Figure(r, &out);
  return out;
}

}  // namespace vertex::lists
