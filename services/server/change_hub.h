// ChangeHub: the learning service's record of acknowledged store writes,
// which readers of the store (the extraction and monitoring services) follow
// through LearningService.WatchStore to catch up at once.
//
// Thread-safety: safe for concurrent use.
#ifndef VERTEX_SERVICES_SERVER_CHANGE_HUB_H_
#define VERTEX_SERVICES_SERVER_CHANGE_HUB_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/synchronization/mutex.h"

namespace vertex::server {

class ChangeHub {
 public:
  struct Change {
    uint64_t sequence = 0;
    std::string site;
    bool closed = false;
  };

  // Records a write to `site` and wakes every waiter.
  void Publish(const std::string& site);
  // The latest change.
  Change Latest() const;
  // Waits until a change newer than `seen` is published, Close() is called,
  // or `timeout` passes; returns the latest change.
  Change WaitAfter(uint64_t seen, std::chrono::milliseconds timeout) const;
  // Wakes every waiter for good (shutdown).
  void Close();

 private:
  mutable absl::Mutex mu_;
  Change latest_ ABSL_GUARDED_BY(mu_);
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_CHANGE_HUB_H_
