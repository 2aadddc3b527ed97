// Device memory for tests that run kernels in the PTX interpreter: buffers
// in one host arena, at addresses far from any host pointer. Unwritten
// bytes hold a poison pattern, so that an output element a kernel never
// stores shows.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TEST_DEVICE_MEMORY_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TEST_DEVICE_MEMORY_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/ptx_interpreter.h"

namespace fake_cuda {

class TestDeviceMemory {
 public:
  using Bytes = std::vector<uint8_t>;
  static constexpr uint64_t kBase = uint64_t{1} << 44;

  uint64_t Allocate(size_t bytes) {
    const size_t offset = (arena_.size() + 255) & ~size_t{255};
    arena_.resize(offset + std::max<size_t>(bytes, 1), 0xCD);
    return kBase + offset;
  }
  void Write(uint64_t address, const uint8_t* data, size_t bytes) {
    if (bytes > 0) std::memcpy(arena_.data() + (address - kBase), data, bytes);
  }
  void Write(uint64_t address, const Bytes& bytes) {
    Write(address, bytes.data(), bytes.size());
  }
  Bytes Read(uint64_t address, size_t bytes) const {
    const auto begin = arena_.begin() + (address - kBase);
    return Bytes(begin, begin + bytes);
  }
  AddressTranslator Translator() {
    return [this](uint64_t address, size_t size) -> void* {
      if (address < kBase || address - kBase > arena_.size() ||
          size > arena_.size() - (address - kBase)) {
        return nullptr;
      }
      return arena_.data() + (address - kBase);
    };
  }

 private:
  Bytes arena_;
};

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TEST_DEVICE_MEMORY_H_
