// Status propagation helpers for absl::Status / absl::StatusOr (Debian's absl
// 20220623 has no public status macros).
//
// Thread-safety: macros only; no state.
#ifndef VERTEX_COMMON_UTIL_STATUS_MACROS_H_
#define VERTEX_COMMON_UTIL_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns `expr` from the enclosing function when it is not OK.
#define VERTEX_RETURN_IF_ERROR(expr)                  \
  do {                                                \
    ::absl::Status vertex_status_ = (expr);           \
    if (!vertex_status_.ok()) return vertex_status_;  \
  } while (0)

#define VERTEX_CONCAT_INNER_(a, b) a##b
#define VERTEX_CONCAT_(a, b) VERTEX_CONCAT_INNER_(a, b)

// `lhs = value of rexpr` (a StatusOr), or returns its status when not OK.
#define VERTEX_ASSIGN_OR_RETURN(lhs, rexpr) \
  VERTEX_ASSIGN_OR_RETURN_IMPL_(VERTEX_CONCAT_(vertex_statusor_, __LINE__), lhs, rexpr)

#define VERTEX_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                  \
  if (!statusor.ok()) return statusor.status();             \
  lhs = std::move(statusor).value()

#endif  // VERTEX_COMMON_UTIL_STATUS_MACROS_H_
