// Status propagation helpers. Abseil 20220623 (Debian 12) ships neither
// ABSL_RETURN_IF_ERROR nor ABSL_ASSIGN_OR_RETURN, so the project defines its
// own once, here.
#ifndef PJRTX_SUPPORT_STATUS_MACROS_H_
#define PJRTX_SUPPORT_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define PJRTX_RETURN_IF_ERROR(expr)                \
  do {                                             \
    ::absl::Status pjrtx_status_ = (expr);         \
    if (!pjrtx_status_.ok()) return pjrtx_status_; \
  } while (0)

#define PJRTX_STATUS_CONCAT_INNER_(a, b) a##b
#define PJRTX_STATUS_CONCAT_(a, b) PJRTX_STATUS_CONCAT_INNER_(a, b)

// Evaluates `rexpr` (an absl::StatusOr<T>); returns its status on error,
// otherwise moves the value into `lhs` (a declaration or an lvalue).
#define PJRTX_ASSIGN_OR_RETURN(lhs, rexpr) \
  PJRTX_ASSIGN_OR_RETURN_IMPL_(            \
      PJRTX_STATUS_CONCAT_(pjrtx_statusor_, __LINE__), lhs, rexpr)

#define PJRTX_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                 \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // PJRTX_SUPPORT_STATUS_MACROS_H_
