// The request/reply vocabulary shared by KeyValueServer and
// TcpKeyValueStore. Each request is one FramedSocket message whose first
// field names the operation; each reply is {status code, payload}, where the
// payload is the value on success and the error message otherwise.
#ifndef PJRTX_RUNTIME_COORDINATION_KEY_VALUE_PROTOCOL_H_
#define PJRTX_RUNTIME_COORDINATION_KEY_VALUE_PROTOCOL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace pjrtx::key_value_protocol {

// {kPut, key, value}
inline constexpr absl::string_view kPut = "PUT";
// {kGet, key, timeout_ms}: the server holds the reply until the key is set
// or the timeout passes, so waiting costs no polling traffic.
inline constexpr absl::string_view kGet = "GET";
// {kBarrier, name, num_processes, timeout_ms}
inline constexpr absl::string_view kBarrier = "BARRIER";

inline std::vector<std::string> Reply(const absl::Status& status,
                                      absl::string_view value = {}) {
  return {absl::StrCat(static_cast<int>(status.code())),
          std::string(status.ok() ? value : status.message())};
}

}  // namespace pjrtx::key_value_protocol

#endif  // PJRTX_RUNTIME_COORDINATION_KEY_VALUE_PROTOCOL_H_
