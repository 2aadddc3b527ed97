// Parsing of "host:port" network addresses.
#ifndef PJRTX_RUNTIME_COORDINATION_HOST_PORT_H_
#define PJRTX_RUNTIME_COORDINATION_HOST_PORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pjrtx {

struct HostPort {
  std::string host;  // A name or a literal address, without IPv6 brackets.
  int port = 0;      // 0..65535; 0 asks a server for any free port.
};

// Accepts "host:port" and "[ipv6]:port". INVALID_ARGUMENT names `address`
// and the expected form when the host is empty, the port is missing, not a
// decimal number, or outside 0..65535.
absl::StatusOr<HostPort> ParseHostPort(absl::string_view address);

// The inverse of ParseHostPort: brackets IPv6 literals so the result parses.
std::string FormatHostPort(const HostPort& host_port);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_HOST_PORT_H_
