#include "tests/bench/communicator_rank.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/communicator.h"
#include "runtime/client/plugin_library.h"
#include "runtime/coordination/client_key_value.h"
#include "runtime/coordination/tcp_key_value_store.h"
#include "support/status_macros.h"

namespace pjrtx::bench {
namespace {

using client::Buffer;
using client::Communicator;
using Clock = std::chrono::steady_clock;

// Long enough for the anchors the driver runs between two commands.
constexpr int64_t kCommandTimeoutMs = 600'000;
constexpr int64_t kOperationTimeoutMs = 60'000;
// Messages a stream keeps in flight; ucx_perftest's anchor runs with the
// same (-O 1).
constexpr int kWindow = 1;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class Rank {
 public:
  Rank(int rank, client::Client client, Communicator communicator)
      : rank_(rank),
        client_(std::move(client)),
        communicator_(std::move(communicator)),
        device_(client_.addressable_devices().front()) {}

  absl::StatusOr<Buffer> Input(int64_t bytes) {
    std::vector<float> data(bytes / 4, 1.0f + rank_);
    return client_.BufferFromHost(data.data(), PJRTX_Buffer_Type_F32,
                                  {static_cast<int64_t>(data.size())}, device_);
  }

  // Seconds of each all-reduce, issue to completion.
  absl::StatusOr<std::vector<double>> AllReduce(int64_t bytes, int iterations) {
    PJRTX_ASSIGN_OR_RETURN(Buffer input, Input(bytes));
    std::vector<double> times;
    for (int i = 0; i < iterations; ++i) {
      const Clock::time_point start = Clock::now();
      PJRTX_ASSIGN_OR_RETURN(
          Communicator::Result result,
          communicator_.AllReduce({&input}, PJRTX_ReduceOp_SUM));
      if (absl::Status s = result.done[0].Await(); !s.ok()) return s;
      times.push_back(Seconds(start));
    }
    return times;
  }

  // Rank 0 sends `iterations` messages to rank 1, one in flight; an 8-byte
  // all-reduce then tells rank 0 that rank 1 has them all. Seconds per
  // message.
  absl::StatusOr<double> Stream(int64_t bytes, int iterations, int window) {
    PJRTX_ASSIGN_OR_RETURN(Buffer input, Input(bytes));
    const std::vector<int64_t> send_to = {rank_ == 0 ? 1 : -1};
    const std::vector<int64_t> recv_from = {rank_ == 0 ? -1 : 0};
    const Clock::time_point start = Clock::now();
    std::deque<Communicator::Result> in_flight;
    for (int i = 0; i < iterations; ++i) {
      PJRTX_ASSIGN_OR_RETURN(
          Communicator::Result result,
          communicator_.SendRecv({&input}, send_to, recv_from));
      in_flight.push_back(std::move(result));
      if (static_cast<int>(in_flight.size()) < window) continue;
      if (absl::Status s = in_flight.front().done[0].Await(); !s.ok()) {
        return s;
      }
      in_flight.pop_front();
    }
    for (const Communicator::Result& result : in_flight) {
      if (absl::Status s = result.done[0].Await(); !s.ok()) return s;
    }
    PJRTX_RETURN_IF_ERROR(AllReduce(8, 1).status());
    return Seconds(start) / iterations;
  }

 private:
  const int rank_;
  client::Client client_;
  Communicator communicator_;
  client::Device device_;
};

// Runs one command line; the answer for the driver.
std::string Execute(Rank& rank, const std::string& command) {
  std::vector<std::string> words = absl::StrSplit(command, ' ');
  int64_t bytes = 0;
  int iterations = 0;
  if (words.size() != 3 || !absl::SimpleAtoi(words[1], &bytes) ||
      !absl::SimpleAtoi(words[2], &iterations) || bytes < 4 || bytes % 4 != 0 ||
      iterations < 1) {
    return absl::StrCat("error: bad command '", command, "'");
  }
  if (words[0] == "allreduce") {
    absl::StatusOr<std::vector<double>> times =
        rank.AllReduce(bytes, iterations);
    if (!times.ok()) return absl::StrCat("error: ", times.status().ToString());
    return absl::StrJoin(*times, " ");
  }
  if (words[0] == "sendrecv") {
    absl::StatusOr<double> seconds = rank.Stream(bytes, iterations, kWindow);
    if (!seconds.ok()) {
      return absl::StrCat("error: ", seconds.status().ToString());
    }
    return absl::StrCat(*seconds);
  }
  return absl::StrCat("error: unknown command '", command, "'");
}

}  // namespace

std::string CommandKey(int index) {
  return absl::StrCat("bench/command/", index);
}
std::string ResultKey(int index) {
  return absl::StrCat("bench/result/", index);
}

int RunCommunicatorRank(const std::string& plugin,
                        const std::string& coordinator, int rank) {
  auto fail = [rank](const absl::Status& status) {
    std::fprintf(stderr, "error: communicator rank %d: %s\n", rank,
                 status.ToString().c_str());
    return 1;
  };
  auto store = TcpKeyValueStore::Connect(coordinator, 30'000);
  if (!store.ok()) return fail(store.status());
  std::shared_ptr<TcpKeyValueStore> shared = *std::move(store);
  auto library = client::PluginLibrary::Load(plugin);
  if (!library.ok()) return fail(library.status());
  // One chip per process, each its own slice: every byte between the ranks
  // crosses DCN and is staged through host memory.
  auto made = client::Client::Create(*library,
                                     {{"topology", std::string("v5e:1x1")},
                                      {"num_slices", int64_t{2}},
                                      {"slice_index", int64_t{rank}}},
                                     KeyValueCallbacksFor(shared.get()));
  if (!made.ok()) return fail(made.status());
  std::vector<int64_t> ids;
  for (const client::Device& device : made->devices()) {
    ids.push_back(device.id());
  }
  auto communicator = Communicator::Create(*made, ids, kOperationTimeoutMs);
  if (!communicator.ok()) return fail(communicator.status());
  Rank job(rank, *std::move(made), *std::move(communicator));
  for (int index = 0;; ++index) {
    absl::StatusOr<std::string> command =
        shared->Get(CommandKey(index), kCommandTimeoutMs);
    if (!command.ok()) return fail(command.status());
    if (*command == "quit") return 0;
    const std::string answer = Execute(job, *command);
    if (rank == 0) {
      if (absl::Status put = shared->Put(ResultKey(index), answer); !put.ok()) {
        return fail(put);
      }
    } else if (absl::StartsWith(answer, "error:")) {
      std::fprintf(stderr, "communicator rank 1: %s\n", answer.c_str());
    }
  }
}

}  // namespace pjrtx::bench
