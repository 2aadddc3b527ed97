#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/executor.h"
#include "tests/plugins/cuda/ptx_interpreter/parser.h"
#include "tests/plugins/cuda/ptx_interpreter/program.h"

namespace fake_cuda {
namespace {

class Kernel final : public PtxKernel {
 public:
  explicit Kernel(ptx::KernelProgram program) : program_(std::move(program)) {}

  const std::string& name() const override { return program_.name; }
  const std::vector<size_t>& param_sizes() const override {
    return program_.param_sizes;
  }

  bool Run(Dim3 grid, Dim3 block,
           const std::vector<std::vector<uint8_t>>& params,
           const AddressTranslator& translate,
           std::string* error) const override {
    return ptx::Execute(program_, grid, block, params, translate,
                        ptx::kDefaultInstructionBudget, error);
  }

 private:
  const ptx::KernelProgram program_;
};

class Module final : public PtxModule {
 public:
  explicit Module(std::vector<ptx::KernelProgram> programs) {
    for (ptx::KernelProgram& program : programs) {
      kernels_.push_back(std::make_unique<Kernel>(std::move(program)));
    }
  }

  const PtxKernel* Find(std::string_view name) const override {
    for (const std::unique_ptr<Kernel>& kernel : kernels_) {
      if (kernel->name() == name) return kernel.get();
    }
    return nullptr;
  }

 private:
  std::vector<std::unique_ptr<Kernel>> kernels_;
};

}  // namespace

std::unique_ptr<PtxModule> PtxModule::Parse(std::string_view text,
                                            std::string* error) {
  std::vector<ptx::KernelProgram> programs;
  std::string message;
  if (!ptx::ParseModule(text, &programs, &message)) {
    if (error != nullptr) *error = std::move(message);
    return nullptr;
  }
  return std::make_unique<Module>(std::move(programs));
}

}  // namespace fake_cuda
