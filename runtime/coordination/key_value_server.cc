#include "runtime/coordination/key_value_server.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/coordination/host_port.h"
#include "runtime/coordination/key_value_protocol.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

namespace protocol = key_value_protocol;

std::vector<std::string> BadRequest(absl::string_view why) {
  return protocol::Reply(absl::InvalidArgumentError(
      absl::StrCat("malformed key-value request: ", why)));
}

// Binds and listens on the first address `host_port` resolves to.
absl::StatusOr<int> Listen(const HostPort& host_port,
                           absl::string_view bind_address) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* infos = nullptr;
  std::string port = absl::StrCat(host_port.port);
  int rc = getaddrinfo(host_port.host.c_str(), port.c_str(), &hints, &infos);
  if (rc != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve host '", host_port.host, "' of bind ",
                     "address '", bind_address, "': ", gai_strerror(rc)));
  }
  std::string last_error = "no addresses";
  for (addrinfo* info = infos; info != nullptr; info = info->ai_next) {
    int fd = socket(info->ai_family, info->ai_socktype | SOCK_CLOEXEC,
                    info->ai_protocol);
    if (fd < 0) {
      last_error = std::strerror(errno);
      continue;
    }
    // Lets a restarted coordinator rebind its port while old connections
    // sit in TIME_WAIT.
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, info->ai_addr, info->ai_addrlen) == 0 &&
        listen(fd, SOMAXCONN) == 0) {
      freeaddrinfo(infos);
      return fd;
    }
    last_error = std::strerror(errno);
    close(fd);
  }
  freeaddrinfo(infos);
  return absl::UnavailableError(
      absl::StrCat("cannot listen on '", bind_address, "': ", last_error));
}

int BoundPort(int fd) {
  sockaddr_storage storage{};
  socklen_t len = sizeof(storage);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &len) != 0) {
    return 0;
  }
  if (storage.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port);
  }
  return ntohs(reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
}

}  // namespace

absl::StatusOr<std::unique_ptr<KeyValueServer>> KeyValueServer::Start(
    absl::string_view bind_address) {
  PJRTX_ASSIGN_OR_RETURN(HostPort host_port, ParseHostPort(bind_address));
  PJRTX_ASSIGN_OR_RETURN(int listen_fd, Listen(host_port, bind_address));
  int wake[2];
  if (pipe2(wake, O_CLOEXEC) != 0) {
    int err = errno;
    close(listen_fd);
    return absl::UnavailableError(
        absl::StrCat("pipe2 failed: ", std::strerror(err)));
  }
  HostPort bound = host_port;
  bound.port = BoundPort(listen_fd);
  return std::unique_ptr<KeyValueServer>(
      new KeyValueServer(listen_fd, wake[0], wake[1], FormatHostPort(bound)));
}

KeyValueServer::KeyValueServer(int listen_fd, int wake_read_fd,
                               int wake_write_fd, std::string address)
    : listen_fd_(listen_fd),
      wake_read_fd_(wake_read_fd),
      wake_write_fd_(wake_write_fd),
      address_(std::move(address)) {
  accept_thread_ = std::thread([this] { AcceptLoop(); });
}

KeyValueServer::~KeyValueServer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& [id, socket] : connections_) socket->Shutdown();
  }
  changed_.notify_all();
  char byte = 0;
  while (write(wake_write_fd_, &byte, 1) < 0 && errno == EINTR) {
  }
  accept_thread_.join();
  // The accept loop is gone, so threads_ can no longer grow.
  std::map<int, std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    threads.swap(threads_);
  }
  for (auto& [id, thread] : threads) thread.join();
  close(listen_fd_);
  close(wake_read_fd_);
  close(wake_write_fd_);
}

void KeyValueServer::AcceptLoop() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_fd_, POLLIN, 0}};
  while (true) {
    int ready = poll(fds, 2, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || fds[1].revents != 0) return;
    if (fds[0].revents == 0) continue;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;  // The client gave up; nothing to serve.
    ReapFinished();
    auto socket = std::make_shared<FramedSocket>(fd);
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;  // `socket` closes on the way out.
    int id = next_connection_id_++;
    connections_[id] = socket;
    threads_[id] = std::thread([this, id, socket] { Serve(id, socket); });
  }
}

void KeyValueServer::ReapFinished() {
  std::vector<std::thread> done;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int id : finished_) {
      auto it = threads_.find(id);
      if (it == threads_.end()) continue;
      done.push_back(std::move(it->second));
      threads_.erase(it);
    }
    finished_.clear();
  }
  for (std::thread& thread : done) thread.join();
}

void KeyValueServer::Serve(int id, std::shared_ptr<FramedSocket> socket) {
  while (true) {
    // No read deadline: idle clients are normal, and shutdown wakes us.
    absl::StatusOr<std::vector<std::string>> request =
        socket->ReadMessage(FramedSocket::kNoDeadline);
    if (!request.ok()) break;
    std::vector<std::string> reply = Handle(*request);
    if (!socket->WriteMessage(reply, FramedSocket::kNoDeadline).ok()) break;
  }
  std::lock_guard<std::mutex> lock(mu_);
  connections_.erase(id);
  finished_.push_back(id);
}

std::vector<std::string> KeyValueServer::Handle(
    const std::vector<std::string>& request) {
  if (request.empty()) return BadRequest("no operation");
  const std::string& op = request[0];
  if (op == protocol::kPut && request.size() == 3) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      values_[request[1]] = request[2];
    }
    changed_.notify_all();
    return protocol::Reply(absl::OkStatus());
  }
  if (op == protocol::kGet && request.size() == 3) {
    int64_t timeout_ms = 0;
    if (!absl::SimpleAtoi(request[2], &timeout_ms) || timeout_ms < 0) {
      return BadRequest(absl::StrCat("timeout '", request[2], "'"));
    }
    return HandleGet(request[1], timeout_ms);
  }
  if (op == protocol::kBarrier && request.size() == 4) {
    int num_processes = 0;
    int64_t timeout_ms = 0;
    if (!absl::SimpleAtoi(request[2], &num_processes) || num_processes < 1 ||
        !absl::SimpleAtoi(request[3], &timeout_ms) || timeout_ms < 0) {
      return BadRequest(absl::StrCat("barrier arguments '", request[2], "', '",
                                     request[3], "'"));
    }
    return HandleBarrier(request[1], num_processes, timeout_ms);
  }
  return BadRequest(absl::StrCat("operation '", op, "' with ",
                                 request.size() - 1, " arguments"));
}

std::vector<std::string> KeyValueServer::HandleGet(const std::string& key,
                                                   int64_t timeout_ms) {
  auto deadline =
      FramedSocket::Clock::now() + std::chrono::milliseconds(timeout_ms);
  std::unique_lock<std::mutex> lock(mu_);
  auto it = values_.end();
  changed_.wait_until(lock, deadline, [&] {
    it = values_.find(key);
    return it != values_.end() || stopping_;
  });
  if (it != values_.end()) return protocol::Reply(absl::OkStatus(), it->second);
  if (stopping_) {
    return protocol::Reply(
        absl::UnavailableError("key-value server is shutting down"));
  }
  return protocol::Reply(absl::DeadlineExceededError(
      absl::StrCat("key '", key, "' was not set within ", timeout_ms, " ms")));
}

std::vector<std::string> KeyValueServer::HandleBarrier(const std::string& name,
                                                       int num_processes,
                                                       int64_t timeout_ms) {
  auto deadline =
      FramedSocket::Clock::now() + std::chrono::milliseconds(timeout_ms);
  std::unique_lock<std::mutex> lock(mu_);
  // std::map never moves its elements, so the reference outlives waits.
  BarrierState& barrier = barriers_[name];
  if (barrier.arrived == 0) {
    barrier.num_processes = num_processes;
  } else if (barrier.num_processes != num_processes) {
    return protocol::Reply(absl::InvalidArgumentError(
        absl::StrCat("barrier '", name, "' called with ", num_processes,
                     " processes; expected ", barrier.num_processes,
                     " as the processes already waiting passed")));
  }
  const int64_t generation = barrier.generation;
  if (++barrier.arrived == num_processes) {
    barrier.arrived = 0;
    ++barrier.generation;
    lock.unlock();
    changed_.notify_all();
    return protocol::Reply(absl::OkStatus());
  }
  changed_.wait_until(lock, deadline, [&] {
    return barrier.generation != generation || stopping_;
  });
  if (barrier.generation != generation) {
    return protocol::Reply(absl::OkStatus());
  }
  const int arrived = barrier.arrived;
  // Withdraw, so a retry is not counted twice.
  --barrier.arrived;
  if (stopping_) {
    return protocol::Reply(
        absl::UnavailableError("key-value server is shutting down"));
  }
  return protocol::Reply(absl::DeadlineExceededError(
      absl::StrCat("barrier '", name, "': ", arrived, " of ", num_processes,
                   " processes arrived within ", timeout_ms, " ms")));
}

}  // namespace pjrtx
