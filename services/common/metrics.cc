#include "services/common/metrics.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace vertex::rpc {
namespace {

std::string Number(double v) {
  if (v == static_cast<double>(static_cast<int64_t>(v)) && v < 9e15 && v > -9e15) {
    return absl::StrCat(static_cast<int64_t>(v));
  }
  return absl::StrFormat("%.9g", v);
}

// {a="x",b="y"} (empty for no labels).
std::string LabelText(const std::vector<std::pair<std::string, std::string>>& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    absl::StrAppend(&out, i ? "," : "", labels[i].first, "=\"", EscapeLabelValue(labels[i].second), "\"");
  }
  return out + "}";
}

std::vector<std::pair<std::string, std::string>> Zip(const std::vector<std::string>& names,
                                                     const std::vector<std::string>& values) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) out.emplace_back(names[i], values[i]);
  return out;
}

void Header(std::string* out, const std::string& name, const std::string& help, const std::string& type) {
  absl::StrAppend(out, "# HELP ", name, " ", help, "\n# TYPE ", name, " ", type, "\n");
}

void WriteCounters(const Family<Counter>& f, std::string* out) {
  Header(out, f.name(), f.help(), "counter");
  f.ForEach([&](const std::vector<std::string>& values, const Counter& c) {
    absl::StrAppend(out, f.name(), LabelText(Zip(f.labels(), values)), " ", c.value(), "\n");
  });
}

void WriteHistograms(const Family<Histogram>& f, std::string* out) {
  Header(out, f.name(), f.help(), "histogram");
  f.ForEach([&](const std::vector<std::string>& values, const Histogram& h) {
    std::vector<std::pair<std::string, std::string>> labels = Zip(f.labels(), values);
    for (size_t i = 0; i <= h.bounds().size(); ++i) {
      labels.emplace_back("le", i < h.bounds().size() ? Number(h.bounds()[i]) : "+Inf");
      absl::StrAppend(out, f.name(), "_bucket", LabelText(labels), " ", h.CumulativeCount(i), "\n");
      labels.pop_back();
    }
    absl::StrAppend(out, f.name(), "_sum", LabelText(labels), " ", Number(h.sum()), "\n");
    absl::StrAppend(out, f.name(), "_count", LabelText(labels), " ", h.count(), "\n");
  });
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), buckets_(new std::atomic<uint64_t>[bounds_.size() + 1]) {
  for (size_t i = 0; i <= bounds_.size(); ++i) buckets_[i].store(0);
}

void Histogram::Observe(double value) {
  const size_t i = std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin();
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

uint64_t Histogram::CumulativeCount(size_t i) const {
  uint64_t n = 0;
  for (size_t j = 0; j <= i && j <= bounds_.size(); ++j) n += buckets_[j].load(std::memory_order_relaxed);
  return n;
}

std::vector<double> GrpcLatencyBuckets() { return {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}; }

void MetricWriter::Add(const std::string& name, const std::string& help, const std::string& type,
                       const Labels& labels, double value) {
  Metric& m = metrics_[name];
  m.help = help;
  m.type = type;
  m.samples.emplace_back(labels, value);
}

std::string MetricWriter::Text() const {
  std::string out;
  for (const auto& [name, m] : metrics_) {
    Header(&out, name, m.help, m.type);
    for (const auto& [labels, value] : m.samples) absl::StrAppend(&out, name, LabelText(labels), " ", Number(value), "\n");
  }
  return out;
}

Family<Counter>& MetricRegistry::AddCounter(const std::string& name, const std::string& help,
                                            std::vector<std::string> labels) {
  absl::MutexLock lock(&mu_);
  counters_.push_back(std::make_unique<Family<Counter>>(name, help, std::move(labels),
                                                        [] { return std::make_unique<Counter>(); }));
  return *counters_.back();
}

Family<Histogram>& MetricRegistry::AddHistogram(const std::string& name, const std::string& help,
                                                std::vector<std::string> labels, std::vector<double> bounds) {
  absl::MutexLock lock(&mu_);
  histograms_.push_back(std::make_unique<Family<Histogram>>(
      name, help, std::move(labels), [bounds] { return std::make_unique<Histogram>(bounds); }));
  return *histograms_.back();
}

void MetricRegistry::AddCollector(Collector collector) {
  absl::MutexLock lock(&mu_);
  collectors_.push_back(std::move(collector));
}

std::string MetricRegistry::Exposition() const {
  absl::ReaderMutexLock lock(&mu_);
  std::string out;
  for (const auto& f : counters_) WriteCounters(*f, &out);
  for (const auto& f : histograms_) WriteHistograms(*f, &out);
  MetricWriter writer;
  for (const Collector& c : collectors_) c(writer);
  return out + writer.Text();
}

std::string EscapeLabelValue(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace vertex::rpc
