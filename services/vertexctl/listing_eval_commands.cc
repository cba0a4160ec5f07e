// vertexctl eval-listings: AMBER and the record-level rules learnt from it,
// scored on generated result-list sites (workflow/listing_eval.h).
#include <cstdio>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/demo/listing_site.h"
#include "common/util/status_macros.h"
#include "common/annotate/gazetteer_learner.h"
#include "common/html/text.h"
#include "common/workflow/gazetteer_rounds.h"
#include "common/workflow/listing_eval.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> EvalListingsFlags() {
  return {{"domain", "NAME", "real_estate, used_cars, or both (default both)"},
          {"sites", "N", "generated sites per domain, seeds 1..N, each with its own template (default 7)"},
          {"pages", "N", "pages per site (default 30)"},
          {"seed", "S", "first site seed (default 1)"},
          {"layout", "L", "every site in record layout L (0-6: li, div, tr, dt+dd, tr+tr, h3+div+div, "
                          "h3+div+div+p); default: site k has layout k mod 7"},
          {"coverage", "F", "fraction of the site's place names (and car makes/models) the gazetteers hold "
                            "(default 1)"},
          {"grid", "", "stress: every main list as a grid of 3 records per row"},
          {"no-rule", "", "score AMBER only (no rule learnt)"},
          {"learn-pages", "N", "pages AMBER analyses to learn the rule (default 10)"},
          {"verbose", "", "print each site's rule and the learner's notes"},
          {"gazetteer-rounds", "F",
           "instead: AMBER's gazetteer learning (Alg. 5) from a seed of fraction F of the place names, over every "
           "page of the sites, as the paper's Tables 1-2 (LE, CE, PE, RE, LL, CL, F1 per round)"},
          {"rounds", "N", "with --gazetteer-rounds: rounds at most (default 6)"},
          {"help", "", "show this help"}};
}

constexpr char kEvalListingsUsage[] =
    "usage: vertexctl eval-listings [--domain real_estate|used_cars|both] [flags]\n"
    "\n"
    "Generates result-list sites (3-50 records per page, one or two data areas, records of 1-4\n"
    "sibling elements, optional attributes, ads, struck-through prices, refinement menus, towns\n"
    "in footers...; `vertexctl gen-demo --kind listings` writes them) and scores, against their\n"
    "ground truth, (1) AMBER on every page, with no rule and no label, and (2) the record-level\n"
    "rule learnt from AMBER's analysis of the first --learn-pages pages, applied to every page.\n"
    "Prints per site and in total the precision and recall of data areas, records and\n"
    "attributes, perfect records, per-attribute figures, and the time per page of the parse,\n"
    "of AMBER and of the rule (one thread, same run). Offline; writes nothing.\n"
    "\n"
    "flags:\n";

std::string Pr(const eval::Counts& c) { return absl::StrFormat("%.4f/%.4f", c.precision(), c.recall()); }

// The paper's section 6.4 experiment on generated real-estate sites: the
// location gazetteer grown from a seed over every page of the sites.
absl::Status GazetteerRounds(const ParsedArgs& a, double fraction, int64_t sites, int64_t pages, int64_t seed) {
  const demo::ListingDomain d = demo::ListingDomain::kRealEstate;
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, workflow::ListingSchema(d));
  const int location = schema.Find("location");
  std::deque<html::Page> parsed;
  std::vector<eval::ListTruthPage> truths;
  html::Parser parser;
  for (int64_t k = 0; k < sites; ++k) {
    demo::ListingSiteOptions o;
    o.seed = static_cast<uint64_t>(seed + k);
    o.domain = d;
    o.pages = static_cast<int>(pages);
    o.layout = static_cast<int>((seed + k) % demo::kRecordLayouts);
    VERTEX_ASSIGN_OR_RETURN(demo::ListingSite site, demo::GenerateListingSite(o));
    for (const demo::ListingPage& p : site.pages) {
      VERTEX_ASSIGN_OR_RETURN(html::Page page, parser.Parse(p.html, p.url));
      parsed.push_back(std::move(page));
      truths.push_back(p.truth);
    }
  }
  workflow::GazetteerTruth truth;
  std::vector<const html::Page*> page_ptrs;
  for (size_t i = 0; i < parsed.size(); ++i) {
    page_ptrs.push_back(&parsed[i]);
    truth.pages.push_back(&truths[i]);
  }
  for (const std::string& t : demo::ListingPlaceNames()) truth.clean_terms.insert(html::FoldText(t));
  annotate::GazetteerLearner learner(location);
  annotate::Gazetteer seed_gazetteer;
  for (const std::string& t : demo::GazetteerSample(demo::ListingPlaceNames(), fraction, static_cast<uint64_t>(seed))) {
    seed_gazetteer.Add(t);
  }
  learner.Seed(seed_gazetteer);
  workflow::GazetteerRoundsOptions options;
  VERTEX_ASSIGN_OR_RETURN(int64_t rounds, a.Int("rounds", 6, 1, 50));
  options.max_rounds = static_cast<size_t>(rounds);
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::GazetteerRound> result,
                          workflow::LearnGazetteerRounds(schema, page_ptrs, {}, learner, options, &truth));
  std::printf("Gazetteer learning (AMBER Alg. 5), location, seed %zu of %zu place names (%.0f%%), %zu pages of %lld "
              "sites\n",
              seed_gazetteer.size(), demo::ListingPlaceNames().size(), 100 * fraction, parsed.size(),
              static_cast<long long>(sites));
  std::printf("%5s %7s %7s %8s %8s %6s %6s %8s %8s\n", "round", "LE", "CE", "PE", "RE", "LL", "CL", "F1", "size");
  for (const workflow::GazetteerRound& r : result) {
    const double f1 = r.precision + r.recall > 0 ? 2 * r.precision * r.recall / (r.precision + r.recall) : 0;
    std::printf("%5zu %7zu %7zu %7.2f%% %7.2f%% %6zu %6zu %7.2f%% %8zu\n", r.round, r.typed, r.correct,
                100 * r.precision, 100 * r.recall, r.learnt, r.learnt_correct, 100 * f1, r.gazetteer_size);
  }
  return absl::OkStatus();
}

absl::Status EvalListings(const ParsedArgs& a) {
  if (!a.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + a.positional[0]);
  std::vector<demo::ListingDomain> domains;
  const std::string domain = a.String("domain", "both");
  if (domain == "both") {
    domains = {demo::ListingDomain::kRealEstate, demo::ListingDomain::kUsedCars};
  } else {
    VERTEX_ASSIGN_OR_RETURN(demo::ListingDomain d, demo::ParseListingDomain(domain));
    domains = {d};
  }
  VERTEX_ASSIGN_OR_RETURN(int64_t sites, a.Int("sites", 7, 1, 1000));
  VERTEX_ASSIGN_OR_RETURN(int64_t pages, a.Int("pages", 30, 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, int64_t{1} << 40));
  VERTEX_ASSIGN_OR_RETURN(int64_t layout, a.Int("layout", -1, -1, demo::kRecordLayouts - 1));
  VERTEX_ASSIGN_OR_RETURN(double coverage, a.Double("coverage", 1.0, 0, 1));
  VERTEX_ASSIGN_OR_RETURN(int64_t learn_pages, a.Int("learn-pages", 10, 1, 1000));
  if (a.Has("gazetteer-rounds")) {
    VERTEX_ASSIGN_OR_RETURN(double fraction, a.Double("gazetteer-rounds", 0.2, 0, 1));
    return GazetteerRounds(a, fraction, sites, pages, seed);
  }
  workflow::ListingEvalOptions options;
  options.rule = !a.Has("no-rule");
  options.learn_pages = static_cast<size_t>(learn_pages);
  for (demo::ListingDomain d : domains) {
    VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, workflow::ListingSchema(d));
    eval::ListScores amber_total, rule_total;
    double parse = 0, amber = 0, rule = 0;
    size_t total_pages = 0, rules_failed = 0;
    std::printf("%s, %lld sites x %lld pages, gazetteer coverage %.0f%%\n", demo::ListingDomainName(d).c_str(),
                static_cast<long long>(sites), static_cast<long long>(pages), 100 * coverage);
    std::printf("%-5s %-14s %-7s | AMBER areas / records / attributes (P/R)      perfect | "
                "rule records / attributes (P/R)   perfect\n",
                "site", "layout", "rec/pg");
    for (int64_t k = 0; k < sites; ++k) {
      demo::ListingSiteOptions o;
      o.seed = static_cast<uint64_t>(seed + k);
      o.domain = d;
      o.pages = static_cast<int>(pages);
      o.layout = layout >= 0 ? static_cast<int>(layout) : static_cast<int>((seed + k) % demo::kRecordLayouts);
      o.grid = a.Has("grid");
      VERTEX_ASSIGN_OR_RETURN(demo::ListingSite site, demo::GenerateListingSite(o));
      VERTEX_ASSIGN_OR_RETURN(
          workflow::ListingEvalReport r,
          workflow::EvalListingSite(schema, site, workflow::ListingGazetteers(d, coverage, o.seed), options));
      const double per_page = r.amber.records.truth / std::max<double>(1, r.pages);
      std::printf("%-5lld %-14s %-7.1f | %s %s %s %6.4f | ", static_cast<long long>(o.seed),
                  (demo::RecordLayoutName(site.layout) + (site.grid ? " grid" : "")).c_str(), per_page,
                  Pr(r.amber.areas).c_str(), Pr(r.amber.records).c_str(), Pr(r.amber.attributes).c_str(),
                  r.amber.records.truth ? static_cast<double>(r.amber.perfect_records) / r.amber.records.truth : 1.0);
      if (!options.rule) {
        std::printf("-\n");
      } else if (!r.rule_error.empty()) {
        ++rules_failed;
        std::printf("no rule: %s\n", r.rule_error.c_str());
      } else {
        std::printf("%s %s %6.4f\n", Pr(r.rule.records).c_str(), Pr(r.rule.attributes).c_str(),
                    r.rule.records.truth ? static_cast<double>(r.rule.perfect_records) / r.rule.records.truth : 1.0);
      }
      if (a.Has("verbose") && r.rule_error.empty() && options.rule) {
        std::printf("      record xpath %s, length %d\n", r.record_rule.record_xpath().c_str(),
                    r.record_rule.record_length());
        for (const std::string& n : r.rule_notes) std::printf("      %s\n", n.c_str());
      }
      amber_total += r.amber;
      rule_total += r.rule;
      parse += r.parse_seconds;
      amber += r.amber_seconds;
      rule += r.rule_seconds;
      total_pages += r.pages;
    }
    std::printf("\nAMBER, all sites:\n%s\n", eval::FormatListScores(amber_total).c_str());
    if (options.rule) {
      std::printf("Record rules learnt from AMBER (%zu of %lld sites without a rule), all sites:\n%s\n", rules_failed,
                  static_cast<long long>(sites), eval::FormatListScores(rule_total).c_str());
    }
    const double n = std::max<size_t>(total_pages, 1);
    std::printf("Time per page (one thread): parse %.3f ms, AMBER (annotate + identify/segment/align) %.3f ms "
                "(%.2f x parse)",
                1e3 * parse / n, 1e3 * amber / n, parse > 0 ? amber / parse : 0);
    if (options.rule) std::printf(", rule %.3f ms (%.3f x parse)", 1e3 * rule / n, parse > 0 ? rule / parse : 0);
    std::printf("\n\n");
  }
  return absl::OkStatus();
}

}  // namespace

int RunEvalListings(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = EvalListingsFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kEvalListingsUsage << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("eval-listings", parsed.status());
  const absl::Status s = EvalListings(*parsed);
  return s.ok() ? 0 : ReportError("eval-listings", s);
}

}  // namespace vertex::cli
