#include "runtime/cli/run_mlir_command.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "runtime/cli/corpus_case.h"
#include "runtime/cli/parallel_case.h"
#include "runtime/cli/parallel_runner.h"
#include "runtime/cli/run_program_files.h"
#include "runtime/client/client.h"
#include "runtime/client/status_from_error.h"

namespace pjrtx::cli {
namespace {

using client::Client;
using client::PluginLibrary;
using client::TakeStatus;

constexpr char kUsage[] =
    "usage: pjrtx run-mlir --plugin=PATH [--option name=value]... FILE...\n"
    "   or: pjrtx run-mlir --plugin=PATH [--option name=value]...\n"
    "         [--input=ARG.npy]... --output-dir=DIR PROGRAM\n"
    "The first form runs StableHLO interpreter test files (cases split on\n"
    "'// -----', checked by their check ops). The second compiles one\n"
    "StableHLO program (MLIR text), runs it with the .npy inputs as its\n"
    "arguments, in order, and writes result i to DIR/output_<i>.npy.\n"
    "bfloat16 and float8 arrays are raw items ('V2', 'V1'), as numpy.save\n"
    "writes ml_dtypes arrays.\n";

// A case that runs longer than this is reported failed and ends the run
// (its work cannot be taken back from the device).
constexpr auto kCaseDeadline = std::chrono::seconds(60);

struct Outcome {
  enum class Kind { kPass, kFail, kSkip };
  Kind kind;
  std::string reason;
};

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

class CaseRunner {
 public:
  explicit CaseRunner(Client& client) : client_(client) {}

  Outcome Run(const CorpusCase& c, bool* must_stop) {
    if (absl::StrContains(c.text, "interpreter.run_parallel")) {
      return RunParallel(c, must_stop);
    }
    absl::StatusOr<std::vector<Check>> checks = ReadChecks(c.text);
    if (!checks.ok()) return FromStatus(checks.status());
    const PJRTX_Api* api = client_.api();
    PJRTX_CLIENT_ARGS(PJRTX_Program, program);
    program.code = c.text.data();
    program.code_size = c.text.size();
    program.format = "mlir";
    program.format_size = 4;
    PJRTX_NamedValue option{};
    option.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
    option.name = "checks_as_outputs";
    option.name_size = 17;
    option.type = PJRTX_NamedValue_kBool;
    option.value.bool_value = true;
    option.value_size = 1;
    PJRTX_CLIENT_ARGS(PJRTX_Client_Compile_Args, compile);
    compile.client = client_.handle();
    compile.program = &program;
    compile.compile_options = &option;
    compile.num_compile_options = 1;
    absl::Status status = TakeStatus(api, api->Client_Compile(&compile));
    if (!status.ok()) return FromStatus(status);
    Outcome outcome = Execute(compile.executable, *checks, must_stop);
    PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Destroy_Args, destroy);
    destroy.executable = compile.executable;
    TakeStatus(api, api->LoadedExecutable_Destroy(&destroy)).IgnoreError();
    return outcome;
  }

 private:
  // A launch of several programs: each case gets a launch id of its own.
  Outcome RunParallel(const CorpusCase& c, bool* must_stop) {
    absl::StatusOr<ParallelCase> parallel = ReadParallelCase(c.text);
    if (!parallel.ok()) return FromStatus(parallel.status());
    absl::StatusOr<std::string> mismatch = RunParallelCase(
        client_, c.text, *parallel, ++launch_id_, kCaseDeadline, must_stop);
    if (!mismatch.ok()) return FromStatus(mismatch.status());
    if (!mismatch->empty()) return {Outcome::Kind::kFail, *mismatch};
    return {Outcome::Kind::kPass, ""};
  }

  static Outcome FromStatus(const absl::Status& status) {
    if (status.code() == absl::StatusCode::kUnimplemented) {
      return {Outcome::Kind::kSkip, OneLine(std::string(status.message()))};
    }
    return {Outcome::Kind::kFail,
            OneLine(absl::StrCat(absl::StatusCodeToString(status.code()), ": ",
                                 status.message()))};
  }

  Outcome Execute(PJRTX_LoadedExecutable* executable,
                  const std::vector<Check>& checks, bool* must_stop) {
    const PJRTX_Api* api = client_.api();
    PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Metadata_Args, metadata);
    metadata.executable = executable;
    absl::Status status =
        TakeStatus(api, api->LoadedExecutable_Metadata(&metadata));
    if (!status.ok()) return FromStatus(status);
    if (metadata.num_inputs != 0) {
      return {Outcome::Kind::kSkip, "entry function takes arguments"};
    }
    size_t expected_outputs = 0;
    for (const Check& check : checks) expected_outputs += check.num_outputs;
    if (metadata.num_outputs < expected_outputs) {
      return {
          Outcome::Kind::kFail,
          absl::StrCat("program has ", metadata.num_outputs, " outputs for ",
                       expected_outputs, " checked values")};
    }
    std::vector<PJRTX_Buffer*> outputs(metadata.num_outputs);
    PJRTX_Buffer** output_list = outputs.data();
    PJRTX_Event* done = nullptr;
    PJRTX_Device* device = metadata.devices[0];
    PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Execute_Args, execute);
    execute.executable = executable;
    execute.devices = &device;
    execute.num_devices = 1;
    execute.output_lists = &output_list;
    execute.device_complete_events = &done;
    status = TakeStatus(api, api->LoadedExecutable_Execute(&execute));
    if (!status.ok()) return FromStatus(status);
    client::EventFuture completion(api, done);
    const auto start = std::chrono::steady_clock::now();
    while (!completion.IsReady()) {
      if (std::chrono::steady_clock::now() - start > kCaseDeadline) {
        *must_stop = true;
        return {Outcome::Kind::kFail, "did not finish within 60 s"};
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    status = completion.Await();
    // Own the outputs from here on.
    std::vector<client::Buffer> owned;
    for (PJRTX_Buffer* b : outputs) owned.emplace_back(api, b);
    if (!status.ok()) return FromStatus(status);
    // The program's own results come first; check outputs are the last.
    size_t next = metadata.num_outputs - expected_outputs;
    for (const Check& check : checks) {
      std::vector<std::vector<uint8_t>> values;
      for (int i = 0; i < check.num_outputs; ++i) {
        absl::StatusOr<std::vector<uint8_t>> bytes = owned[next++].ToHostSync();
        if (!bytes.ok()) return FromStatus(bytes.status());
        values.push_back(*std::move(bytes));
      }
      std::string mismatch = Compare(check, values);
      if (!mismatch.empty()) return {Outcome::Kind::kFail, mismatch};
    }
    return {Outcome::Kind::kPass, ""};
  }

  Client& client_;
  int64_t launch_id_ = 0;
};

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int RunMlir(const std::vector<std::string>& args) {
  std::string plugin_path;
  std::vector<std::string> option_flags, files;
  ProgramFiles program;
  bool program_mode = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (absl::StartsWith(arg, "--plugin=")) {
      plugin_path = arg.substr(9);
    } else if (absl::StartsWith(arg, "--input=")) {
      program.inputs.push_back(arg.substr(8));
      program_mode = true;
    } else if (absl::StartsWith(arg, "--output-dir=")) {
      program.output_dir = arg.substr(13);
      program_mode = true;
    } else if (arg == "--option" && i + 1 < args.size()) {
      option_flags.push_back(args[++i]);
    } else if (absl::StartsWith(arg, "--")) {
      std::cerr << "pjrtx run-mlir: unknown flag '" << arg << "'\n" << kUsage;
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (plugin_path.empty() || files.empty()) {
    std::cerr << "pjrtx run-mlir: needs --plugin=PATH and at least one file\n"
              << kUsage;
    return 2;
  }
  if (program_mode && (files.size() != 1 || program.output_dir.empty())) {
    std::cerr << "pjrtx run-mlir: --input runs one program and needs "
                 "--output-dir\n"
              << kUsage;
    return 2;
  }
  auto library = PluginLibrary::Load(plugin_path);
  if (!library.ok()) {
    std::cerr << "pjrtx run-mlir: " << library.status().message() << "\n";
    return 1;
  }
  auto options = Client::ParseOptions(**library, option_flags);
  if (!options.ok()) {
    std::cerr << "pjrtx run-mlir: " << options.status().message() << "\n";
    return 2;
  }
  auto client = Client::Create(*library, *options);
  if (!client.ok()) {
    std::cerr << "pjrtx run-mlir: " << client.status().message() << "\n";
    return 1;
  }
  if (program_mode) {
    program.program = files[0];
    absl::Status status = RunProgramFiles(*client, program, std::cout);
    if (!status.ok()) {
      std::cerr << "pjrtx run-mlir: " << status << "\n";
      return 1;
    }
    return 0;
  }
  CaseRunner runner(*client);
  int passed = 0, failed = 0, skipped = 0;
  bool must_stop = false;
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) {
      std::cerr << "pjrtx run-mlir: cannot read '" << file << "'\n";
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<CorpusCase> cases = SplitCases(text.str());
    for (size_t n = 0; n < cases.size() && !must_stop; ++n) {
      Outcome outcome = runner.Run(cases[n], &must_stop);
      const std::string where = absl::StrCat(BaseName(file), ":", n + 1);
      switch (outcome.kind) {
        case Outcome::Kind::kPass:
          ++passed;
          std::printf("PASS %s\n", where.c_str());
          break;
        case Outcome::Kind::kFail:
          ++failed;
          std::printf("FAIL %s: %s\n", where.c_str(), outcome.reason.c_str());
          break;
        case Outcome::Kind::kSkip:
          ++skipped;
          std::printf("SKIP %s: %s\n", where.c_str(), outcome.reason.c_str());
          break;
      }
      std::fflush(stdout);
    }
  }
  std::printf("cases: %d passed, %d failed, %d skipped\n", passed, failed,
              skipped);
  return failed == 0 ? 0 : 1;
}

}  // namespace pjrtx::cli
