#include "runtime/coordination/host_port.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace pjrtx {
namespace {

absl::Status BadAddress(absl::string_view address, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("address '", address, "' ", why,
                   "; expected the form host:port, e.g. 127.0.0.1:47100"));
}

}  // namespace

absl::StatusOr<HostPort> ParseHostPort(absl::string_view address) {
  HostPort result;
  absl::string_view port_text;
  if (!address.empty() && address.front() == '[') {
    // IPv6 literals contain colons themselves, so they come bracketed.
    size_t close = address.find(']');
    if (close == absl::string_view::npos || close + 1 >= address.size() ||
        address[close + 1] != ':') {
      return BadAddress(address, "has an unterminated or portless [ipv6]");
    }
    result.host = std::string(address.substr(1, close - 1));
    port_text = address.substr(close + 2);
  } else {
    size_t colon = address.rfind(':');
    if (colon == absl::string_view::npos) {
      return BadAddress(address, "has no port");
    }
    result.host = std::string(address.substr(0, colon));
    port_text = address.substr(colon + 1);
  }
  if (result.host.empty()) return BadAddress(address, "has an empty host");
  if (port_text.empty() || port_text.size() > 5) {
    return BadAddress(address, "has no port in 0..65535");
  }
  int port = 0;
  for (char c : port_text) {
    // Checked by hand: SimpleAtoi would accept signs and whitespace.
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      return BadAddress(
          address, absl::StrCat("has a non-numeric port '", port_text, "'"));
    }
    port = port * 10 + (c - '0');
  }
  if (port > 65535) {
    return BadAddress(address,
                      absl::StrCat("has port ", port, " outside 0..65535"));
  }
  result.port = port;
  return result;
}

std::string FormatHostPort(const HostPort& host_port) {
  if (host_port.host.find(':') != std::string::npos) {
    return absl::StrCat("[", host_port.host, "]:", host_port.port);
  }
  return absl::StrCat(host_port.host, ":", host_port.port);
}

}  // namespace pjrtx
