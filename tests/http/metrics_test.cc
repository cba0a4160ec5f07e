// The Prometheus exposition of services/common/metrics.h: counters and
// histograms by labels (cumulative buckets, +Inf, _sum, _count), label
// values escaped, collectors' gauges grouped under one HELP/TYPE, and
// counters that stay exact under concurrent increments.
#include "services/common/metrics.h"

#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::rpc {
namespace {

using ::testing::HasSubstr;

TEST(MetricRegistry, CountersAndHistogramsInTheTextFormat) {
  MetricRegistry registry;
  Family<Counter>& calls = registry.AddCounter("calls_total", "Calls.", {"method", "code"});
  calls.With({"Extract", "OK"}).Add(3);
  calls.With({"Extract", "NOT_FOUND"}).Add();
  Family<Histogram>& seconds = registry.AddHistogram("call_seconds", "Latency.", {"method"}, {0.1, 1});
  Histogram& h = seconds.With({"Extract"});
  h.Observe(0.05);
  h.Observe(0.1);  // on a bound: counted in it (le)
  h.Observe(0.5);
  h.Observe(7);
  const std::string text = registry.Exposition();
  EXPECT_THAT(text, HasSubstr("# HELP calls_total Calls.\n# TYPE calls_total counter\n"));
  EXPECT_THAT(text, HasSubstr("calls_total{method=\"Extract\",code=\"OK\"} 3\n"));
  EXPECT_THAT(text, HasSubstr("calls_total{method=\"Extract\",code=\"NOT_FOUND\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE call_seconds histogram\n"));
  EXPECT_THAT(text, HasSubstr("call_seconds_bucket{method=\"Extract\",le=\"0.1\"} 2\n"));
  EXPECT_THAT(text, HasSubstr("call_seconds_bucket{method=\"Extract\",le=\"1\"} 3\n"));
  EXPECT_THAT(text, HasSubstr("call_seconds_bucket{method=\"Extract\",le=\"+Inf\"} 4\n"));
  EXPECT_THAT(text, HasSubstr("call_seconds_sum{method=\"Extract\"} 7.65\n"));
  EXPECT_THAT(text, HasSubstr("call_seconds_count{method=\"Extract\"} 4\n"));
}

TEST(MetricRegistry, LabelValuesAreEscaped) {
  EXPECT_EQ(EscapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  MetricRegistry registry;
  registry.AddCounter("x_total", "X.", {"site"}).With({"say \"hi\""}).Add();
  EXPECT_THAT(registry.Exposition(), HasSubstr("x_total{site=\"say \\\"hi\\\"\"} 1\n"));
}

TEST(MetricRegistry, CollectorsWriteGaugesAtEachScrape) {
  MetricRegistry registry;
  int scrapes = 0;
  registry.AddCollector([&scrapes](MetricWriter& w) {
    ++scrapes;
    w.Gauge("queue", "Queued.", {{"pool", "a"}}, scrapes);
    w.Gauge("queue", "Queued.", {{"pool", "b"}}, 2.5);
  });
  registry.Exposition();
  const std::string text = registry.Exposition();
  EXPECT_EQ(scrapes, 2);
  EXPECT_THAT(text, HasSubstr("# HELP queue Queued.\n# TYPE queue gauge\nqueue{pool=\"a\"} 2\nqueue{pool=\"b\"} 2.5\n"));
}

TEST(MetricRegistry, ConcurrentIncrementsAreExact) {
  MetricRegistry registry;
  Family<Counter>& f = registry.AddCounter("n_total", "N.", {"k"});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&f, t] {
      for (int i = 0; i < 10000; ++i) f.With({i % 2 ? "odd" : "even"}).Add();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(f.With({"odd"}).value() + f.With({"even"}).value(), 40000u);
  EXPECT_EQ(f.With({"odd"}).value(), 20000u);
}

TEST(ResidentBytes, IsThisProcesssRss) { EXPECT_GT(ResidentBytes(), 1u << 20); }

}  // namespace
}  // namespace vertex::rpc
