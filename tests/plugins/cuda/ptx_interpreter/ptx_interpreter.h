// A PTX interpreter for the fake CUDA driver: it runs, on the host, the
// kernels the compiler stub emits (compiler_stub/ptx), so that tests without
// a GPU execute the real PTX the plugin loads instead of a stand-in. It
// covers the instructions the emitter generates, not PTX at large; anything
// else is an error at parse time, naming the line.
//
// The grammar accepted is described in parser.h and the instructions in
// decoder.cc. Parsing decodes each instruction once into register indices
// and a function per opcode and type, so that running is a tight loop.
// Results follow PTX: IEEE arithmetic in the instruction's rounding mode
// (f16 and bf16 included), wrapping integers, shift amounts clamped to the
// width, saturating float-to-integer conversion with NaN to 0. Where PTX
// leaves a result undefined the interpreter fixes one: integer x / 0 is all
// ones and x % 0 is x; MIN / -1 is MIN. The .approx functions are computed
// accurately (within their documented error, and then some).
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PTX_INTERPRETER_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PTX_INTERPRETER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fake_cuda {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// Maps a global address range the kernel touches to host memory the
// interpreter may read and write; nullptr when [address, address + size) is
// not memory the kernel may access (the launch then fails).
using AddressTranslator = std::function<void*(uint64_t address, size_t size)>;

class PtxKernel;

// A parsed module: its `.visible .entry` kernels.
class PtxModule {
 public:
  // Parses `text` (a NUL-free PTX module). On failure returns nullptr and
  // sets `error` to "line N: what is wrong".
  static std::unique_ptr<PtxModule> Parse(std::string_view text,
                                          std::string* error);
  virtual ~PtxModule() = default;

  // The kernel named `name`, or nullptr.
  virtual const PtxKernel* Find(std::string_view name) const = 0;
};

class PtxKernel {
 public:
  virtual ~PtxKernel() = default;
  virtual const std::string& name() const = 0;
  // The byte size of each `.param`, in order (what cuLaunchKernel copies).
  virtual const std::vector<size_t>& param_sizes() const = 0;

  // Runs every thread of the grid (threads are independent: the emitter's
  // kernels use no shared memory or barriers). `params[i]` holds
  // param_sizes()[i] bytes. Returns false with `error` on an access outside
  // what `translate` allows or a fault such as a misaligned access (the
  // message names the kernel, the instruction's line, the thread and the
  // address), and on a thread that runs more than 2^31 instructions (an
  // endless loop). Threads run one after the other on the calling thread;
  // a kernel may run on several host threads at once.
  virtual bool Run(Dim3 grid, Dim3 block,
                   const std::vector<std::vector<uint8_t>>& params,
                   const AddressTranslator& translate,
                   std::string* error) const = 0;
};

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PTX_INTERPRETER_H_
