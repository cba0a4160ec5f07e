// Learning one cluster's rule from a site clustering (site_clusterer.h) and
// annotations of its pages, then asking the editor loop whether more pages
// are needed. Shared by `vertexctl learn`, `vertexctl eval-swde` and the
// learning service.
//
// The pages learning looks at: the annotated pages, then (for support, as
// unannotated examples) the cluster's annotation sample (Algorithm 2 order)
// and, if that is short, other members of the cluster spread evenly over
// it, up to ClusterLearnOptions::unannotated_pages.
//
// Thread-safety: PagePool is not thread-safe; LearnCluster is a function of
// its inputs (it loads pages through the pool).
#ifndef VERTEX_COMMON_WORKFLOW_CLUSTER_LEARNER_H_
#define VERTEX_COMMON_WORKFLOW_CLUSTER_LEARNER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/amber/amber.h"
#include "common/annotate/annotator.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/workflow/editor_loop.h"
#include "common/workflow/page_cache.h"

namespace vertex::workflow {

// Where a PagePool gets page `index` of its clustering from, when not from
// the file clustering.pages[index].file.
using PageLoader = std::function<absl::StatusOr<site::PageFile>(size_t index)>;

// The pages of a clustering, read and parsed on first use and kept. With a
// cache (page_cache.h; the clustering's page indices must then be the
// site's sample indices and its files the pages' URLs), parses are taken
// from it and given to it.
class PagePool {
 public:
  PagePool(const site::SiteClustering& clustering, html::ParseOptions options, PageLoader loader = nullptr,
           PageCacheView cache = {});

  // The parsed page clustering.pages[index]. The file's read or parse error
  // (naming the file) when it fails; OutOfRange for a bad index.
  absl::StatusOr<const html::Page*> Page(size_t index);
  // The page's file as read (URL and bytes), after a successful Page().
  const site::PageFile* File(size_t index) const;
  // Reads page `index` without parsing or keeping it. Thread-safe (unlike
  // Page) when the loader is.
  absl::StatusOr<site::PageFile> Read(size_t index) const;
  const html::ParseOptions& parse_options() const { return options_; }

  // The cache's parse of page `index`, or null (also with no cache).
  // Thread-safe.
  std::shared_ptr<const html::Page> Cached(size_t index) const;
  // Gives the cache (if any) `page`, parsed from page `index`. Thread-safe.
  void Offer(size_t index, html::Page page) const;

 private:
  struct Entry {
    site::PageFile file;
    std::shared_ptr<const html::Page> page;
  };
  const site::SiteClustering& clustering_;
  html::ParseOptions options_;
  html::Parser parser_;
  PageLoader loader_;
  PageCacheView cache_;
  std::map<size_t, std::unique_ptr<Entry>> entries_;
};

struct ClusterLearnOptions {
  learn::RuleLearnOptions learn;
  size_t unannotated_pages = 20;
  // Threads checking the rule on the cluster's pages (0: one per core).
  int check_threads = 0;
  // The editor loop checks the rule on at most this many of the cluster's
  // unannotated pages (0: on every one): always the annotation sample and
  // the other learning pages (already parsed), then one member from each
  // of as many equal strata of the remaining members (in the cluster's
  // order) as the cap leaves room for, the middle one of its stratum:
  // deterministic, and spread over the whole cluster. A cluster with no
  // more pages than the cap is checked whole, as with 0.
  // Why 500: the check is the Learn's largest cost on a large cluster
  // (about 0.2 ms of CPU per page and attribute set); a structure shown by
  // a fraction f of the members is missed by the sample with a
  // probability near (1 - f)^500 when it is scattered: 0.7% for f = 1%.
  // A structure rarer than that, or in one contiguous run of members
  // between two strata' middles, can be missed; the editor then sees it
  // in production monitoring rather than in the loop.
  size_t max_check_pages = 500;
  // Record-level schemas learnt with no annotation: AMBER analyses this
  // many sample pages (Algorithm 2 order), annotating them with the
  // schema's regexes and these gazetteers (the built-in ones for names not
  // given here).
  size_t amber_pages = 10;
  amber::Options amber;
  annotate::GazetteerSet gazetteers;
};

struct ClusterLearnResult {
  // The rule, its site fields filled: cluster_id "c<id>", signature, URL
  // regex, importance, annotated URLs, creation time. Diagnostics per
  // attribute.
  learn::RuleLearnResult learnt;
  // The compiled rule when at least one attribute was learnt.
  std::optional<extract::CompiledRule> compiled;
  // The editor loop on the pages of the cluster not annotated (a cluster
  // is done only when the rule works on all of them), or on the sample of
  // them that options.max_check_pages allows: the annotation sample, then
  // the other pages learning looked at, then the other members.
  EditorVerdict verdict;
  // Those pages (indices into clustering.pages), in that order.
  std::vector<size_t> remaining;
  // The page to annotate next (index into clustering.pages); nullopt when
  // the editor loop is done or no sample page is left.
  std::optional<size_t> next_page;
  // Every page learning looked at, annotated first.
  std::vector<size_t> learning_pages;
};

// The editor loop's check of `checker`'s rule on `pages` (indices into the
// pool's clustering), each read through pool.Read, parsed on `threads`
// threads (0: one per core) and dropped once checked; the verdict's page
// indices are positions in `pages`. A page's read or parse error, or the
// rule's.
absl::StatusOr<EditorVerdict> CheckPages(const RuleChecker& checker, const std::vector<size_t>& pages,
                                         const PagePool& pool, int threads);

// Whether `rule` has anything to extract: attribute rules, or a record rule.
bool HasParts(const v1::Rule& rule);

// The pages the editor loop checks out of `order` (ClusterLearnOptions::
// max_check_pages): its first `head` pages always, then, when `order` is
// longer than `cap` (> 0), the middle page of each of cap - head equal
// strata of the rest (none when head >= cap), in order; `order` itself
// when it is no longer than the cap or the cap is 0.
std::vector<size_t> CheckSubsample(const std::vector<size_t>& order, size_t head, size_t cap);

// Learns cluster `cluster` (an index into clustering.clusters) from
// `annotations`, whose `page` fields are indices into clustering.pages,
// and checks the rule on the other pages of the cluster (all of them, or
// the sample options.max_check_pages allows). The rule records the
// attributes it extracted on every page checked (always_extracted) and its
// runner-up XPaths (alternatives).
// Record-level schemas (Schema.record_level) learn a record rule
// (record_learner.h): from the editor's records (annotations with a record
// number) or, with no annotation, from AMBER's analysis of up to
// options.amber_pages sample pages; the check then asks every page for at
// least one record, each regular attribute in more than half of them.
// InvalidArgument when an annotated page is not in the cluster, or as
// learn::LearnRule; a page's read/parse error.
absl::StatusOr<ClusterLearnResult> LearnCluster(const schema::CompiledSchema& schema,
                                                const site::SiteClustering& clustering, size_t cluster,
                                                const std::vector<learn::AttributeAnnotation>& annotations,
                                                PagePool& pool, const ClusterLearnOptions& options = {});

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_CLUSTER_LEARNER_H_
