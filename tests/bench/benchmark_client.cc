#include "tests/bench/benchmark_client.h"

#include <cstdio>
#include <string>

namespace pjrtx::bench {

std::optional<BenchmarkClient> OpenBenchmarkClient(
    int argc, char** argv, const std::vector<client::NamedValue>& defaults,
    int* exit_code) {
  std::string plugin;
  std::vector<std::string> option_flags;
  BenchmarkClient result;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--plugin=", 0) == 0) {
      plugin = arg.substr(9);
    } else if (arg == "--option" && i + 1 < argc) {
      option_flags.push_back(argv[++i]);
    } else if (arg == "--quick") {
      result.quick = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s --plugin=PATH [--option k=v]... [--quick]\n",
                   argv[0]);
      *exit_code = 2;
      return std::nullopt;
    }
  }
  auto library = client::PluginLibrary::Load(plugin);
  if (!library.ok()) {
    std::fprintf(stderr, "error: %s\n", library.status().ToString().c_str());
    *exit_code = 1;
    return std::nullopt;
  }
  auto options = client::Client::ParseOptions(**library, option_flags);
  if (!options.ok()) {
    std::fprintf(stderr, "error: %s\n", options.status().ToString().c_str());
    *exit_code = 2;
    return std::nullopt;
  }
  for (const client::NamedValue& d : defaults) {
    bool given = false;
    for (const client::NamedValue& o : *options) given |= o.name == d.name;
    if (!given) options->push_back(d);
  }
  auto made = client::Client::Create(*library, *options);
  if (!made.ok()) {
    std::fprintf(stderr, "error: %s\n", made.status().ToString().c_str());
    *exit_code = 1;
    return std::nullopt;
  }
  result.client = std::make_unique<client::Client>(*std::move(made));
  return result;
}

}  // namespace pjrtx::bench
