#include "runtime/coordination/framed_socket.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

// Bounds what a corrupt or hostile length prefix can make us allocate.
constexpr uint32_t kMaxFields = 16;
constexpr uint32_t kMaxFieldBytes = 256u << 20;

void AppendU32(std::string& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

uint32_t DecodeU32(const char* data) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value = (value << 8) | static_cast<unsigned char>(data[i]);
  }
  return value;
}

// Milliseconds for poll(): -1 waits forever, 0 when already past.
int PollTimeoutMs(FramedSocket::Clock::time_point deadline) {
  if (deadline == FramedSocket::kNoDeadline) return -1;
  auto left = std::chrono::ceil<std::chrono::milliseconds>(
      deadline - FramedSocket::Clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1 << 30));
}

absl::Status ErrnoStatus(absl::string_view what, int err) {
  return absl::UnavailableError(absl::StrCat(what, ": ", std::strerror(err)));
}

void SetNonBlocking(int fd) {
  int flags = fcntl(fd, F_GETFL, 0);
  if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Non-blocking connect bounded by `deadline`; returns the connected fd.
absl::StatusOr<int> ConnectOne(const addrinfo& info,
                               FramedSocket::Clock::time_point deadline) {
  int fd =
      socket(info.ai_family, info.ai_socktype | SOCK_CLOEXEC, info.ai_protocol);
  if (fd < 0) return ErrnoStatus("socket", errno);
  SetNonBlocking(fd);
  if (connect(fd, info.ai_addr, info.ai_addrlen) != 0) {
    if (errno != EINPROGRESS) {
      int err = errno;
      close(fd);
      return ErrnoStatus("connect", err);
    }
    pollfd pfd{fd, POLLOUT, 0};
    int ready;
    do {
      ready = poll(&pfd, 1, PollTimeoutMs(deadline));
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) {
      close(fd);
      return absl::UnavailableError("connect: timed out");
    }
    int err = 0;
    socklen_t len = sizeof(err);
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      close(fd);
      return ErrnoStatus("connect", err);
    }
  }
  return fd;
}

}  // namespace

absl::StatusOr<FramedSocket> FramedSocket::Dial(const HostPort& host_port,
                                                Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* infos = nullptr;
  std::string port = absl::StrCat(host_port.port);
  int rc = getaddrinfo(host_port.host.c_str(), port.c_str(), &hints, &infos);
  if (rc != 0) {
    return absl::UnavailableError(absl::StrCat(
        "cannot resolve host '", host_port.host, "': ", gai_strerror(rc)));
  }
  absl::Status last = absl::UnavailableError("no addresses");
  for (addrinfo* info = infos; info != nullptr; info = info->ai_next) {
    absl::StatusOr<int> fd = ConnectOne(*info, deadline);
    if (fd.ok()) {
      freeaddrinfo(infos);
      return FramedSocket(*fd);
    }
    last = fd.status();
  }
  freeaddrinfo(infos);
  return last;
}

FramedSocket::FramedSocket(int fd) : fd_(fd) {
  SetNonBlocking(fd_);
  // Requests and replies are small and latency-bound: without this, Nagle's
  // algorithm and delayed ACKs can add tens of milliseconds per call.
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

FramedSocket::~FramedSocket() { Close(); }

FramedSocket::FramedSocket(FramedSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

FramedSocket& FramedSocket::operator=(FramedSocket&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void FramedSocket::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

void FramedSocket::Shutdown() {
  if (fd_ >= 0) shutdown(fd_, SHUT_RDWR);
}

absl::Status FramedSocket::WaitFor(short events, Clock::time_point deadline) {
  pollfd pfd{fd_, events, 0};
  while (true) {
    int ready = poll(&pfd, 1, PollTimeoutMs(deadline));
    if (ready > 0) return absl::OkStatus();
    if (ready == 0) return absl::DeadlineExceededError("socket timed out");
    if (errno != EINTR) return ErrnoStatus("poll", errno);
  }
}

absl::Status FramedSocket::WriteMessage(const std::vector<std::string>& fields,
                                        Clock::time_point deadline) {
  std::string buffer;
  AppendU32(buffer, static_cast<uint32_t>(fields.size()));
  for (const std::string& field : fields) {
    AppendU32(buffer, static_cast<uint32_t>(field.size()));
    buffer += field;
  }
  size_t sent = 0;
  while (sent < buffer.size()) {
    // MSG_NOSIGNAL: a vanished peer must give an error, not kill the
    // process with SIGPIPE.
    ssize_t n =
        send(fd_, buffer.data() + sent, buffer.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      PJRTX_RETURN_IF_ERROR(WaitFor(POLLOUT, deadline));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return ErrnoStatus("send", errno);
    }
  }
  return absl::OkStatus();
}

absl::Status FramedSocket::ReadExactly(char* data, size_t size,
                                       Clock::time_point deadline) {
  size_t got = 0;
  while (got < size) {
    ssize_t n = recv(fd_, data + got, size - got, 0);
    if (n > 0) {
      got += static_cast<size_t>(n);
    } else if (n == 0) {
      return absl::UnavailableError("connection closed by peer");
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      PJRTX_RETURN_IF_ERROR(WaitFor(POLLIN, deadline));
    } else if (errno != EINTR) {
      return ErrnoStatus("recv", errno);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> FramedSocket::ReadMessage(
    Clock::time_point deadline) {
  char header[4];
  if (absl::Status s = ReadExactly(header, 4, deadline); !s.ok()) return s;
  uint32_t count = DecodeU32(header);
  if (count > kMaxFields) {
    return absl::DataLossError(absl::StrCat(
        "message has ", count, " fields; expected at most ", kMaxFields));
  }
  std::vector<std::string> fields(count);
  for (std::string& field : fields) {
    if (absl::Status s = ReadExactly(header, 4, deadline); !s.ok()) return s;
    uint32_t size = DecodeU32(header);
    if (size > kMaxFieldBytes) {
      return absl::DataLossError(absl::StrCat("message field has ", size,
                                              " bytes; expected at most ",
                                              kMaxFieldBytes));
    }
    field.resize(size);
    if (absl::Status s = ReadExactly(field.data(), size, deadline); !s.ok()) {
      return s;
    }
  }
  return fields;
}

}  // namespace pjrtx
