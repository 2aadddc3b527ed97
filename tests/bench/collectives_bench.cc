// Collectives benchmark (DESIGN section 8), nccl-tests columns: size, time,
// algbw = bytes / time and busbw = algbw * 2(n-1)/n for all-reduce
// (algbw for send/recv). Two parts:
//
// 1. In-process all-reduce over 4 ranks (InProcessFabric, one thread per
//    rank, f32 sum, ring and halving/doubling) against memcpy of the same
//    bytes on the same 4 threads, alternating.
// 2. Two processes over UCX tcp on 127.0.0.1: this program re-executes
//    itself as rank 1 (--rank=1 --coordinator=HOST:PORT; rank 0 serves the
//    key-value store) and both create a UcxTransport. Rank 0 drives rank 1
//    with command messages. Measured, alternating with their anchors:
//    - send/recv 1 MiB bandwidth against `ucx_perftest -t tag_bw` (same
//      size and iterations);
//    - 8 B ping-pong round trip against `ucx_perftest -t tag_lat` (its
//      one-way figure times 2);
//    - 8 B all-reduce against that same raw UCX tag round trip;
//    - ring all-reduce of 16 MiB against OpenMPI MPI_Allreduce (ob1, btl
//      tcp over lo) run by mpirun on 2 ranks (mpi_allreduce_anchor).
//    Full mode adds sweeps of send/recv and all-reduce from 8 B to 64 MiB.
//
//   collectives_bench [--quick] [--perftest=PATH] [--mpirun=PATH]
//                     [--mpi-anchor=PATH] [--skip-inprocess] [--skip-ucx]
//
// A missing anchor tool gives a SKIP line naming it. Every child process has
// a timeout and dies with this one (PR_SET_PDEATHSIG). Exit status 1 when a
// measurement fails.
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "runtime/collectives/halving_doubling.h"
#include "runtime/collectives/in_process_transport.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/ring.h"
#include "runtime/collectives/transport.h"
#include "runtime/collectives/ucx/ucx_transport.h"
#include "runtime/coordination/key_value_server.h"
#include "runtime/coordination/tcp_key_value_store.h"
#include "support/status_macros.h"
#include "tests/bench/communicator_rank.h"
#include "tests/bench/ratio_benchmark.h"

namespace {

using pjrtx::bench::CompareAlternating;
using pjrtx::bench::Median;
using pjrtx::bench::PrintResult;
using pjrtx::bench::RatioResult;
using pjrtx::collectives::Deadline;
using pjrtx::collectives::MakeTag;
using pjrtx::collectives::ReduceOp;
using pjrtx::collectives::Transport;
using Clock = std::chrono::steady_clock;

struct Flags {
  bool quick = false;
  int rank = 0;
  std::string coordinator;
  std::string perftest = "/usr/bin/ucx_perftest";
  std::string mpirun = "mpirun";
  std::string mpi_anchor;  // Default: beside this executable.
  bool skip_inprocess = false;
  bool skip_ucx = false;
  // The tpu_emu plugin; default: where the build puts it beside this
  // executable.
  std::string plugin;
  int communicator_rank = -1;  // >= 0: run as that rank of the plugin job.
};

void Progress(const std::string& what) {
  std::fprintf(stderr, "collectives_bench: %s\n", what.c_str());
}

std::string SizeName(int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
    return absl::StrCat(bytes >> 20, "MiB");
  if (bytes >= (1 << 10) && bytes % (1 << 10) == 0)
    return absl::StrCat(bytes >> 10, "KiB");
  return absl::StrCat(bytes, "B");
}

Deadline DeadlineIn(int seconds) {
  return Clock::now() + std::chrono::seconds(seconds);
}

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---------------------------------------------------------------------------
// Child processes.

std::mutex children_mu;
std::vector<pid_t> children;  // Guarded by children_mu.

void ForgetChild(pid_t pid) {
  std::lock_guard<std::mutex> lock(children_mu);
  children.erase(std::remove(children.begin(), children.end(), pid),
                 children.end());
}

void KillChildren() {
  std::lock_guard<std::mutex> lock(children_mu);
  for (pid_t pid : children) kill(pid, SIGKILL);
  for (pid_t pid : children) waitpid(pid, nullptr, 0);
  children.clear();
}

void OnSignal(int signal_number) {
  // Best effort: kill(2) is async-signal-safe; the lock is not taken.
  for (pid_t pid : children) kill(pid, SIGKILL);
  _exit(128 + signal_number);
}

// Starts `argv` with `env` added to the environment, its stdout and stderr
// on a pipe whose read end goes to *output_fd (or to our stderr when
// output_fd is null). The child dies with this process.
pid_t Spawn(const std::vector<std::string>& argv,
            const std::vector<std::string>& env, int* output_fd) {
  // Everything the child needs is built before fork: other threads may hold
  // the allocator's lock at fork time.
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int fds[2] = {-1, -1};
  if (output_fd != nullptr && pipe2(fds, O_CLOEXEC) != 0) return -1;
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    if (output_fd != nullptr) {
      close(fds[0]);
      close(fds[1]);
    }
    return -1;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (output_fd != nullptr) {
      dup2(fds[1], 1);
      dup2(fds[1], 2);
    } else {
      dup2(2, 1);
    }
    execvpe(args[0], args.data(), envp.data());
    static const char kMessage[] = "collectives_bench: exec failed\n";
    (void)!write(2, kMessage, sizeof(kMessage) - 1);
    _exit(127);
  }
  {
    std::lock_guard<std::mutex> lock(children_mu);
    children.push_back(pid);
  }
  if (output_fd != nullptr) {
    close(fds[1]);
    *output_fd = fds[0];
  }
  return pid;
}

// Reads `fd` into *out until EOF, `until` appears in *out, or the deadline.
// Returns false at the deadline.
bool ReadUntil(int fd, std::string* out, const std::string& until,
               Clock::time_point deadline) {
  char buffer[4096];
  while (until.empty() || out->find(until) == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return until.empty();
    out->append(buffer, n);
  }
  return true;
}

// Waits for `pid` until the deadline, then kills it. Returns its exit
// status, or -1 when it had to be killed.
int WaitChild(pid_t pid, Clock::time_point deadline) {
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (Clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ForgetChild(pid);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ForgetChild(pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Runs `argv` to completion within `timeout_s`; nullopt (after printing why)
// when it cannot start, times out or exits non-zero.
std::optional<std::string> RunCapture(const std::vector<std::string>& argv,
                                      const std::vector<std::string>& env,
                                      int timeout_s) {
  int fd = -1;
  const pid_t pid = Spawn(argv, env, &fd);
  if (pid < 0) {
    std::fprintf(stderr, "error: cannot start %s\n", argv[0].c_str());
    return std::nullopt;
  }
  const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
  std::string output;
  const bool finished = ReadUntil(fd, &output, "", deadline);
  close(fd);
  const int rc = WaitChild(
      pid, finished ? Clock::now() + std::chrono::seconds(5) : Clock::now());
  if (!finished || rc != 0) {
    std::fprintf(stderr, "error: %s %s (exit %d); output:\n%s\n",
                 argv[0].c_str(), finished ? "failed" : "timed out", rc,
                 output.c_str());
    return std::nullopt;
  }
  return output;
}

bool Executable(const std::string& path) {
  if (path.find('/') != std::string::npos)
    return access(path.c_str(), X_OK) == 0;
  const char* env_path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(env_path ? env_path : "/usr/bin:/bin", ':')) {
    if (access(absl::StrCat(dir, "/", path).c_str(), X_OK) == 0) return true;
  }
  return false;
}

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(addr);
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

// ---------------------------------------------------------------------------
// Alternation of measurements that report their own time per operation
// (an external tool's figure cannot be timed from here). Each trial runs
// every measurement once, in an order rotated per trial.

using Measure = std::function<std::optional<double>()>;  // Seconds per op.

struct Samples {
  std::vector<std::vector<double>> seconds;  // [measure][trial]
};

std::optional<Samples> AlternateMeasures(const std::vector<Measure>& measures,
                                         int trials) {
  Samples samples;
  samples.seconds.resize(measures.size());
  for (int t = 0; t < std::max(trials, 5); ++t) {
    for (size_t k = 0; k < measures.size(); ++k) {
      const size_t m = (k + t) % measures.size();
      std::optional<double> s = measures[m]();
      if (!s) return std::nullopt;
      samples.seconds[m].push_back(*s);
    }
  }
  return samples;
}

// Ratio anchor/subject per trial, scaled: anchor seconds are multiplied by
// `anchor_scale` first (e.g. 2 to turn a one-way latency into a round trip).
RatioResult RatioOf(const Samples& samples, size_t subject, size_t anchor,
                    double anchor_scale) {
  std::vector<double> ratios;
  std::vector<double> anchors;
  for (size_t t = 0; t < samples.seconds[subject].size(); ++t) {
    const double a = samples.seconds[anchor][t] * anchor_scale;
    anchors.push_back(a);
    ratios.push_back(a / samples.seconds[subject][t]);
  }
  RatioResult r;
  r.median_ratio = Median(ratios);
  r.min_ratio = *std::min_element(ratios.begin(), ratios.end());
  r.max_ratio = *std::max_element(ratios.begin(), ratios.end());
  r.subject_seconds = Median(samples.seconds[subject]);
  r.anchor_seconds = Median(anchors);
  return r;
}

// ---------------------------------------------------------------------------
// Part 1: in-process all-reduce.

// Threads that run one function each, together, and wait for all.
class Team {
 public:
  explicit Team(int size) : pending_(0) {
    for (int r = 0; r < size; ++r)
      threads_.emplace_back([this, r] { Loop(r); });
  }
  ~Team() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void Run(const std::function<void(int)>& fn) {
    std::unique_lock<std::mutex> lock(mu_);
    fn_ = &fn;
    pending_ = static_cast<int>(threads_.size());
    ++generation_;
    start_.notify_all();
    done_.wait(lock, [&] { return pending_ == 0; });
  }

 private:
  void Loop(int rank) {
    int64_t seen = 0;
    while (true) {
      const std::function<void(int)>* fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        fn = fn_;
      }
      (*fn)(rank);
      std::lock_guard<std::mutex> lock(mu_);
      if (--pending_ == 0) done_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* fn_ = nullptr;
  int pending_;
  int64_t generation_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

using AllReduceFn = absl::Status (*)(Transport&, ReduceOp, PJRTX_Buffer_Type,
                                     void*, size_t, uint32_t, uint32_t,
                                     Deadline);

struct Algorithm {
  const char* name;
  AllReduceFn fn;
};

const Algorithm kAlgorithms[] = {
    {"ring", &pjrtx::collectives::RingAllReduce},
    {"halving_doubling", &pjrtx::collectives::HalvingDoublingAllReduce},
};

void PrintTableHeader(const char* title) {
  std::printf("# %s\n", title);
  std::printf("# %12s %10s %-17s %12s %12s %12s %12s %8s\n", "size(B)", "count",
              "algorithm", "time(us)", "algbw(GB/s)", "busbw(GB/s)",
              "anchor(us)", "ratio");
}

void PrintRow(int64_t bytes, const char* algorithm, double seconds,
              double bus_factor, double anchor_seconds) {
  const double algbw = bytes / seconds / 1e9;
  std::printf("  %12lld %10lld %-17s %12.2f %12.3f %12.3f",
              static_cast<long long>(bytes), static_cast<long long>(bytes / 4),
              algorithm, seconds * 1e6, algbw, algbw * bus_factor);
  if (anchor_seconds > 0) {
    std::printf(" %12.2f %8.3f\n", anchor_seconds * 1e6,
                anchor_seconds / seconds);
  } else {
    std::printf(" %12s %8s\n", "-", "-");
  }
  std::fflush(stdout);
}

bool RunInProcess(bool quick) {
  constexpr int kRanks = 4;
  const double bus_factor = 2.0 * (kRanks - 1) / kRanks;
  std::vector<int64_t> sizes =
      quick ? std::vector<int64_t>{8, 64 << 10, 1 << 20}
            : std::vector<int64_t>{8,        1 << 10,   4 << 10, 16 << 10,
                                   64 << 10, 256 << 10, 1 << 20, 4 << 20,
                                   16 << 20, 64 << 20};
  const int trials = quick ? 5 : 7;
  std::printf(
      "collectives_bench part 1: in-process all-reduce, %d ranks (one thread "
      "each), f32 sum; anchor = memcpy of the same bytes on %d threads; "
      "ratio = memcpy time / all-reduce time\n",
      kRanks, kRanks);
  PrintTableHeader("in-process all-reduce");
  Team team(kRanks);
  bool failed = false;
  std::vector<std::pair<std::string, RatioResult>> results;
  for (int64_t bytes : sizes) {
    const size_t count = static_cast<size_t>(bytes / 4);
    std::vector<std::vector<float>> data(kRanks), src(kRanks), dst(kRanks);
    for (int r = 0; r < kRanks; ++r) {
      data[r].assign(count, 0.0f);
      src[r].assign(count, 1.0f);
      dst[r].assign(count, 0.0f);
    }
    const int iterations = static_cast<int>(std::clamp<int64_t>(
        (quick ? (int64_t{16} << 20) : (int64_t{256} << 20)) / bytes, 1,
        quick ? 200 : 2000));
    for (const Algorithm& algorithm : kAlgorithms) {
      auto fabric = pjrtx::collectives::InProcessFabric::Create(kRanks);
      std::vector<std::unique_ptr<Transport>> endpoints;
      for (int r = 0; r < kRanks; ++r) endpoints.push_back(fabric->Endpoint(r));
      uint32_t sequence = 0;
      std::vector<absl::Status> status(kRanks);
      auto all_reduce = [&] {
        const uint32_t s = sequence++;
        const Deadline deadline = DeadlineIn(60);
        team.Run([&](int r) {
          status[r] =
              algorithm.fn(*endpoints[r], ReduceOp::kSum, PJRTX_Buffer_Type_F32,
                           data[r].data(), count, 0, s, deadline);
        });
        for (const absl::Status& st : status) {
          if (!st.ok()) {
            std::fprintf(stderr, "error: %s all-reduce: %s\n", algorithm.name,
                         st.ToString().c_str());
            return false;
          }
        }
        return true;
      };
      // Checked once: rank r holds r+1, so every element must be 10.
      for (int r = 0; r < kRanks; ++r)
        std::fill(data[r].begin(), data[r].end(), static_cast<float>(r + 1));
      if (!all_reduce()) return false;
      for (int r = 0; r < kRanks; ++r) {
        for (float v : data[r]) {
          if (v != 10.0f) {
            std::fprintf(stderr, "error: %s all-reduce of %lld bytes gave %g\n",
                         algorithm.name, static_cast<long long>(bytes), v);
            return false;
          }
        }
        std::fill(data[r].begin(), data[r].end(), 0.0f);
      }
      Progress(absl::StrCat("in-process ", algorithm.name, " all-reduce ",
                            SizeName(bytes), " x", iterations, " vs memcpy"));
      RatioResult r = CompareAlternating(
          all_reduce,
          [&] {
            team.Run([&](int rank) {
              std::memcpy(dst[rank].data(), src[rank].data(), count * 4);
            });
            return true;
          },
          iterations, trials, &failed);
      if (failed) return false;
      PrintRow(bytes, algorithm.name, r.subject_seconds, bus_factor,
               r.anchor_seconds);
      results.emplace_back(absl::StrCat("collectives.inprocess4.",
                                        algorithm.name, ".", SizeName(bytes)),
                           r);
    }
  }
  for (const auto& [name, r] : results) {
    PrintResult(
        name, r,
        absl::StrFormat("us=%.2f memcpy_us=%.2f", r.subject_seconds * 1e6,
                        r.anchor_seconds * 1e6));
  }
  return true;
}

// ---------------------------------------------------------------------------
// Part 2: two processes over UCX.

enum class Op : uint32_t {
  kQuit = 0,
  kStream = 1,     // Rank 0 sends `iterations` messages, rank 1 acks.
  kPingPong = 2,   // `iterations` round trips of `bytes`.
  kAllReduce = 3,  // `iterations` all-reduces with algorithm `algorithm`.
  kCheck = 4,      // One all-reduce of ones (rank 0) and twos (rank 1);
                   // rank 1 checks and acks (1 = right), then zeroes.
};

struct Command {
  uint32_t op;
  uint32_t algorithm;
  uint32_t sequence;
  uint32_t reserved;
  uint64_t bytes;
  uint64_t iterations;
};

constexpr uint32_t kControlCommunicator = 1;
constexpr uint32_t kDataCommunicator = 2;
constexpr int64_t kMaxBytes = int64_t{64} << 20;
constexpr int kOpTimeoutS = 120;

uint64_t ControlTag() { return MakeTag(kControlCommunicator, 0, 0); }
uint64_t AckTag() { return MakeTag(kControlCommunicator, 0, 1); }
uint64_t DataTag() { return MakeTag(kDataCommunicator, 0, 0); }

absl::Span<const uint8_t> Bytes(const void* p, size_t n) {
  return {static_cast<const uint8_t*>(p), n};
}
absl::Span<uint8_t> MutableBytes(void* p, size_t n) {
  return {static_cast<uint8_t*>(p), n};
}

// Both ranks run the same code for an operation; `peer` is the other rank.
absl::Status Execute(Transport& transport, const Command& command,
                     std::vector<float>& buffer, std::vector<double>* times) {
  const int peer = 1 - transport.rank();
  const bool leader = transport.rank() == 0;
  auto* data = reinterpret_cast<uint8_t*>(buffer.data());
  const size_t bytes = command.bytes;
  uint64_t ack = 0;
  switch (static_cast<Op>(command.op)) {
    case Op::kStream:
      for (uint64_t i = 0; i < command.iterations; ++i) {
        PJRTX_RETURN_IF_ERROR(
            leader ? transport.Send(peer, Bytes(data, bytes), DataTag(),
                                    DeadlineIn(kOpTimeoutS))
                   : transport.Recv(peer, MutableBytes(data, bytes), DataTag(),
                                    DeadlineIn(kOpTimeoutS)));
      }
      return leader ? transport.Recv(peer, MutableBytes(&ack, 8), AckTag(),
                                     DeadlineIn(kOpTimeoutS))
                    : transport.Send(peer, Bytes(&ack, 8), AckTag(),
                                     DeadlineIn(kOpTimeoutS));
    case Op::kPingPong:
      for (uint64_t i = 0; i < command.iterations; ++i) {
        const auto start = Clock::now();
        const Deadline deadline = DeadlineIn(kOpTimeoutS);
        if (leader) {
          PJRTX_RETURN_IF_ERROR(
              transport.Send(peer, Bytes(data, bytes), DataTag(), deadline));
          PJRTX_RETURN_IF_ERROR(transport.Recv(peer, MutableBytes(data, bytes),
                                               DataTag(), deadline));
        } else {
          PJRTX_RETURN_IF_ERROR(transport.Recv(peer, MutableBytes(data, bytes),
                                               DataTag(), deadline));
          PJRTX_RETURN_IF_ERROR(
              transport.Send(peer, Bytes(data, bytes), DataTag(), deadline));
        }
        if (times != nullptr) times->push_back(Seconds(start));
      }
      return absl::OkStatus();
    case Op::kAllReduce:
    case Op::kCheck: {
      const bool check = static_cast<Op>(command.op) == Op::kCheck;
      const Algorithm& algorithm = kAlgorithms[command.algorithm % 2];
      if (check)
        std::fill(buffer.begin(), buffer.begin() + bytes / 4,
                  leader ? 1.0f : 2.0f);
      const uint64_t iterations = check ? 1 : command.iterations;
      for (uint64_t i = 0; i < iterations; ++i) {
        const auto start = Clock::now();
        PJRTX_RETURN_IF_ERROR(
            algorithm.fn(transport, ReduceOp::kSum, PJRTX_Buffer_Type_F32,
                         buffer.data(), bytes / 4, kDataCommunicator,
                         static_cast<uint32_t>(command.sequence + i),
                         DeadlineIn(kOpTimeoutS)));
        if (times != nullptr) times->push_back(Seconds(start));
      }
      if (!check) return absl::OkStatus();
      uint64_t right = 1;
      for (size_t i = 0; i < bytes / 4; ++i) right &= buffer[i] == 3.0f;
      std::fill(buffer.begin(), buffer.begin() + bytes / 4, 0.0f);
      if (leader) {
        PJRTX_RETURN_IF_ERROR(transport.Recv(
            peer, MutableBytes(&ack, 8), AckTag(), DeadlineIn(kOpTimeoutS)));
        if (right != 1 || ack != 1)
          return absl::InternalError(absl::StrCat(
              algorithm.name, " all-reduce of ", bytes,
              " bytes over UCX gave a wrong sum on rank ", right ? 1 : 0));
        return absl::OkStatus();
      }
      return transport.Send(peer, Bytes(&right, 8), AckTag(),
                            DeadlineIn(kOpTimeoutS));
    }
    case Op::kQuit:
      return absl::OkStatus();
  }
  return absl::InvalidArgumentError("unknown command");
}

absl::StatusOr<std::unique_ptr<pjrtx::collectives::UcxTransport>> MakeTransport(
    pjrtx::KeyValueStore& store, int rank) {
  pjrtx::collectives::UcxTransport::Options options;
  options.context_options.transports = "tcp,self";
  options.connect_timeout_ms = 30000;
  return pjrtx::collectives::UcxTransport::Create(store, "collectives_bench",
                                                  rank, 2, std::move(options));
}

int RunRankOne(const Flags& flags) {
  auto store = pjrtx::TcpKeyValueStore::Connect(flags.coordinator, 30000);
  if (!store.ok()) {
    std::fprintf(stderr, "error: rank 1: %s\n",
                 store.status().ToString().c_str());
    return 1;
  }
  auto transport = MakeTransport(**store, 1);
  if (!transport.ok()) {
    std::fprintf(stderr, "error: rank 1: %s\n",
                 transport.status().ToString().c_str());
    return 1;
  }
  std::vector<float> buffer(kMaxBytes / 4, 0.0f);
  while (true) {
    Command command{};
    // Rank 0 may spend a while on anchors between commands.
    absl::Status s = (*transport)
                         ->Recv(0, MutableBytes(&command, sizeof(command)),
                                ControlTag(), DeadlineIn(600));
    if (!s.ok()) {
      std::fprintf(stderr, "error: rank 1: waiting for a command: %s\n",
                   s.ToString().c_str());
      return 1;
    }
    if (static_cast<Op>(command.op) == Op::kQuit) return 0;
    if (command.bytes > static_cast<uint64_t>(kMaxBytes)) return 1;
    s = Execute(**transport, command, buffer, nullptr);
    if (!s.ok()) {
      std::fprintf(stderr, "error: rank 1: %s\n", s.ToString().c_str());
      return 1;
    }
  }
}

// Rank 0's side: issues commands to rank 1 and measures.
class Driver {
 public:
  explicit Driver(Transport& transport)
      : transport_(transport), buffer_(kMaxBytes / 4, 0.0f) {}

  // Runs `command` on both ranks; fills per-operation times where the
  // operation records them. Prints the error and returns false on failure.
  bool Run(Command command, std::vector<double>* times) {
    command.sequence = sequence_;
    if (static_cast<Op>(command.op) == Op::kAllReduce ||
        static_cast<Op>(command.op) == Op::kCheck)
      sequence_ += static_cast<uint32_t>(command.iterations);
    absl::Status s = transport_.Send(1, Bytes(&command, sizeof(command)),
                                     ControlTag(), DeadlineIn(kOpTimeoutS));
    if (s.ok()) s = Execute(transport_, command, buffer_, times);
    if (!s.ok()) {
      std::fprintf(stderr, "error: rank 0: %s\n", s.ToString().c_str());
      return false;
    }
    return true;
  }

  // Seconds per message of a one-way stream of `iterations` messages.
  std::optional<double> Stream(int64_t bytes, int iterations) {
    const auto start = Clock::now();
    if (!Run({static_cast<uint32_t>(Op::kStream), 0, 0, 0,
              static_cast<uint64_t>(bytes), static_cast<uint64_t>(iterations)},
             nullptr))
      return std::nullopt;
    return Seconds(start) / iterations;
  }

  // Median round trip.
  std::optional<double> PingPong(int64_t bytes, int iterations) {
    std::vector<double> times;
    if (!Run({static_cast<uint32_t>(Op::kPingPong), 0, 0, 0,
              static_cast<uint64_t>(bytes), static_cast<uint64_t>(iterations)},
             &times))
      return std::nullopt;
    return Median(times);
  }

  // Median all-reduce time.
  std::optional<double> AllReduce(int algorithm, int64_t bytes,
                                  int iterations) {
    std::vector<double> times;
    if (!Run({static_cast<uint32_t>(Op::kAllReduce),
              static_cast<uint32_t>(algorithm), 0, 0,
              static_cast<uint64_t>(bytes), static_cast<uint64_t>(iterations)},
             &times))
      return std::nullopt;
    return Median(times);
  }

  bool Check(int algorithm, int64_t bytes) {
    return Run(
        {static_cast<uint32_t>(Op::kCheck), static_cast<uint32_t>(algorithm), 0,
         0, static_cast<uint64_t>(bytes), 1},
        nullptr);
  }

  void Quit() {
    Command command{static_cast<uint32_t>(Op::kQuit), 0, 0, 0, 0, 0};
    (void)transport_.Send(1, Bytes(&command, sizeof(command)), ControlTag(),
                          DeadlineIn(10));
  }

 private:
  Transport& transport_;
  std::vector<float> buffer_;
  uint32_t sequence_ = 1;
};

// Drives the plugin-level job (communicator_rank.h): one tpu_emu chip per
// process, collectives through the C ABI, staging included.
class CommunicatorDriver {
 public:
  explicit CommunicatorDriver(pjrtx::TcpKeyValueStore& store) : store_(store) {}

  // Median seconds of `iterations` all-reduces.
  std::optional<double> AllReduce(int64_t bytes, int iterations) {
    std::optional<std::vector<double>> times =
        Ask(absl::StrCat("allreduce ", bytes, " ", iterations));
    if (!times) return std::nullopt;
    return Median(*times);
  }

  // Seconds per message of a one-way stream.
  std::optional<double> Stream(int64_t bytes, int iterations) {
    std::optional<std::vector<double>> seconds =
        Ask(absl::StrCat("sendrecv ", bytes, " ", iterations));
    if (!seconds || seconds->size() != 1) return std::nullopt;
    return (*seconds)[0];
  }

  void Quit() { (void)store_.Put(pjrtx::bench::CommandKey(next_++), "quit"); }

 private:
  std::optional<std::vector<double>> Ask(const std::string& command) {
    const int index = next_++;
    absl::Status put = store_.Put(pjrtx::bench::CommandKey(index), command);
    absl::StatusOr<std::string> answer =
        put.ok() ? store_.Get(pjrtx::bench::ResultKey(index), 600'000)
                 : absl::StatusOr<std::string>(put);
    if (!answer.ok() || absl::StartsWith(*answer, "error:")) {
      std::fprintf(
          stderr, "error: communicator job, '%s': %s\n", command.c_str(),
          answer.ok() ? answer->c_str() : answer.status().ToString().c_str());
      return std::nullopt;
    }
    std::vector<double> values;
    for (absl::string_view word : absl::StrSplit(*answer, ' ')) {
      double v;
      if (!absl::SimpleAtod(word, &v)) return std::nullopt;
      values.push_back(v);
    }
    return values;
  }

  pjrtx::TcpKeyValueStore& store_;
  int next_ = 0;
};

// The fields of ucx_perftest's "Final:" line: iterations, overhead (us)
// 50th percentile, average, overall; bandwidth (MiB/s) average, overall;
// message rate average, overall.
std::optional<std::vector<double>> PerftestFinal(const std::string& output) {
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    if (!absl::StartsWith(line, "Final:")) continue;
    std::vector<double> fields;
    for (absl::string_view word :
         absl::StrSplit(line.substr(6), ' ', absl::SkipEmpty())) {
      double v;
      if (!absl::SimpleAtod(word, &v)) return std::nullopt;
      fields.push_back(v);
    }
    if (fields.size() == 8) return fields;
  }
  return std::nullopt;
}

// One ucx_perftest run over tcp on 127.0.0.1: server, then client; returns
// the Final fields.
std::optional<std::vector<double>> RunPerftest(const std::string& perftest,
                                               const std::string& test,
                                               int64_t bytes, int iterations) {
  const std::vector<std::string> env = {"UCX_TLS=tcp,self"};
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string port = absl::StrCat(FreePort());
    int server_fd = -1;
    // Its stdout is a pipe, hence block-buffered: stdbuf makes it line-
    // buffered so that "Waiting for connection" arrives when printed.
    std::vector<std::string> server_argv = {perftest, "-p", port};
    if (Executable("stdbuf"))
      server_argv.insert(server_argv.begin(), {"stdbuf", "-oL"});
    const pid_t server = Spawn(server_argv, env, &server_fd);
    if (server < 0) return std::nullopt;
    std::string server_output;
    if (!ReadUntil(server_fd, &server_output,
                   server_argv[0] == "stdbuf" ? "Waiting for connection" : "",
                   Clock::now() + std::chrono::seconds(
                                      server_argv[0] == "stdbuf" ? 20 : 1)) &&
        server_argv[0] == "stdbuf") {
      close(server_fd);
      WaitChild(server, Clock::now());
      std::fprintf(stderr, "warning: ucx_perftest server did not start: %s\n",
                   server_output.c_str());
      continue;
    }
    // -O 1: one send in flight, as in the subject's stream.
    std::optional<std::string> output = RunCapture(
        {perftest, "127.0.0.1", "-p", port, "-t", test, "-s",
         absl::StrCat(bytes), "-n", absl::StrCat(iterations), "-O", "1"},
        env, 120);
    ReadUntil(server_fd, &server_output, "",
              Clock::now() + std::chrono::seconds(5));
    close(server_fd);
    WaitChild(server, Clock::now() + std::chrono::seconds(5));
    if (!output) continue;
    std::optional<std::vector<double>> fields = PerftestFinal(*output);
    if (!fields) {
      std::fprintf(stderr, "error: no Final line in ucx_perftest output:\n%s\n",
                   output->c_str());
      return std::nullopt;
    }
    return fields;
  }
  std::fprintf(stderr, "error: ucx_perftest %s failed 3 times\n", test.c_str());
  return std::nullopt;
}

// Median seconds of one MPI_Allreduce from the anchor program's line.
std::optional<double> RunMpiAnchor(const std::vector<std::string>& mpirun_argv,
                                   int64_t bytes, int iterations) {
  std::vector<std::string> argv = mpirun_argv;
  argv.push_back(absl::StrCat(bytes));
  argv.push_back(absl::StrCat(iterations));
  std::optional<std::string> output = RunCapture(argv, {}, 120);
  if (!output) return std::nullopt;
  for (absl::string_view line : absl::StrSplit(*output, '\n')) {
    if (!absl::StartsWith(line, "MPI_ALLREDUCE_ANCHOR")) continue;
    const size_t at = line.find("median_us=");
    double us;
    if (at == absl::string_view::npos) break;
    absl::string_view value = line.substr(at + 10);
    value = value.substr(0, value.find(' '));
    if (absl::SimpleAtod(value, &us)) return us * 1e-6;
  }
  std::fprintf(stderr, "error: no MPI_ALLREDUCE_ANCHOR line in:\n%s\n",
               output->c_str());
  return std::nullopt;
}

std::string Pass(bool pass) { return pass ? "pass=yes" : "pass=no"; }

bool RunUcx(const Flags& flags, const std::string& self) {
  const bool quick = flags.quick;
  const int trials = quick ? 5 : 7;
  std::printf(
      "collectives_bench part 2: 2 processes over UCX tcp on 127.0.0.1 "
      "(UcxTransport), ratio = anchor time / subject time (>1: faster)\n");
  std::fflush(stdout);

  Progress("starting the key-value server and rank 1");
  auto server = pjrtx::KeyValueServer::Start("127.0.0.1:0");
  if (!server.ok()) {
    std::fprintf(stderr, "error: %s\n", server.status().ToString().c_str());
    return false;
  }
  std::vector<std::string> child_argv = {
      self, "--rank=1", absl::StrCat("--coordinator=", (*server)->address())};
  const pid_t child = Spawn(child_argv, {}, nullptr);
  if (child < 0) {
    std::fprintf(stderr, "error: cannot start rank 1 (%s)\n", self.c_str());
    return false;
  }
  auto store = pjrtx::TcpKeyValueStore::Connect((*server)->address(), 10000);
  if (!store.ok()) {
    std::fprintf(stderr, "error: %s\n", store.status().ToString().c_str());
    return false;
  }
  auto transport = MakeTransport(**store, 0);
  if (!transport.ok()) {
    std::fprintf(stderr, "error: rank 0: %s\n",
                 transport.status().ToString().c_str());
    return false;
  }
  Driver driver(**transport);
  bool ok = true;
  struct Result {
    std::string name;
    RatioResult ratio;
    std::string extra;
  };
  std::vector<Result> results;  // Printed at the end, together.

  // Correctness first.
  for (int a = 0; a < 2 && ok; ++a) {
    for (int64_t bytes : {int64_t{8}, int64_t{16} << 20}) {
      if (!driver.Check(a, bytes)) ok = false;
    }
  }

  const bool have_perftest = Executable(flags.perftest);
  if (!have_perftest)
    std::printf("SKIP ucx_perftest: %s not found (Debian package ucx-utils)\n",
                flags.perftest.c_str());

  // The plugin-level job: tpu_emu chips, one per process, collectives
  // through the C ABI with staging; the bars apply to it. The transport
  // alone (UcxTransport over host memory) is measured beside it.
  std::string plugin = flags.plugin;
  if (plugin.empty()) {
    plugin = self.substr(0, self.rfind('/') + 1) +
             "../../plugins/tpu_emu/libpjrt_tpuemu.so";
  }
  const bool have_plugin = access(plugin.c_str(), R_OK) == 0;
  if (!have_plugin) {
    std::printf("SKIP plugin-level figures: %s not found (--plugin=PATH)\n",
                plugin.c_str());
  }
  for (int r = 0; r < 2 && have_plugin; ++r) {
    const pid_t rank =
        Spawn({self, absl::StrCat("--communicator-rank=", r),
               absl::StrCat("--coordinator=", (*server)->address()),
               absl::StrCat("--plugin=", plugin)},
              {}, nullptr);
    if (rank < 0) {
      std::fprintf(stderr, "error: cannot start communicator rank %d\n", r);
      return false;
    }
  }
  CommunicatorDriver communicator(**store);

  // Send/recv 1 MiB bandwidth against ucx_perftest tag_bw.
  const int64_t kBwBytes = 1 << 20;
  const int bw_iterations = quick ? 200 : 2000;
  if (ok) {
    Progress(absl::StrCat("send/recv ", SizeName(kBwBytes), " x", bw_iterations,
                          have_perftest ? " vs ucx_perftest tag_bw" : ""));
    std::vector<Measure> measures = {
        [&] { return driver.Stream(kBwBytes, bw_iterations); }};
    const int perftest_at = static_cast<int>(measures.size());
    if (have_perftest) {
      measures.push_back([&]() -> std::optional<double> {
        auto f = RunPerftest(flags.perftest, "tag_bw", kBwBytes, bw_iterations);
        if (!f) return std::nullopt;
        return (*f)[3] * 1e-6;  // Overall overhead: seconds per message.
      });
    }
    const int plugin_at = static_cast<int>(measures.size());
    if (have_plugin) {
      measures.push_back(
          [&] { return communicator.Stream(kBwBytes, bw_iterations); });
    }
    std::optional<Samples> s = AlternateMeasures(measures, trials);
    if (!s) {
      ok = false;
    } else {
      const double perftest =
          have_perftest ? Median(s->seconds[perftest_at]) : 0;
      PrintTableHeader("send/recv over UCX tcp, 2 processes (busbw = algbw)");
      PrintRow(kBwBytes, "transport", Median(s->seconds[0]), 1.0, perftest);
      if (have_plugin) {
        PrintRow(kBwBytes, "tpu_emu chips", Median(s->seconds[plugin_at]), 1.0,
                 perftest);
      }
      if (have_perftest && have_plugin) {
        RatioResult r = RatioOf(*s, plugin_at, perftest_at, 1.0);
        results.push_back(
            {"collectives.ucx2.sendrecv_bw.1MiB", r,
             absl::StrFormat("GBps=%.3f perftest_GBps=%.3f iterations=%d "
                             "path=plugin bar=0.8 %s",
                             kBwBytes / r.subject_seconds / 1e9,
                             kBwBytes / r.anchor_seconds / 1e9, bw_iterations,
                             Pass(r.median_ratio >= 0.8))});
      }
      if (have_perftest) {
        RatioResult r = RatioOf(*s, 0, perftest_at, 1.0);
        results.push_back(
            {"collectives.ucx2.transport_sendrecv_bw.1MiB", r,
             absl::StrFormat("GBps=%.3f perftest_GBps=%.3f iterations=%d",
                             kBwBytes / r.subject_seconds / 1e9,
                             kBwBytes / r.anchor_seconds / 1e9,
                             bw_iterations)});
      }
    }
  }

  // 8 B round trip and 8 B all-reduce against ucx_perftest tag_lat.
  const int lat_iterations = quick ? 2000 : 20000;
  if (ok) {
    Progress(absl::StrCat("8 B ping-pong and 8 B all-reduce x", lat_iterations,
                          have_perftest ? " vs ucx_perftest tag_lat" : ""));
    std::vector<Measure> measures = {
        [&] { return driver.PingPong(8, lat_iterations); },
        [&] { return driver.AllReduce(0, 8, lat_iterations); }};
    const int perftest_at = static_cast<int>(measures.size());
    if (have_perftest) {
      measures.push_back([&]() -> std::optional<double> {
        auto f = RunPerftest(flags.perftest, "tag_lat", 8, lat_iterations);
        if (!f) return std::nullopt;
        return (*f)[1] * 1e-6;  // Median one-way latency.
      });
    }
    const int plugin_at = static_cast<int>(measures.size());
    if (have_plugin) {
      measures.push_back(
          [&] { return communicator.AllReduce(8, lat_iterations); });
    }
    std::optional<Samples> s = AlternateMeasures(measures, trials);
    if (!s) {
      ok = false;
    } else {
      PrintTableHeader(
          "8 B latency over UCX tcp, 2 processes (medians; anchor = "
          "ucx_perftest tag_lat round trip = 2 x one-way)");
      const double rtt =
          have_perftest ? 2 * Median(s->seconds[perftest_at]) : 0;
      PrintRow(8, "ping-pong rtt", Median(s->seconds[0]), 1.0, rtt);
      PrintRow(8, "transport ring", Median(s->seconds[1]), 1.0, rtt);
      if (have_plugin) {
        PrintRow(8, "tpu_emu chips", Median(s->seconds[plugin_at]), 1.0, rtt);
      }
      if (have_perftest) {
        RatioResult p = RatioOf(*s, 0, perftest_at, 2.0);
        results.push_back(
            {"collectives.ucx2.pingpong_rtt.8B", p,
             absl::StrFormat("us=%.2f "
                             "perftest_rtt_us=%.2f iterations=%d",
                             p.subject_seconds * 1e6, p.anchor_seconds * 1e6,
                             lat_iterations)});
        RatioResult t = RatioOf(*s, 1, perftest_at, 2.0);
        results.push_back(
            {"collectives.ucx2.transport_allreduce_vs_tag_rtt.8B", t,
             absl::StrFormat("us=%.2f perftest_rtt_us=%.2f times_rtt=%.2f",
                             t.subject_seconds * 1e6, t.anchor_seconds * 1e6,
                             1 / t.median_ratio)});
      }
      if (have_perftest && have_plugin) {
        RatioResult a = RatioOf(*s, plugin_at, perftest_at, 2.0);
        results.push_back(
            {"collectives.ucx2.allreduce_vs_tag_rtt.8B", a,
             absl::StrFormat("us=%.2f perftest_rtt_us=%.2f times_rtt=%.2f "
                             "path=plugin bar=0.333 %s",
                             a.subject_seconds * 1e6, a.anchor_seconds * 1e6,
                             1 / a.median_ratio,
                             Pass(a.median_ratio >= 1.0 / 3))});
      }
    }
  }

  // All-reduce of 16 MiB against OpenMPI.
  std::string mpi_anchor = flags.mpi_anchor;
  if (mpi_anchor.empty())
    mpi_anchor = self.substr(0, self.rfind('/') + 1) + "mpi_allreduce_anchor";
  const bool have_mpi = Executable(flags.mpirun) && Executable(mpi_anchor);
  if (!have_mpi)
    std::printf("SKIP openmpi: %s\n",
                Executable(flags.mpirun)
                    ? (mpi_anchor + " not built (needs MPI)").c_str()
                    : (flags.mpirun + " not found (openmpi-bin)").c_str());
  std::vector<std::string> mpirun_argv = {flags.mpirun};
  if (geteuid() == 0) mpirun_argv.push_back("--allow-run-as-root");
  for (const char* a :
       {"-n", "2", "--bind-to", "core", "--oversubscribe", "--mca", "pml",
        "ob1", "--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"})
    mpirun_argv.push_back(a);
  mpirun_argv.push_back(mpi_anchor);
  const int64_t kAllReduceBytes = 16 << 20;
  const int ar_iterations = quick ? 10 : 50;
  if (ok) {
    Progress(absl::StrCat("all-reduce ", SizeName(kAllReduceBytes), " x",
                          ar_iterations,
                          have_mpi ? " vs OpenMPI MPI_Allreduce" : ""));
    std::vector<Measure> measures = {
        [&] { return driver.AllReduce(0, kAllReduceBytes, ar_iterations); }};
    const int mpi_at = static_cast<int>(measures.size());
    if (have_mpi) {
      measures.push_back([&] {
        return RunMpiAnchor(mpirun_argv, kAllReduceBytes, ar_iterations);
      });
    }
    const int plugin_at = static_cast<int>(measures.size());
    if (have_plugin) {
      measures.push_back([&] {
        return communicator.AllReduce(kAllReduceBytes, ar_iterations);
      });
    }
    std::optional<Samples> s = AlternateMeasures(measures, trials);
    if (!s) {
      ok = false;
    } else {
      PrintTableHeader(
          "all-reduce over UCX tcp, 2 processes (medians; anchor = OpenMPI "
          "ob1/tcp MPI_Allreduce; busbw = algbw for n = 2)");
      const double mpi = have_mpi ? Median(s->seconds[mpi_at]) : 0;
      PrintRow(kAllReduceBytes, "transport ring", Median(s->seconds[0]), 1.0,
               mpi);
      if (have_plugin) {
        PrintRow(kAllReduceBytes, "tpu_emu chips",
                 Median(s->seconds[plugin_at]), 1.0, mpi);
      }
      if (have_mpi) {
        RatioResult t = RatioOf(*s, 0, mpi_at, 1.0);
        results.push_back(
            {"collectives.ucx2.transport_allreduce_ring.16MiB_vs_openmpi", t,
             absl::StrFormat("ms=%.3f openmpi_ms=%.3f", t.subject_seconds * 1e3,
                             t.anchor_seconds * 1e3)});
      }
      if (have_mpi && have_plugin) {
        RatioResult r = RatioOf(*s, plugin_at, mpi_at, 1.0);
        results.push_back(
            {"collectives.ucx2.allreduce.16MiB_vs_openmpi", r,
             absl::StrFormat("ms=%.3f openmpi_ms=%.3f busbw_GBps=%.3f "
                             "openmpi_busbw_GBps=%.3f path=plugin bar=1.0 %s",
                             r.subject_seconds * 1e3, r.anchor_seconds * 1e3,
                             kAllReduceBytes / r.subject_seconds / 1e9,
                             kAllReduceBytes / r.anchor_seconds / 1e9,
                             Pass(r.median_ratio >= 1.0))});
      }
    }
  }
  if (have_plugin) communicator.Quit();

  // Sweeps (full mode only): subject figures, no anchor.
  if (ok && !quick) {
    PrintTableHeader("sweep: send/recv over UCX tcp, 2 processes");
    for (int64_t bytes = 8; bytes <= kMaxBytes && ok; bytes *= 8) {
      const int iterations = static_cast<int>(
          std::clamp<int64_t>((int64_t{512} << 20) / bytes, 4, 10000));
      Progress(absl::StrCat("sweep send/recv ", SizeName(bytes)));
      std::optional<double> t = driver.Stream(bytes, iterations);
      if (!t)
        ok = false;
      else
        PrintRow(bytes, "send/recv", *t, 1.0, 0);
    }
    PrintTableHeader("sweep: all-reduce over UCX tcp, 2 processes (medians)");
    for (int64_t bytes = 8; bytes <= kMaxBytes && ok; bytes *= 8) {
      const int iterations = static_cast<int>(
          std::clamp<int64_t>((int64_t{512} << 20) / bytes, 4, 5000));
      for (int a = 0; a < 2 && ok; ++a) {
        Progress(absl::StrCat("sweep ", kAlgorithms[a].name, " all-reduce ",
                              SizeName(bytes)));
        std::optional<double> t = driver.AllReduce(a, bytes, iterations);
        if (!t)
          ok = false;
        else
          PrintRow(bytes, kAlgorithms[a].name, *t, 1.0, 0);
      }
    }
  }

  for (const Result& result : results)
    PrintResult(result.name, result.ratio, result.extra);

  driver.Quit();
  transport->reset();
  const int rc = WaitChild(child, Clock::now() + std::chrono::seconds(15));
  if (rc != 0) {
    std::fprintf(stderr, "error: rank 1 exited with %d\n", rc);
    ok = false;
  }
  return ok;
}

bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    auto value = [&](absl::string_view prefix, std::string* out) {
      if (!absl::StartsWith(arg, prefix)) return false;
      *out = std::string(arg.substr(prefix.size()));
      return true;
    };
    std::string rank;
    if (arg == "--quick") {
      flags->quick = true;
    } else if (arg == "--skip-inprocess") {
      flags->skip_inprocess = true;
    } else if (arg == "--skip-ucx") {
      flags->skip_ucx = true;
    } else if (value("--rank=", &rank)) {
      if (!absl::SimpleAtoi(rank, &flags->rank) || flags->rank < 0 ||
          flags->rank > 1)
        return false;
    } else if (value("--communicator-rank=", &rank)) {
      if (!absl::SimpleAtoi(rank, &flags->communicator_rank) ||
          flags->communicator_rank < 0 || flags->communicator_rank > 1)
        return false;
    } else if (value("--coordinator=", &flags->coordinator) ||
               value("--plugin=", &flags->plugin) ||
               value("--perftest=", &flags->perftest) ||
               value("--mpirun=", &flags->mpirun) ||
               value("--mpi-anchor=", &flags->mpi_anchor)) {
    } else {
      return false;
    }
  }
  const bool child = flags->rank == 1 || flags->communicator_rank >= 0;
  return !child || !flags->coordinator.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) {
    std::fprintf(stderr,
                 "usage: %s [--quick] [--perftest=PATH] [--mpirun=PATH] "
                 "[--mpi-anchor=PATH] [--plugin=PATH] [--skip-inprocess] "
                 "[--skip-ucx]\n"
                 "       (rank 1, started by rank 0: --rank=1 "
                 "--coordinator=HOST:PORT)\n",
                 argv[0]);
    return 2;
  }
  if (flags.rank == 1) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return RunRankOne(flags);
  }
  if (flags.communicator_rank >= 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return pjrtx::bench::RunCommunicatorRank(flags.plugin, flags.coordinator,
                                             flags.communicator_rank);
  }
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  signal(SIGPIPE, SIG_IGN);
  std::atexit(KillChildren);

  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    std::fprintf(stderr, "error: cannot read /proc/self/exe\n");
    return 1;
  }
  self[n] = '\0';
  std::printf("collectives_bench%s\n", flags.quick ? " --quick" : "");
  bool ok = true;
  if (!flags.skip_inprocess) ok = RunInProcess(flags.quick) && ok;
  if (ok && !flags.skip_ucx) ok = RunUcx(flags, self) && ok;
  KillChildren();
  if (!ok) {
    std::fprintf(stderr, "error: collectives_bench failed\n");
    return 1;
  }
  return 0;
}
