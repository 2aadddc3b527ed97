// The fixture of the execution tests (ABI 0.3, `execute` capability):
// compiling, running on one device, f32 buffers in and out.
#ifndef PJRTX_TESTS_CONFORMANCE_EXECUTE_FIXTURE_H_
#define PJRTX_TESTS_CONFORMANCE_EXECUTE_FIXTURE_H_

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"

namespace pjrtx::conformance {

struct ExecutableDeleter {
  void operator()(PJRTX_LoadedExecutable* e) const {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_Destroy_Args);
    args.executable = e;
    EXPECT_PJRTX_OK(Api()->LoadedExecutable_Destroy(&args));
  }
};
using ExecutablePtr =
    std::unique_ptr<PJRTX_LoadedExecutable, ExecutableDeleter>;

class ExecuteTest : public ClientTest {
 protected:
  void SetUp() override {
    ClientTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (Api()->struct_size < PJRTX_Api_STRUCT_SIZE_0_3) {
      GTEST_SKIP() << "plugin implements ABI < 0.3 (no executables)";
    }
    if (!HasCapability("execute")) GTEST_SKIP() << "no execute capability";
  }

  ScopedError Compile(const std::string& code, ExecutablePtr* executable,
                      const std::string& format = "mlir",
                      const std::vector<PJRTX_NamedValue>& options = {}) {
    auto program = PJRTX_CONFORMANCE_ARGS(PJRTX_Program);
    program.code = code.data();
    program.code_size = code.size();
    program.format = format.data();
    program.format_size = format.size();
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Compile_Args);
    args.client = client();
    args.program = &program;
    args.compile_options = options.data();
    args.num_compile_options = options.size();
    ScopedError error(Api()->Client_Compile(&args));
    executable->reset(args.executable);
    return error;
  }

  BufferPtr F32(const std::vector<float>& values, PJRTX_Device* target) {
    BufferPtr buffer;
    EXPECT_PJRTX_OK(
        BufferFromHost(client(),
                       DenseSpec(values.data(), PJRTX_Buffer_Type_F32,
                                 {static_cast<int64_t>(values.size())}, target),
                       &buffer));
    return buffer;
  }

  std::vector<float> ReadF32(PJRTX_Buffer* buffer) {
    std::vector<uint8_t> bytes;
    EXPECT_PJRTX_OK(ToHost(buffer, &bytes));
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }

  // Runs `executable` on `device` with `args`; returns its outputs.
  ScopedError Run(PJRTX_LoadedExecutable* executable, PJRTX_Device* device,
                  std::vector<PJRTX_Buffer*> args, size_t num_outputs,
                  std::vector<BufferPtr>* outputs, EventPtr* done,
                  const std::vector<PJRTX_Event*>& waits = {},
                  const bool* donate = nullptr, int64_t launch_id = 0) {
    std::vector<PJRTX_Buffer*> out(num_outputs, nullptr);
    PJRTX_Buffer** out_list = out.data();
    PJRTX_Buffer* const* arg_list = args.data();
    PJRTX_Event* complete = nullptr;
    auto exec = PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_Execute_Args);
    exec.executable = executable;
    exec.devices = &device;
    exec.num_devices = 1;
    exec.argument_lists = &arg_list;
    exec.num_args = args.size();
    exec.donate_arguments = donate;
    exec.wait_events = waits.data();
    exec.num_wait_events = waits.size();
    exec.launch_id = launch_id;
    exec.output_lists = &out_list;
    exec.device_complete_events = &complete;
    ScopedError error(Api()->LoadedExecutable_Execute(&exec));
    outputs->clear();
    for (PJRTX_Buffer* b : out) outputs->emplace_back(b);
    done->reset(complete);
    return error;
  }
};

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_EXECUTE_FIXTURE_H_
