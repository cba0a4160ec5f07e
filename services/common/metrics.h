// Prometheus metrics of a server, exposed in the text format 0.0.4 (written
// here: Debian 12 packages no Prometheus client library for C++). Counters
// and histograms are atomics: an increment from many threads takes no lock.
// A family's children (one per label values) are found under a reader lock
// and created under the writer lock, so callers on the hot path may also
// keep the returned reference (it stays valid as long as the registry).
// Gauges whose value lives elsewhere (a store's size, a queue's length) are
// collectors, called at each scrape.
//
// Thread-safety: every method may be called from any thread.
#ifndef VERTEX_SERVICES_COMMON_METRICS_H_
#define VERTEX_SERVICES_COMMON_METRICS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"

namespace vertex::rpc {

class Counter {
 public:
  void Add(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

// Cumulative buckets with upper bounds `bounds` (ascending) and +Inf.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void Observe(double value);
  const std::vector<double>& bounds() const { return bounds_; }
  // Observations <= bounds()[i] (cumulative); i == bounds().size() is +Inf.
  uint64_t CumulativeCount(size_t i) const;
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  double sum() const { return sum_.load(std::memory_order_relaxed); }

 private:
  const std::vector<double> bounds_;
  const std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // per bucket, not cumulative
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0};
};

// The buckets of go-grpc-prometheus' handling-time histogram, in seconds.
std::vector<double> GrpcLatencyBuckets();

// A metric family: one child per label values.
template <typename T>
class Family {
 public:
  Family(std::string name, std::string help, std::vector<std::string> labels, std::function<std::unique_ptr<T>()> make)
      : name_(std::move(name)), help_(std::move(help)), labels_(std::move(labels)), make_(std::move(make)) {}
  // The child of `values` (as many as the family's labels), created on
  // first use.
  T& With(const std::vector<std::string>& values) {
    {
      absl::ReaderMutexLock lock(&mu_);
      if (auto it = children_.find(values); it != children_.end()) return *it->second;
    }
    absl::MutexLock lock(&mu_);
    std::unique_ptr<T>& child = children_[values];
    if (child == nullptr) child = make_();
    return *child;
  }
  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  const std::vector<std::string>& labels() const { return labels_; }
  // Calls `f(values, child)` for each child, in label order.
  void ForEach(const std::function<void(const std::vector<std::string>&, const T&)>& f) const {
    absl::ReaderMutexLock lock(&mu_);
    for (const auto& [values, child] : children_) f(values, *child);
  }

 private:
  const std::string name_, help_;
  const std::vector<std::string> labels_;
  const std::function<std::unique_ptr<T>()> make_;
  mutable absl::Mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<T>> children_ ABSL_GUARDED_BY(mu_);
};

// What a collector writes at a scrape: gauges (and counters kept elsewhere).
class MetricWriter {
 public:
  using Labels = std::vector<std::pair<std::string, std::string>>;
  void Gauge(const std::string& name, const std::string& help, const Labels& labels, double value) {
    Add(name, help, "gauge", labels, value);
  }
  void CounterValue(const std::string& name, const std::string& help, const Labels& labels, double value) {
    Add(name, help, "counter", labels, value);
  }
  // The samples written, grouped by name with their HELP and TYPE lines.
  std::string Text() const;

 private:
  struct Metric {
    std::string help, type;
    std::vector<std::pair<Labels, double>> samples;
  };
  void Add(const std::string& name, const std::string& help, const std::string& type, const Labels& labels,
           double value);
  std::map<std::string, Metric> metrics_;
};

using Collector = std::function<void(MetricWriter&)>;

class MetricRegistry {
 public:
  // A new family; the reference is valid as long as the registry.
  Family<Counter>& AddCounter(const std::string& name, const std::string& help, std::vector<std::string> labels);
  Family<Histogram>& AddHistogram(const std::string& name, const std::string& help, std::vector<std::string> labels,
                                  std::vector<double> bounds);
  void AddCollector(Collector collector);
  // Every family (children with no observation yet included) and every
  // collector's samples, in the text format 0.0.4.
  std::string Exposition() const;

 private:
  mutable absl::Mutex mu_;
  std::vector<std::unique_ptr<Family<Counter>>> counters_ ABSL_GUARDED_BY(mu_);
  std::vector<std::unique_ptr<Family<Histogram>>> histograms_ ABSL_GUARDED_BY(mu_);
  std::vector<Collector> collectors_ ABSL_GUARDED_BY(mu_);
};

// `value` escaped for a label value (backslash, double quote, newline).
std::string EscapeLabelValue(const std::string& value);

// This process' resident set size in bytes (/proc/self/statm); 0 when it
// cannot be read.
uint64_t ResidentBytes();

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_METRICS_H_
