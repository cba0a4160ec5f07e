// Readiness of a reader of the rule store (vertex-extraction,
// vertex-monitoring): a replica is ready when it is caught up with the
// primary, i.e. its first catch-up succeeded and the last successful one
// began at most `max_lag` ago. Before that, or when catch-ups fail or take
// longer than the bound (a store grown large, a primary gone, files lost
// under a network filesystem), the replica may serve rules older than the
// bound, so its gRPC health turns NOT_SERVING and a load balancer (a
// Kubernetes readiness probe, a client's health-checked round robin) stops
// sending it calls; it turns SERVING again with the next timely catch-up.
// The replica keeps answering calls that still reach it.
//
// Thread-safety: IsCaughtUp is a pure function. ReadinessPublisher owns one
// thread; its destructor stops and joins it.
#ifndef VERTEX_SERVICES_SERVER_READINESS_H_
#define VERTEX_SERVICES_SERVER_READINESS_H_

#include <functional>
#include <string>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace vertex::server {

// Caught up at `now` when the last successful catch-up (InfinitePast: none
// yet) began at most `max_lag` before it.
bool IsCaughtUp(absl::Time last_catch_up, absl::Time now, absl::Duration max_lag);

// Every `period`, reads `last_catch_up()` and calls `publish(ready, why)`
// when readiness changes (and once at the start, before the constructor
// returns): `why` says in words what was judged, for the log.
class ReadinessPublisher {
 public:
  ReadinessPublisher(std::function<absl::Time()> last_catch_up, absl::Duration max_lag, absl::Duration period,
                     std::function<void(bool ready, const std::string& why)> publish,
                     std::function<absl::Time()> clock = absl::Now);
  ~ReadinessPublisher();

  // Judges now, publishing a change (what the thread does every period).
  void Check();

 private:
  void Run();

  const std::function<absl::Time()> last_catch_up_;
  const absl::Duration max_lag_;
  const absl::Duration period_;
  const std::function<void(bool, const std::string&)> publish_;
  const std::function<absl::Time()> clock_;
  absl::Mutex mu_;
  int published_ ABSL_GUARDED_BY(mu_) = -1;  // -1 none yet, else 0/1
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_READINESS_H_
