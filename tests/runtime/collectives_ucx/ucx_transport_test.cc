#include "runtime/collectives/ucx/ucx_transport.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/collectives/transport.h"
#include "runtime/coordination/key_value_server.h"
#include "runtime/coordination/tcp_key_value_store.h"

namespace pjrtx::collectives {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

constexpr size_t kMiB = 1 << 20;
constexpr char kChildFlag[] = "--ucx_child";

Deadline In(std::chrono::milliseconds timeout) {
  return Clock::now() + timeout;
}

// Bytes that depend on the sender and the size, so a message delivered to
// the wrong receive shows up as a content mismatch.
std::vector<uint8_t> Pattern(int sender, size_t size) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<uint8_t>((i * 131 + sender * 17 + size) & 0xff);
  }
  return bytes;
}

// ---- Child side: one process per rank, reporting through its exit code.

struct Child {
  int rank = 0;
  int size = 0;
  TcpKeyValueStore* store = nullptr;
  UcxTransport* transport = nullptr;
  int failures = 0;

  void Check(bool ok, absl::string_view what) {
    if (ok) return;
    ++failures;
    std::fprintf(stderr, "rank %d: check failed: %s\n", rank,
                 std::string(what).c_str());
  }
  void CheckOk(const absl::Status& status, absl::string_view what) {
    Check(status.ok(), absl::StrCat(what, ": ", status.ToString()));
  }
  // An operation with rank 1, killed meanwhile (`what`, e.g. "send"),
  // failed naming it within its 3 s deadline and some slack.
  void CheckFailedWithDeadPeer(absl::string_view what,
                               const absl::Status& status,
                               Clock::duration elapsed) {
    std::fprintf(
        stderr, "rank %d: %s with the killed peer: %s after %lld ms\n", rank,
        std::string(what).c_str(), status.ToString().c_str(),
        static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(elapsed)
                .count()));
    Check((absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status)) &&
              absl::StrContains(status.message(), "rank 1"),
          absl::StrCat(what, " with a dead peer gave ", status.ToString()));
    Check(elapsed < std::chrono::seconds(4), "failed within deadline + slack");
  }
  void CheckCounters(int64_t sent, int64_t sends, int64_t received,
                     int64_t receives) {
    const TransportCounters c = transport->counters();
    Check(c.bytes_sent == sent && c.messages_sent == sends &&
              c.bytes_received == received && c.messages_received == receives,
          absl::StrCat("counters sent ", c.bytes_sent, "/", c.messages_sent,
                       " received ", c.bytes_received, "/", c.messages_received,
                       ", want ", sent, "/", sends, " ", received, "/",
                       receives));
  }
};

void PingPong(Child& c) {
  const int peer = 1 - c.rank;
  int64_t moved = 0;
  uint32_t step = 0;
  for (size_t size : {size_t{8}, kMiB}) {
    const std::vector<uint8_t> mine = Pattern(c.rank, size);
    std::vector<uint8_t> got(size);
    const uint64_t ping = MakeTag(1, 0, step++);
    const uint64_t pong = MakeTag(1, 0, step++);
    if (c.rank == 0) {
      c.CheckOk(
          c.transport->Send(peer, mine, ping, In(std::chrono::seconds(5))),
          "ping");
      c.CheckOk(c.transport->Recv(peer, absl::MakeSpan(got), pong,
                                  In(std::chrono::seconds(5))),
                "pong");
    } else {
      c.CheckOk(c.transport->Recv(peer, absl::MakeSpan(got), ping,
                                  In(std::chrono::seconds(5))),
                "ping");
      c.CheckOk(
          c.transport->Send(peer, mine, pong, In(std::chrono::seconds(5))),
          "pong");
    }
    c.Check(got == Pattern(peer, size), absl::StrCat(size, "-byte content"));
    moved += static_cast<int64_t>(size);
  }
  c.CheckCounters(moved, 2, moved, 2);
  const absl::Status out_of_range = c.transport->Send(
      c.size, Pattern(0, 8), MakeTag(1, 0, 9), In(std::chrono::seconds(1)));
  c.Check(absl::IsInvalidArgument(out_of_range) &&
              absl::StrContains(out_of_range.message(), "peer rank 2"),
          absl::StrCat("out-of-range peer gave ", out_of_range.ToString()));
}

// Every rank sends to its right and receives from its left at once, then
// the other way round: deadlock-free only if both halves run together.
void Ring(Child& c) {
  const int right = (c.rank + 1) % c.size;
  const int left = (c.rank + c.size - 1) % c.size;
  const std::vector<uint8_t> mine = Pattern(c.rank, kMiB);
  std::vector<uint8_t> got(kMiB);
  c.CheckOk(
      c.transport->SendRecv(right, mine, left, absl::MakeSpan(got),
                            MakeTag(2, 0, 0), In(std::chrono::seconds(5))),
      "rightward");
  c.Check(got == Pattern(left, kMiB), "rightward content");
  c.CheckOk(
      c.transport->SendRecv(left, mine, right, absl::MakeSpan(got),
                            MakeTag(2, 0, 1), In(std::chrono::seconds(5))),
      "leftward");
  c.Check(got == Pattern(right, kMiB), "leftward content");
  c.CheckCounters(2 * kMiB, 2, 2 * kMiB, 2);
}

// Ranks 1 and 2 send with the same tag, rank 1 first; rank 0 receives from
// rank 2 first, which must not match rank 1's message.
void SenderMatch(Child& c) {
  const uint64_t tag = MakeTag(3, 0, 0);
  if (c.rank == 1) {
    c.CheckOk(
        c.transport->Send(0, Pattern(1, 64), tag, In(std::chrono::seconds(5))),
        "send from 1");
    c.CheckOk(c.store->Put("sender_match/sent", "1"), "put");
  } else if (c.rank == 2) {
    c.CheckOk(c.store->Get("sender_match/sent", 5000).status(), "get");
    c.CheckOk(
        c.transport->Send(0, Pattern(2, 64), tag, In(std::chrono::seconds(5))),
        "send from 2");
  } else {
    c.CheckOk(c.store->Get("sender_match/sent", 5000).status(), "get");
    std::vector<uint8_t> got(64);
    for (int from : {2, 1}) {
      c.CheckOk(c.transport->Recv(from, absl::MakeSpan(got), tag,
                                  In(std::chrono::seconds(5))),
                absl::StrCat("receive from ", from));
      c.Check(got == Pattern(from, 64),
              absl::StrCat("content of the message from ", from));
    }
    c.CheckCounters(0, 0, 128, 2);
  }
}

void SizeMismatch(Child& c) {
  if (c.rank == 0) {
    for (uint32_t step : {0, 1, 2}) {
      c.CheckOk(c.transport->Send(1, Pattern(0, 100), MakeTag(4, 0, step),
                                  In(std::chrono::seconds(5))),
                absl::StrCat("send ", step));
    }
    c.CheckCounters(300, 3, 0, 0);
    return;
  }
  for (size_t expected : {size_t{64}, size_t{200}}) {
    std::vector<uint8_t> got(expected);
    const absl::Status status = c.transport->Recv(
        0, absl::MakeSpan(got), MakeTag(4, 0, expected == 64 ? 0 : 1),
        In(std::chrono::seconds(5)));
    c.Check(absl::IsInvalidArgument(status) &&
                absl::StrContains(status.message(),
                                  absl::StrCat("expected ", expected)) &&
                absl::StrContains(status.message(), "has 100 bytes"),
            absl::StrCat("receiving 100 into ", expected, " gave ",
                         status.ToString()));
  }
  // The link still works after both mismatches.
  std::vector<uint8_t> got(100);
  c.CheckOk(c.transport->Recv(0, absl::MakeSpan(got), MakeTag(4, 0, 2),
                              In(std::chrono::seconds(5))),
            "matching receive");
  c.Check(got == Pattern(0, 100), "content after mismatches");
  c.CheckCounters(0, 0, 100, 1);
}

// CPU time of this process, all threads.
std::chrono::nanoseconds ProcessCpuTime() {
  timespec now = {};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) +
         std::chrono::nanoseconds(now.tv_nsec);
}

// A receive nobody answers times out at its deadline, and waiting for it
// costs next to no CPU: a rank waiting on a slow peer must leave the
// cores to the processes that work.
void UnansweredReceive(Child& c) {
  if (c.rank != 0) return;
  std::vector<uint8_t> got(8);
  const Clock::time_point start = Clock::now();
  const std::chrono::nanoseconds cpu_start = ProcessCpuTime();
  const absl::Status status =
      c.transport->Recv(1, absl::MakeSpan(got), MakeTag(5, 0, 0),
                        In(std::chrono::milliseconds(500)));
  const auto cpu = ProcessCpuTime() - cpu_start;
  const auto elapsed = Clock::now() - start;
  c.Check(absl::IsDeadlineExceeded(status) &&
              absl::StrContains(status.message(), "from rank 1"),
          absl::StrCat("unanswered receive gave ", status.ToString()));
  c.Check(elapsed >= std::chrono::milliseconds(490) &&
              elapsed < std::chrono::milliseconds(2000),
          "the receive returned near its deadline");
  c.Check(
      cpu < elapsed / 10,
      absl::StrCat("waiting ", absl::FormatDuration(absl::FromChrono(elapsed)),
                   " for the receive took ",
                   absl::FormatDuration(absl::FromChrono(cpu)),
                   " of CPU; expected under a tenth of the wait"));
  c.CheckCounters(0, 0, 0, 0);
}

// Rank 1 dies after one exchange; rank 0's next exchange with it must fail
// within its deadline (plus slack), and tearing down must not hang.
void PeerKilled(Child& c) {
  std::vector<uint8_t> got(8);
  c.CheckOk(c.transport->SendRecv(1 - c.rank, Pattern(c.rank, 8), 1 - c.rank,
                                  absl::MakeSpan(got), MakeTag(6, 0, 0),
                                  In(std::chrono::seconds(5))),
            "first exchange");
  if (c.rank == 1) raise(SIGKILL);
  std::vector<uint8_t> big(kMiB);
  const Clock::time_point start = Clock::now();
  const absl::Status status =
      c.transport->SendRecv(1, Pattern(0, kMiB), 1, absl::MakeSpan(big),
                            MakeTag(6, 0, 1), In(std::chrono::seconds(3)));
  c.CheckFailedWithDeadPeer("exchange", status, Clock::now() - start);
  // A send completes locally once the transport has taken the data (over
  // TCP that can be the kernel's socket buffer), so the big send may count
  // even though the peer died before reading it. The receive never can.
  const TransportCounters counters = c.transport->counters();
  const bool big_send_counted = counters.messages_sent == 2;
  c.CheckCounters(big_send_counted ? 8 + kMiB : 8, big_send_counted ? 2 : 1, 8,
                  1);
}

// The peer stops reading (SIGSTOP) once the exchanges begin, so a large
// send fills the socket and stays partly sent; then it dies. The send
// in flight must fail with the peer's name, not abort the process: UCX's
// tcp zero-copy sends complete twice when a partly sent one fails, which
// is why the transport's defaults keep sends on the copying path.
void PeerKilledMidSend(Child& c) {
  std::vector<uint8_t> pid_bytes(sizeof(pid_t));
  const pid_t self = getpid();
  std::memcpy(pid_bytes.data(), &self, sizeof(self));
  std::vector<uint8_t> got(sizeof(pid_t));
  c.CheckOk(c.transport->SendRecv(1 - c.rank, pid_bytes, 1 - c.rank,
                                  absl::MakeSpan(got), MakeTag(7, 0, 0),
                                  In(std::chrono::seconds(5))),
            "pid exchange");
  if (c.rank == 1) {
    raise(SIGSTOP);
    return;  // Never reached: rank 0 kills this process while stopped.
  }
  pid_t peer = 0;
  std::memcpy(&peer, got.data(), sizeof(peer));
  // Kills the stopped peer once the send below has filled the socket.
  std::thread killer([peer] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(peer, SIGKILL);
  });
  constexpr size_t kBig = 64 * kMiB;
  const std::vector<uint8_t> big(kBig, 0x5a);
  const Clock::time_point start = Clock::now();
  const absl::Status status =
      c.transport->Send(1, big, MakeTag(7, 0, 1), In(std::chrono::seconds(3)));
  const Clock::duration elapsed = Clock::now() - start;
  killer.join();
  c.CheckFailedWithDeadPeer("send", status, elapsed);
}

// A buffer the transport may only copy into and out of, as a chip's.
class VectorMemory final : public StagedMemory {
 public:
  explicit VectorMemory(std::vector<uint8_t> bytes)
      : bytes_(std::move(bytes)) {}
  explicit VectorMemory(size_t zeros) : bytes_(zeros) {}

  size_t size() const override { return bytes_.size(); }
  void ToHost(size_t offset, uint8_t* host, size_t bytes) override {
    std::memcpy(host, bytes_.data() + offset, bytes);
    copied_ += bytes;
  }
  void FromHost(size_t offset, const uint8_t* host, size_t bytes) override {
    std::memcpy(bytes_.data() + offset, host, bytes);
    copied_ += bytes;
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }
  size_t copied() const { return copied_; }

 private:
  std::vector<uint8_t> bytes_;
  size_t copied_ = 0;
};

OperationHeader SendRecvHeader(uint32_t sequence, int64_t count) {
  OperationHeader header;
  header.sequence = sequence;
  header.kind = PJRTX_Collective_SEND_RECV;
  header.type = PJRTX_Buffer_Type_U8;
  header.count = count;
  return header;
}

// Staged buffers: both ranks exchange with the operation's header in front
// (several UCX fragments, every byte copied exactly once per side), a
// staged side talks to a plain one both ways, sizes that disagree and ranks
// that run different operations are named.
void Staged(Child& c) {
  const int peer = 1 - c.rank;
  const size_t big = 3 * kMiB + 5;  // Several 512 KiB segments, odd tail.
  const auto deadline = [] { return In(std::chrono::seconds(5)); };
  c.transport->BeginOperation(SendRecvHeader(0, big));
  VectorMemory mine(Pattern(c.rank, big));
  VectorMemory got(big);
  c.CheckOk(c.transport->SendRecvStaged(peer, &mine, peer, &got,
                                        MakeTag(8, 0, 0), deadline()),
            "staged exchange with a header");
  c.Check(got.bytes() == Pattern(peer, big), "staged content");
  c.Check(mine.copied() == big && got.copied() == big,
          absl::StrCat("copied out ", mine.copied(), " and in ", got.copied(),
                       ", want ", big, " each"));
  c.CheckCounters(big, 1, big, 1);

  // Staged to plain, then plain to staged, headers included.
  c.transport->BeginOperation(SendRecvHeader(1, 1000));
  if (c.rank == 0) {
    VectorMemory out(Pattern(0, 1000));
    c.CheckOk(c.transport->SendRecvStaged(1, &out, -1, nullptr,
                                          MakeTag(8, 1, 0), deadline()),
              "staged send to a plain receive");
    VectorMemory in(size_t{1000});
    c.CheckOk(c.transport->SendRecvStaged(-1, nullptr, 1, &in, MakeTag(8, 1, 1),
                                          deadline()),
              "staged receive of a plain send");
    c.Check(in.bytes() == Pattern(1, 1000), "plain-to-staged content");
  } else {
    std::vector<uint8_t> in(1000);
    c.CheckOk(
        c.transport->Recv(0, absl::MakeSpan(in), MakeTag(8, 1, 0), deadline()),
        "plain receive of a staged send");
    c.Check(in == Pattern(0, 1000), "staged-to-plain content");
    c.CheckOk(
        c.transport->Send(0, Pattern(1, 1000), MakeTag(8, 1, 1), deadline()),
        "plain send to a staged receive");
  }

  // 100 bytes arrive where 64 and 200 are expected.
  c.transport->BeginOperation(SendRecvHeader(2, 100));
  if (c.rank == 0) {
    for (uint32_t step : {0, 1}) {
      VectorMemory out(Pattern(0, 100));
      c.CheckOk(c.transport->SendRecvStaged(1, &out, -1, nullptr,
                                            MakeTag(8, 2, step), deadline()),
                absl::StrCat("send ", step));
    }
  } else {
    for (size_t expected : {size_t{64}, size_t{200}}) {
      VectorMemory in(expected);
      const absl::Status status = c.transport->SendRecvStaged(
          -1, nullptr, 0, &in, MakeTag(8, 2, expected == 64 ? 0 : 1),
          deadline());
      c.Check(absl::IsInvalidArgument(status) &&
                  absl::StrContains(status.message(),
                                    absl::StrCat("expected ", expected)),
              absl::StrCat("receiving 100 into ", expected, " gave ",
                           status.ToString()));
    }
  }

  // The ranks disagree on the operation: both are told, naming both.
  OperationHeader header = SendRecvHeader(3, 8);
  if (c.rank == 1) header.kind = PJRTX_Collective_ALL_GATHER;
  c.transport->BeginOperation(header);
  VectorMemory small_out(Pattern(c.rank, 8));
  VectorMemory small_in(size_t{8});
  const absl::Status status = c.transport->SendRecvStaged(
      peer, &small_out, peer, &small_in, MakeTag(8, 3, 0), deadline());
  c.Check(absl::IsInvalidArgument(status) &&
              absl::StrContains(status.message(), "send/recv") &&
              absl::StrContains(status.message(), "all-gather"),
          absl::StrCat("ranks running different operations gave ",
                       status.ToString()));
}

int RunChild(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s %s SCENARIO ADDRESS KEY RANK SIZE\n",
                 argv[0], kChildFlag);
    return 2;
  }
  const std::string scenario = argv[2];
  Child c;
  c.rank = std::atoi(argv[5]);
  c.size = std::atoi(argv[6]);
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect(argv[3], 5000);
  if (!store.ok()) {
    std::fprintf(stderr, "rank %d: %s\n", c.rank,
                 store.status().ToString().c_str());
    return 3;
  }
  UcxTransport::Options options;
  options.connect_timeout_ms = 10000;
  absl::StatusOr<std::unique_ptr<UcxTransport>> transport =
      UcxTransport::Create(**store, argv[4], c.rank, c.size, options);
  if (!transport.ok()) {
    std::fprintf(stderr, "rank %d: %s\n", c.rank,
                 transport.status().ToString().c_str());
    return 4;
  }
  c.store = store->get();
  c.transport = transport->get();
  if (scenario == "ping_pong") {
    PingPong(c);
  } else if (scenario == "ring") {
    Ring(c);
  } else if (scenario == "sender_match") {
    SenderMatch(c);
  } else if (scenario == "size_mismatch") {
    SizeMismatch(c);
  } else if (scenario == "deadline") {
    UnansweredReceive(c);
  } else if (scenario == "staged") {
    Staged(c);
  } else if (scenario == "peer_killed") {
    PeerKilled(c);
  } else if (scenario == "peer_killed_mid_send") {
    PeerKilledMidSend(c);
  } else {
    std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
    return 2;
  }
  // Nobody tears down while a peer may still need it, except after a kill.
  if (!absl::StartsWith(scenario, "peer_killed")) {
    c.CheckOk((*store)->Barrier(absl::StrCat(argv[4], "/done"), c.size, 10000),
              "final barrier");
  }
  transport->reset();
  return c.failures == 0 ? 0 : 1;
}

// ---- Parent side.

// How each rank's process ended: its exit code, or -signal.
std::vector<int> RunRanks(absl::string_view scenario, int size) {
  absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
      KeyValueServer::Start();
  EXPECT_TRUE(server.ok()) << server.status();
  if (!server.ok()) return {};
  const std::string key = absl::StrCat("ucx_test/", scenario, "/", size);
  std::vector<pid_t> pids;
  for (int rank = 0; rank < size; ++rank) {
    // Built before fork: only exec runs in the child, which is safe even
    // though this process has threads (the server's).
    std::vector<std::string> args = {
        "/proc/self/exe",     kChildFlag, std::string(scenario),
        (*server)->address(), key,        std::to_string(rank),
        std::to_string(size)};
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      execv(argv[0], argv.data());
      _exit(127);
    }
    EXPECT_GT(pid, 0) << "fork failed: " << std::strerror(errno);
    pids.push_back(pid);
  }
  std::vector<int> results(pids.size(), 0);
  std::vector<bool> reaped(pids.size(), false);
  const Clock::time_point give_up = Clock::now() + std::chrono::seconds(15);
  size_t left = pids.size();
  while (left > 0) {
    for (size_t i = 0; i < pids.size(); ++i) {
      int status = 0;
      if (reaped[i] || waitpid(pids[i], &status, WNOHANG) != pids[i]) continue;
      reaped[i] = true;
      --left;
      results[i] = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    if (left > 0 && Clock::now() > give_up) {
      ADD_FAILURE() << scenario << ": ranks still running after 15 s (hang)";
      for (size_t i = 0; i < pids.size(); ++i) {
        if (reaped[i]) continue;
        kill(pids[i], SIGKILL);
        waitpid(pids[i], nullptr, 0);
        results[i] = -SIGKILL;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return results;
}

TEST(UcxTransportTest, PingPongsSmallAndLargeMessages) {
  EXPECT_THAT(RunRanks("ping_pong", 2), testing::ElementsAre(0, 0));
}

TEST(UcxTransportTest, RingExchangeOfTwoRanksIsDeadlockFree) {
  EXPECT_THAT(RunRanks("ring", 2), testing::ElementsAre(0, 0));
}

TEST(UcxTransportTest, RingExchangeOfFourRanksIsDeadlockFree) {
  EXPECT_THAT(RunRanks("ring", 4), testing::ElementsAre(0, 0, 0, 0));
}

TEST(UcxTransportTest, ReceiveMatchesOnlyTheNamedSender) {
  EXPECT_THAT(RunRanks("sender_match", 3), testing::ElementsAre(0, 0, 0));
}

TEST(UcxTransportTest, SizeMismatchIsInvalidArgumentNamingBothSizes) {
  EXPECT_THAT(RunRanks("size_mismatch", 2), testing::ElementsAre(0, 0));
}

TEST(UcxTransportTest, StagedBuffersAreCopiedOnceThroughUcxBuffers) {
  EXPECT_THAT(RunRanks("staged", 2), testing::ElementsAre(0, 0));
}

TEST(UcxTransportTest, UnansweredReceiveExceedsItsDeadline) {
  EXPECT_THAT(RunRanks("deadline", 2), testing::ElementsAre(0, 0));
}

TEST(UcxTransportTest, KilledPeerFailsTheExchangeWithoutHanging) {
  EXPECT_THAT(RunRanks("peer_killed", 2), testing::ElementsAre(0, -SIGKILL));
}

TEST(UcxTransportTest, PeerKilledWhileALargeSendIsPartlySentFailsTheSend) {
  EXPECT_THAT(RunRanks("peer_killed_mid_send", 2),
              testing::ElementsAre(0, -SIGKILL));
}

TEST(UcxTransportTest, RejectsRanksOutsideTheCommunicator) {
  absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
      KeyValueServer::Start();
  ASSERT_TRUE(server.ok()) << server.status();
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect((*server)->address(), 2000);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::unique_ptr<UcxTransport>> transport =
      UcxTransport::Create(**store, "bad_rank", 3, 3, {});
  EXPECT_TRUE(absl::IsInvalidArgument(transport.status()));
  EXPECT_THAT(transport.status().message(),
              HasSubstr("rank 3 is outside 0..2"));
  transport = UcxTransport::Create(**store, "bad_size", 0, 0, {});
  EXPECT_TRUE(absl::IsInvalidArgument(transport.status()));
  EXPECT_THAT(transport.status().message(), HasSubstr("size 0"));
}

TEST(UcxTransportTest, MissingPeerAddressExceedsTheConnectTimeout) {
  absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
      KeyValueServer::Start();
  ASSERT_TRUE(server.ok()) << server.status();
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect((*server)->address(), 2000);
  ASSERT_TRUE(store.ok()) << store.status();
  UcxTransport::Options options;
  options.connect_timeout_ms = 200;
  absl::StatusOr<std::unique_ptr<UcxTransport>> transport =
      UcxTransport::Create(**store, "lonely", 0, 2, options);
  EXPECT_TRUE(absl::IsDeadlineExceeded(transport.status()))
      << transport.status();
  EXPECT_THAT(transport.status().message(),
              AllOf(HasSubstr("rank 1"), HasSubstr("\"lonely\"")));
}

TEST(UcxTransportTest, SingleRankExchangesWithItself) {
  absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
      KeyValueServer::Start();
  ASSERT_TRUE(server.ok()) << server.status();
  absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> store =
      TcpKeyValueStore::Connect((*server)->address(), 2000);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::unique_ptr<UcxTransport>> transport =
      UcxTransport::Create(**store, "self", 0, 1, {});
  ASSERT_TRUE(transport.ok()) << transport.status();
  const std::vector<uint8_t> sent = Pattern(0, kMiB);
  std::vector<uint8_t> got(kMiB);
  ASSERT_TRUE((*transport)
                  ->SendRecv(0, sent, 0, absl::MakeSpan(got), MakeTag(7, 0, 0),
                             In(std::chrono::seconds(5)))
                  .ok());
  EXPECT_EQ(got, sent);
  const TransportCounters counters = (*transport)->counters();
  EXPECT_EQ(counters.bytes_sent, static_cast<int64_t>(kMiB));
  EXPECT_EQ(counters.bytes_received, static_cast<int64_t>(kMiB));
  EXPECT_EQ(counters.messages_sent, 1);
  EXPECT_EQ(counters.messages_received, 1);
}

TEST(UcxTransportTest, UnknownTransportNameFailsContextCreation) {
  UcxContext::Options options;
  options.transports = "no_such_transport";
  absl::StatusOr<std::shared_ptr<UcxContext>> context =
      UcxContext::Create(options);
  EXPECT_FALSE(context.ok());
  EXPECT_THAT(context.status().message(), HasSubstr("no_such_transport"));
}

}  // namespace
}  // namespace pjrtx::collectives

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], pjrtx::collectives::kChildFlag) == 0) {
    return pjrtx::collectives::RunChild(argc, argv);
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
