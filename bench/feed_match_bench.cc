// The feed matcher's cost against the page parse it follows: MatchFeed of
// a 15-item feed on a home page listing the 15 entries (every item is
// looked for: list detection), on one entry page, and the parse of the same
// pages, in one run so that the ratios hold on a noisy machine. Pages and
// feed: tests/feed/blog_fixture.h (WordPress template, sidebar repeating
// every title, 3 paragraphs per post).
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "common/feed/feed_matcher.h"
#include "common/html/page.h"
#include "tests/feed/blog_fixture.h"

namespace {

using vertex::feed::testing_blog::Blog;

// MakeBlog caps its distinct titles at 8; the posts past them get unique
// titles so that 15 items are 15 entries.
Blog FifteenPosts() {
  Blog b = vertex::feed::testing_blog::MakeBlog(15);
  for (size_t i = 8; i < b.posts.size(); ++i) {
    b.posts[i].title = b.posts[i].page_title = b.feed.items[i].title = "Another entry number " + std::to_string(i);
  }
  return b;
}

void BM_MatchHome(benchmark::State& state) {
  const Blog blog = FifteenPosts();
  const vertex::html::Page home = blog.HomePage(vertex::feed::testing_blog::kWordPress);
  for (auto _ : state) {
    vertex::feed::FeedMatchResult r = vertex::feed::MatchFeed(blog.feed, {&home});
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_MatchHome)->Unit(benchmark::kMicrosecond);

// A long archive: the 15 feed items among `range(0)` entries (~1 KB each).
void BM_MatchLongArchive(benchmark::State& state) {
  Blog blog = FifteenPosts();
  Blog older = vertex::feed::testing_blog::MakeBlog(8);
  const int n = static_cast<int>(state.range(0));
  std::vector<int> shown;
  for (int i = 0; i < n; ++i) {
    if (i >= 15) {
      vertex::feed::testing_blog::Post p = older.posts[i % 8];
      p.title = p.page_title = "Old entry " + std::to_string(i);
      p.link = blog.home_url + "old/" + std::to_string(i) + "/";
      blog.posts.push_back(p);
    }
    shown.push_back(i);
  }
  const std::string html = blog.ListHtml(shown, vertex::feed::testing_blog::kWordPress);
  vertex::html::Parser parser;
  const vertex::html::Page page = parser.Parse(html, blog.home_url + "archive/").value();
  for (auto _ : state) {
    vertex::feed::FeedMatchResult r = vertex::feed::MatchFeed(blog.feed, {&page});
    benchmark::DoNotOptimize(r);
  }
  state.counters["bytes"] = static_cast<double>(html.size());
}
BENCHMARK(BM_MatchLongArchive)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_MatchEntry(benchmark::State& state) {
  const Blog blog = FifteenPosts();
  const vertex::html::Page entry = blog.EntryPage(3, vertex::feed::testing_blog::kWordPress);
  for (auto _ : state) {
    vertex::feed::FeedMatchResult r = vertex::feed::MatchFeed(blog.feed, {&entry});
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_MatchEntry)->Unit(benchmark::kMicrosecond);

// The parse of the home page's HTML, for the ratio.
void BM_ParseHome(benchmark::State& state) {
  const Blog blog = FifteenPosts();
  std::vector<int> all;
  for (size_t i = 0; i < blog.posts.size(); ++i) all.push_back(static_cast<int>(i));
  const std::string html = blog.ListHtml(all, vertex::feed::testing_blog::kWordPress);
  vertex::html::Parser parser;
  for (auto _ : state) {
    absl::StatusOr<vertex::html::Page> page = parser.Parse(html, blog.home_url);
    benchmark::DoNotOptimize(page);
  }
  state.counters["bytes"] = static_cast<double>(html.size());
}
BENCHMARK(BM_ParseHome)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
