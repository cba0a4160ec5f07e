#include "services/server/readiness.h"

#include "absl/strings/str_cat.h"

namespace vertex::server {

bool IsCaughtUp(absl::Time last_catch_up, absl::Time now, absl::Duration max_lag) {
  return last_catch_up != absl::InfinitePast() && now - last_catch_up <= max_lag;
}

ReadinessPublisher::ReadinessPublisher(std::function<absl::Time()> last_catch_up, absl::Duration max_lag,
                                       absl::Duration period,
                                       std::function<void(bool ready, const std::string& why)> publish,
                                       std::function<absl::Time()> clock)
    : last_catch_up_(std::move(last_catch_up)),
      max_lag_(max_lag),
      period_(period),
      publish_(std::move(publish)),
      clock_(std::move(clock)) {
  Check();
  thread_ = std::thread([this] { Run(); });
}

ReadinessPublisher::~ReadinessPublisher() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  thread_.join();
}

void ReadinessPublisher::Check() {
  const absl::Time last = last_catch_up_();
  const absl::Time now = clock_();
  const bool ready = IsCaughtUp(last, now, max_lag_);
  {
    absl::MutexLock lock(&mu_);
    if (published_ == static_cast<int>(ready)) return;
    published_ = static_cast<int>(ready);
  }
  std::string why;
  if (last == absl::InfinitePast()) {
    why = "no catch-up with the store's primary has succeeded yet";
  } else {
    why = absl::StrCat("the last successful catch-up with the store's primary began ",
                       absl::FormatDuration(absl::Trunc(now - last, absl::Milliseconds(1))), " ago (bound ",
                       absl::FormatDuration(max_lag_), ")");
  }
  publish_(ready, why);
}

void ReadinessPublisher::Run() {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      const auto stopped = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stop_; };
      if (mu_.AwaitWithTimeout(absl::Condition(&stopped), period_)) return;
    }
    Check();
  }
}

}  // namespace vertex::server
