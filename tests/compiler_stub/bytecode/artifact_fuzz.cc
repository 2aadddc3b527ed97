// Mutation fuzzing of the compiler's front end with real artifacts: the 135
// jax.export artifacts (and the StableHLO corpus .bc files) mutated with a
// fixed seed — byte flips, truncations, varints made huge, spliced and
// duplicated ranges — and each fed to compiler::Compile (reader, custom
// call policy, lowering). A case must return, OK or an error; a crash, a
// sanitizer report, an uncaught exception, a case running past the
// deadline (the watchdog aborts naming it) or an allocation past the cap
// fails the run. The case that failed is written to --dump for replay.
//
//   artifact_fuzz [--seconds=S] [--cases=N] [--seed=K] [--deadline_ms=D]
//                 [--dump=FILE] [--replay=FILE]
//
// Stops after S seconds or N cases, whichever comes first (defaults: 10 s
// without --cases; no time limit with --cases alone). The allocation cap: under
// AddressSanitizer run with ASAN_OPTIONS=max_allocation_size_mb=512 (the ctest
// entry does); otherwise the program sets RLIMIT_AS to 4 GiB and treats
// std::bad_alloc as a failure.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compiler_stub/bytecode/portable_artifact.h"
#include "compiler_stub/compiler.h"
#include "tests/compiler_stub/bytecode/python_bytes.h"

namespace pjrtx {
namespace {

namespace fs = std::filesystem;

// Set by CMake in sanitizer builds. (Tests there are compiled without
// instrumentation, so __SANITIZE_ADDRESS__ says nothing; the compiler
// libraries they link are instrumented.) ASan reserves terabytes of shadow
// address space, so RLIMIT_AS cannot cap allocations there.
#ifdef PJRTX_FUZZ_UNDER_SANITIZER
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> LoadArtifacts(const fs::path& corpus) {
  std::vector<std::string> artifacts;
  std::vector<fs::path> files;
  const fs::path jax = corpus / "jax-export";
  if (fs::exists(jax)) {
    for (const auto& entry : fs::directory_iterator(jax)) {
      if (entry.path().extension() == ".py") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    absl::StatusOr<std::vector<std::string>> found =
        bytecode_testing::ExtractBytesLiterals(ReadFile(file),
                                               "mlir_module_serialized");
    if (!found.ok()) continue;
    for (std::string& artifact : *found) {
      artifacts.push_back(std::move(artifact));
    }
  }
  // A few StableHLO corpus artifacts too: every op of every version.
  const fs::path vhlo = corpus / "stablehlo-vhlo";
  for (const char* name : {"vhlo_emit_version_api.1_1_0.mlir.bc",
                           "stablehlo_legalize_to_vhlo.0_9_0.mlir.bc",
                           "stablehlo_legalize_to_vhlo.1_20_0.mlir.bc"}) {
    if (fs::exists(vhlo / name)) artifacts.push_back(ReadFile(vhlo / name));
  }
  return artifacts;
}

// A prefix varint (MLIR bytecode's encoding) of `value`.
std::string PrefixVarint(uint64_t value) {
  if (value >> 56 != 0) {
    std::string out(1, '\0');
    for (int i = 0; i < 8; ++i) out += static_cast<char>(value >> (8 * i));
    return out;
  }
  int bytes = 1;
  while (bytes < 8 && (value >> (7 * bytes)) != 0) ++bytes;
  const uint64_t encoded = ((value << 1) | 1) << (bytes - 1);
  std::string out;
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(encoded >> (8 * i));
  return out;
}

// One mutant of `artifacts[pick]`.
std::string Mutate(const std::vector<std::string>& artifacts,
                   std::mt19937_64& rng) {
  auto below = [&](uint64_t n) { return n == 0 ? 0 : rng() % n; };
  std::string bytes = artifacts[below(artifacts.size())];
  const int mutations = 1 + static_cast<int>(below(3));
  for (int m = 0; m < mutations && !bytes.empty(); ++m) {
    switch (below(7)) {
      case 0: {  // Byte flips.
        const int flips = 1 + static_cast<int>(below(8));
        for (int i = 0; i < flips; ++i) {
          bytes[below(bytes.size())] ^= static_cast<char>(1 + below(255));
        }
        break;
      }
      case 1:  // Truncation.
        bytes.resize(below(bytes.size()));
        break;
      case 2: {  // A varint made huge (or just large) in place.
        static const uint64_t kValues[] = {0xffffffffffffffffull,
                                           0x7fffffffffffffffull,
                                           1ull << 32,
                                           1ull << 31,
                                           1ull << 20,
                                           65535};
        const std::string varint = PrefixVarint(kValues[below(6)]);
        const size_t at = below(bytes.size());
        bytes.replace(at, std::min(varint.size(), bytes.size() - at), varint);
        break;
      }
      case 3: {  // Splice: the tail of another artifact.
        const std::string& other = artifacts[below(artifacts.size())];
        const size_t at = below(bytes.size());
        bytes = bytes.substr(0, at) + other.substr(below(other.size()));
        break;
      }
      case 4: {  // A range duplicated.
        const size_t at = below(bytes.size());
        const size_t length = below(std::min<size_t>(64, bytes.size() - at));
        bytes.insert(at, bytes.substr(at, length));
        break;
      }
      case 5: {  // A range deleted.
        const size_t at = below(bytes.size());
        bytes.erase(at, below(std::min<size_t>(16, bytes.size() - at)) + 1);
        break;
      }
      default:  // A byte set to a boundary value.
        bytes[below(bytes.size())] =
            static_cast<char>("\x00\x01\x7f\x80\xfe\xff"[below(6)]);
        break;
    }
  }
  return bytes;
}

// What the watchdog needs to name a case that hangs.
std::atomic<int64_t> current_case{-1};
std::atomic<int64_t> case_started_ms{0};
std::atomic<bool> finished{false};
const std::string* current_bytes = nullptr;
std::string dump_path = "artifact_fuzz_failure.bin";

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Dump() {
  // Racy by design when called from the watchdog: the main thread is stuck
  // in the case whose bytes these are.
  if (current_bytes == nullptr) return;
  std::ofstream out(dump_path, std::ios::binary);
  out.write(current_bytes->data(),
            static_cast<std::streamsize>(current_bytes->size()));
  std::fprintf(stderr, "artifact_fuzz: case written to %s\n",
               dump_path.c_str());
}

void Watchdog(int64_t deadline_ms) {
  while (!finished.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const int64_t index = current_case.load();
    if (index >= 0 && NowMs() - case_started_ms.load() > deadline_ms) {
      std::fprintf(
          stderr, "artifact_fuzz: case %lld ran past its %lld ms deadline\n",
          static_cast<long long>(index), static_cast<long long>(deadline_ms));
      Dump();
      std::abort();
    }
  }
}

bool Flag(const char* arg, const char* name, std::string* value) {
  const size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=') return false;
  *value = arg + length + 1;
  return true;
}

int Main(int argc, char** argv) {
  double seconds = -1;  // 10 unless --cases is given alone.
  int64_t max_cases = -1;
  uint64_t seed = 20261128;
  int64_t deadline_ms = 2000;
  std::string replay;
  for (int i = 1; i < argc; ++i) {
    std::string value;
    if (Flag(argv[i], "--seconds", &value)) {
      seconds = std::atof(value.c_str());
    } else if (Flag(argv[i], "--cases", &value)) {
      max_cases = std::atoll(value.c_str());
    } else if (Flag(argv[i], "--seed", &value)) {
      seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (Flag(argv[i], "--deadline_ms", &value)) {
      deadline_ms = std::atoll(value.c_str());
    } else if (Flag(argv[i], "--dump", &value)) {
      dump_path = value;
    } else if (Flag(argv[i], "--replay", &value)) {
      replay = value;
    } else {
      std::fprintf(stderr, "artifact_fuzz: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (seconds < 0) seconds = max_cases < 0 ? 10 : 1e12;
  if (!kAddressSanitizer) {
    // The allocation cap without ASan's max_allocation_size_mb.
    rlimit limit{4ull << 30, 4ull << 30};
    setrlimit(RLIMIT_AS, &limit);
  }
  std::vector<std::string> artifacts;
  if (!replay.empty()) {
    artifacts.push_back(ReadFile(replay));
  } else {
    const char* corpus = std::getenv("PJRTX_STABLEHLO_CORPUS_DIR");
    if (corpus == nullptr) {
      std::printf(
          "artifact_fuzz: no corpus (set PJRTX_STABLEHLO_CORPUS_DIR)\n");
      return 0;
    }
    artifacts = LoadArtifacts(corpus);
    if (artifacts.empty()) {
      std::printf("artifact_fuzz: no artifacts under %s\n", corpus);
      return 0;
    }
  }
  std::thread watchdog(Watchdog, deadline_ms);
  std::mt19937_64 rng(seed);
  const int64_t start = NowMs();
  int64_t cases = 0, compiled = 0;
  while ((max_cases < 0 || cases < max_cases) &&
         NowMs() - start < seconds * 1000) {
    // The originals first, then mutants (a replay runs its one case).
    const std::string bytes = !replay.empty() ? artifacts[0]
                              : cases < static_cast<int64_t>(artifacts.size())
                                  ? artifacts[cases]
                                  : Mutate(artifacts, rng);
    current_bytes = &bytes;
    case_started_ms.store(NowMs());
    current_case.store(cases);
    try {
      compiler::CompileOptions options;
      // Shape-polymorphic entries get argument shapes (each '?' a small
      // random size), so that shape refinement runs on mutants too.
      if (absl::StatusOr<mlir::Module> module =
              bytecode::ReadPortableArtifact(bytes);
          module.ok() && (cases & 1) == 0) {
        for (const mlir::Function& f : module->functions) {
          if (f.name != "main") continue;
          for (const mlir::FunctionArgument& argument : f.arguments) {
            std::vector<int64_t> dims = argument.type.dims;
            for (int64_t& d : dims) {
              if (d < 0) d = static_cast<int64_t>(rng() % 9);
            }
            options.argument_dims.push_back(std::move(dims));
          }
        }
      }
      compiled += compiler::Compile(bytes, options).ok();
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "artifact_fuzz: case %lld allocated past the cap\n",
                   static_cast<long long>(cases));
      Dump();
      std::abort();
    } catch (const std::exception& e) {
      // The compiler reports errors as statuses; an exception is a bug.
      std::fprintf(stderr, "artifact_fuzz: case %lld threw: %s\n",
                   static_cast<long long>(cases), e.what());
      Dump();
      std::abort();
    }
    current_case.store(-1);
    ++cases;
    if (!replay.empty()) break;
  }
  finished.store(true);
  watchdog.join();
  std::printf(
      "artifact_fuzz: %lld cases (%zu originals, %lld compiled) in %.1f s, "
      "seed %llu\n",
      static_cast<long long>(cases), artifacts.size(),
      static_cast<long long>(compiled), (NowMs() - start) / 1000.0,
      static_cast<unsigned long long>(seed));
  return 0;
}

}  // namespace
}  // namespace pjrtx

int main(int argc, char** argv) { return pjrtx::Main(argc, argv); }
