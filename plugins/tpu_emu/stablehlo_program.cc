#include "plugins/tpu_emu/stablehlo_program.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/compiler.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/launch_collectives.h"
#include "runtime/cpu/program_cache.h"
#include "runtime/cpu/program_compile.h"
#include "runtime/cpu/program_cost.h"
#include "support/status_macros.h"

namespace tpu_emu {
namespace {

// Runs the interpreter over views of chip memory. The program is immutable
// and the plan cache thread-safe, so chips run it concurrently, each run on
// a run state of its own taken from a pool: a state keeps its interpreter
// and vectors from run to run, so the dispatch of a small program
// allocates nothing on the worker.
class InterpretedProgram : public pjrtx::DeviceProgram {
 public:
  InterpretedProgram(pjrtx::ir::Program program,
                     pjrtx::cpu::InterpreterOptions options)
      : program_(std::move(program)), options_(options) {
    options_.program_cache = &cache_;
  }

  absl::Status Run(const pjrtx::RunContext& context,
                   absl::Span<const pjrtx::DeviceAddress> arguments,
                   absl::Span<const pjrtx::DeviceAddress> outputs) override {
    const pjrtx::ir::Computation& entry = program_.computations[program_.entry];
    std::unique_ptr<RunState> state = Acquire();
    state->arguments.clear();
    for (size_t i = 0; i < arguments.size(); ++i) {
      state->arguments.push_back(
          pjrtx::cpu::TensorValue::Tensor(pjrtx::cpu::Literal::View(
              entry.parameter_types[i].shape,
              reinterpret_cast<void*>(arguments[i].value))));
    }
    state->results.clear();
    for (size_t i = 0; i < outputs.size(); ++i) {
      state->results.push_back(
          pjrtx::cpu::Literal::View(entry.result_types[i].shape,
                                    reinterpret_cast<void*>(outputs[i].value)));
    }
    std::optional<pjrtx::cpu::LaunchCollectives> collectives;
    if (context.launch != nullptr) collectives.emplace(context);
    state->interpreter.set_collectives(collectives ? &*collectives : nullptr);
    absl::Status status = state->interpreter.RunInto(
        state->arguments, absl::MakeSpan(state->results));
    state->interpreter.set_collectives(nullptr);
    Release(std::move(state));
    return status;
  }

 private:
  struct RunState {
    RunState(const pjrtx::ir::Program& program,
             const pjrtx::cpu::InterpreterOptions& options)
        : interpreter(program, options) {}
    pjrtx::cpu::Interpreter interpreter;
    std::vector<pjrtx::cpu::TensorValue> arguments;
    std::vector<pjrtx::cpu::Literal> results;
  };

  std::unique_ptr<RunState> Acquire() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!idle_.empty()) {
        std::unique_ptr<RunState> state = std::move(idle_.back());
        idle_.pop_back();
        return state;
      }
    }
    return std::make_unique<RunState>(program_, options_);
  }
  void Release(std::unique_ptr<RunState> state) {
    // Drop what the run referenced (views of chip memory) before pooling.
    state->arguments.clear();
    state->results.clear();
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(state));
  }

  const pjrtx::ir::Program program_;
  pjrtx::cpu::InterpreterOptions options_;
  // Plans made on the first run (oneDNN dot primitives) and reused by every
  // later run on any chip; thread-safe.
  pjrtx::cpu::ProgramCache cache_;
  std::mutex mu_;
  // As many as runs were ever in flight at once (one per chip at most).
  std::vector<std::unique_ptr<RunState>> idle_;  // Guarded by mu_.
};

}  // namespace

absl::StatusOr<pjrtx::CompiledProgram> CompileStableHlo(
    std::string_view format, std::string_view code,
    const pjrtx::ProgramOptions& options, bool tpu_precision) {
  PJRTX_ASSIGN_OR_RETURN(pjrtx::cpu::CompiledStableHlo compiled,
                         pjrtx::cpu::CompileStableHlo(format, code, options));
  pjrtx::cpu::InterpreterOptions run_options;
  run_options.bf16_f32_dots = tpu_precision;
  compiled.compiled.quick_to_run = pjrtx::cpu::IsQuickProgram(compiled.program);
  // The interpreter computes an output that shares a donated input's memory
  // aside unless no later op reads the input (Interpreter::BoundMemory).
  compiled.compiled.outputs_may_alias_inputs = true;
  compiled.compiled.program = std::make_unique<InterpretedProgram>(
      std::move(compiled.program), run_options);
  return std::move(compiled.compiled);
}

}  // namespace tpu_emu
