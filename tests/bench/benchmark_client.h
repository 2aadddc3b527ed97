// The command line every benchmark takes, and the client it makes.
#ifndef PJRTX_TESTS_BENCH_BENCHMARK_CLIENT_H_
#define PJRTX_TESTS_BENCH_BENCHMARK_CLIENT_H_

#include <memory>
#include <optional>
#include <vector>

#include "runtime/client/client.h"

namespace pjrtx::bench {

struct BenchmarkClient {
  std::unique_ptr<client::Client> client;
  bool quick = false;  // --quick: small sizes, for the CTest smoke run.
};

// Parses `NAME --plugin=PATH [--option k=v]... [--quick]`, loads the
// plugin and creates a client with the options, plus `defaults` for any
// option not given. On failure prints why (usage errors name NAME) and
// stores the exit code: 2 for bad usage or options, 1 otherwise.
std::optional<BenchmarkClient> OpenBenchmarkClient(
    int argc, char** argv, const std::vector<client::NamedValue>& defaults,
    int* exit_code);

}  // namespace pjrtx::bench

#endif  // PJRTX_TESTS_BENCH_BENCHMARK_CLIENT_H_
