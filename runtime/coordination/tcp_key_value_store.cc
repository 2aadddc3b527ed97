#include "runtime/coordination/tcp_key_value_store.h"

#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/coordination/key_value_protocol.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

namespace protocol = key_value_protocol;
using Clock = FramedSocket::Clock;

// Allowance for the network and the server's scheduling on top of the time
// the server may legitimately hold a reply. Past it the server is presumed
// dead (e.g. its host vanished without closing the connection).
constexpr int64_t kGraceMs = 10'000;
// Pause between connection attempts while the server is not yet up.
constexpr auto kRetryInterval = std::chrono::milliseconds(50);

absl::Status NegativeTimeout(int64_t timeout_ms) {
  return absl::InvalidArgumentError(
      absl::StrCat("timeout_ms is ", timeout_ms, "; expected a value >= 0"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> TcpKeyValueStore::Connect(
    absl::string_view address, int64_t timeout_ms) {
  PJRTX_ASSIGN_OR_RETURN(HostPort host_port, ParseHostPort(address));
  if (host_port.port == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("address '", address,
                     "' has port 0; expected host:port with a port in "
                     "1..65535 to connect to"));
  }
  if (timeout_ms < 0) return NegativeTimeout(timeout_ms);
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  absl::Status last;
  while (true) {
    absl::StatusOr<FramedSocket> socket =
        FramedSocket::Dial(host_port, deadline);
    if (socket.ok()) {
      return std::unique_ptr<TcpKeyValueStore>(new TcpKeyValueStore(
          std::string(address), std::move(host_port), *std::move(socket)));
    }
    last = socket.status();
    if (Clock::now() + kRetryInterval >= deadline) break;
    std::this_thread::sleep_for(kRetryInterval);
  }
  return absl::UnavailableError(
      absl::StrCat("cannot connect to key-value server at '", address,
                   "' within ", timeout_ms, " ms: ", last.message()));
}

TcpKeyValueStore::TcpKeyValueStore(std::string address, HostPort host_port,
                                   FramedSocket first_connection)
    : address_(std::move(address)), host_port_(std::move(host_port)) {
  idle_.push_back(std::move(first_connection));
}

absl::StatusOr<std::string> TcpKeyValueStore::Call(
    const std::vector<std::string>& request, int64_t server_wait_ms) {
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(server_wait_ms + kGraceMs);
  std::optional<FramedSocket> socket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      socket.emplace(std::move(idle_.back()));
      idle_.pop_back();
    }
  }
  auto unavailable = [&](const absl::Status& cause) {
    return absl::UnavailableError(
        absl::StrCat("key-value server at '", address_, "' failed during ",
                     request[0], ": ", cause.message()));
  };
  if (!socket.has_value()) {
    absl::StatusOr<FramedSocket> dialed =
        FramedSocket::Dial(host_port_, deadline);
    if (!dialed.ok()) return unavailable(dialed.status());
    socket.emplace(*std::move(dialed));
  }
  if (absl::Status sent = socket->WriteMessage(request, deadline); !sent.ok()) {
    return unavailable(sent);
  }
  absl::StatusOr<std::vector<std::string>> reply =
      socket->ReadMessage(deadline);
  if (!reply.ok()) return unavailable(reply.status());
  int code = 0;
  if (reply->size() != 2 || !absl::SimpleAtoi((*reply)[0], &code)) {
    return unavailable(absl::DataLossError("malformed reply"));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(*std::move(socket));
  }
  if (code != 0) {
    return absl::Status(static_cast<absl::StatusCode>(code), (*reply)[1]);
  }
  return std::move((*reply)[1]);
}

absl::StatusOr<std::string> TcpKeyValueStore::Get(absl::string_view key,
                                                  int64_t timeout_ms) {
  if (timeout_ms < 0) return NegativeTimeout(timeout_ms);
  return Call(
      {std::string(protocol::kGet), std::string(key), absl::StrCat(timeout_ms)},
      timeout_ms);
}

absl::Status TcpKeyValueStore::Put(absl::string_view key,
                                   absl::string_view value) {
  return Call({std::string(protocol::kPut), std::string(key),
               std::string(value)},
              0)
      .status();
}

absl::Status TcpKeyValueStore::Barrier(absl::string_view name,
                                       int num_processes, int64_t timeout_ms) {
  if (num_processes < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("barrier '", name, "' has num_processes ", num_processes,
                     "; expected at least 1"));
  }
  if (timeout_ms < 0) return NegativeTimeout(timeout_ms);
  return Call({std::string(protocol::kBarrier), std::string(name),
               absl::StrCat(num_processes), absl::StrCat(timeout_ms)},
              timeout_ms)
      .status();
}

}  // namespace pjrtx
