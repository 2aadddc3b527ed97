#include "tests/plugins/cuda/ptx_interpreter/executor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/text.h"

namespace fake_cuda::ptx {
namespace {

Slot SignExtend(Slot value, int bytes) {
  const int shift = 64 - 8 * bytes;
  return static_cast<Slot>(static_cast<int64_t>(value << shift) >> shift);
}

// Runs threads of one kernel launch.
class Launch {
 public:
  Launch(const KernelProgram& kernel, Dim3 grid, Dim3 block,
         const std::vector<std::vector<uint8_t>>& params,
         const AddressTranslator& translate, uint64_t instruction_budget,
         std::string* error)
      : kernel_(kernel),
        grid_(grid),
        block_(block),
        params_(params),
        translate_(translate),
        budget_(instruction_budget),
        error_(error),
        slots_(kernel.initial_slots) {}

  bool Run() {
    if (!CheckLaunch()) return false;
    Slot* s = slots_.data();
    for (unsigned bz = 0; bz < grid_.z; ++bz) {
      for (unsigned by = 0; by < grid_.y; ++by) {
        for (unsigned bx = 0; bx < grid_.x; ++bx) {
          block_index_ = {bx, by, bz};
          for (unsigned tz = 0; tz < block_.z; ++tz) {
            for (unsigned ty = 0; ty < block_.y; ++ty) {
              for (unsigned tx = 0; tx < block_.x; ++tx) {
                thread_index_ = {tx, ty, tz};
                // Registers start at zero in every thread, so that no
                // value leaks from one thread to the next.
                std::copy(kernel_.initial_slots.begin(),
                          kernel_.initial_slots.end(), slots_.begin());
                SetSpecial(s + kTidSlot, thread_index_);
                SetSpecial(s + kNtidSlot, block_);
                SetSpecial(s + kCtaidSlot, block_index_);
                SetSpecial(s + kNctaidSlot, grid_);
                if (!RunThread(s)) return false;
              }
            }
          }
        }
      }
    }
    return true;
  }

 private:
  static void SetSpecial(Slot* slots, Dim3 value) {
    slots[0] = value.x;
    slots[1] = value.y;
    slots[2] = value.z;
  }

  bool CheckLaunch() {
    if (params_.size() != kernel_.param_sizes.size()) {
      *error_ =
          Cat("kernel '", kernel_.name, "' takes ", kernel_.param_sizes.size(),
              " parameters, not ", params_.size());
      return false;
    }
    for (size_t i = 0; i < params_.size(); ++i) {
      if (params_[i].size() < kernel_.param_sizes[i]) {
        *error_ =
            Cat("kernel '", kernel_.name, "': parameter ", i, " has ",
                params_[i].size(), " bytes, not ", kernel_.param_sizes[i]);
        return false;
      }
    }
    if (grid_.x == 0 || grid_.y == 0 || grid_.z == 0 || block_.x == 0 ||
        block_.y == 0 || block_.z == 0) {
      *error_ =
          Cat("kernel '", kernel_.name, "': a grid or block dimension is 0");
      return false;
    }
    return true;
  }

  std::string Where(const Instruction& in) const {
    const size_t index = &in - kernel_.code.data();
    return Cat("kernel '", kernel_.name, "', line ", in.line, " (",
               kernel_.opcodes[index], "), thread (", thread_index_.x, ",",
               thread_index_.y, ",", thread_index_.z, ") of block (",
               block_index_.x, ",", block_index_.y, ",", block_index_.z, ")");
  }

  // The host memory for an access of `in` at `address`; nullptr (with the
  // error set) when the translator refuses it or it is misaligned.
  void* Translate(const Instruction& in, uint64_t address) {
    if (address % in.width != 0) {
      *error_ = Cat(Where(in), ": address ", Hex(address),
                    " is not aligned to ", in.width, " bytes");
      return nullptr;
    }
    void* host = translate_(address, in.width);
    if (host == nullptr) {
      *error_ = Cat(Where(in), ": address ", Hex(address), " (", in.width,
                    " bytes) is not memory the kernel may access");
    }
    return host;
  }

  bool RunThread(Slot* s) {
    const Instruction* const code = kernel_.code.data();
    uint64_t executed = 0;
    size_t pc = 0;
    while (true) {
      const Instruction& in = code[pc];
      if (++executed > budget_) {
        *error_ = Cat(Where(in), ": more than ", budget_,
                      " instructions in one thread (an endless "
                      "loop?)");
        return false;
      }
      if ((s[in.guard] != 0) == in.guard_negated) {
        ++pc;
        continue;
      }
      switch (in.kind) {
        case Kind::kCompute:
          in.compute(in, s);
          ++pc;
          break;
        case Kind::kBranch:
          pc = in.target;
          break;
        case Kind::kLoadParam: {
          Slot value = 0;
          std::memcpy(&value, params_[in.target].data() + in.offset, in.width);
          s[in.d] = in.sign_extend ? SignExtend(value, in.width) : value;
          ++pc;
          break;
        }
        case Kind::kLoad: {
          const void* host = Translate(in, s[in.a] + in.offset);
          if (host == nullptr) return false;
          Slot value = 0;
          std::memcpy(&value, host, in.width);
          s[in.d] = in.sign_extend ? SignExtend(value, in.width) : value;
          ++pc;
          break;
        }
        case Kind::kStore: {
          void* host = Translate(in, s[in.a] + in.offset);
          if (host == nullptr) return false;
          std::memcpy(host, &s[in.b], in.width);
          ++pc;
          break;
        }
        case Kind::kReturn:
          return true;
      }
    }
  }

  const KernelProgram& kernel_;
  const Dim3 grid_;
  const Dim3 block_;
  const std::vector<std::vector<uint8_t>>& params_;
  const AddressTranslator& translate_;
  const uint64_t budget_;
  std::string* const error_;
  std::vector<Slot> slots_;
  Dim3 block_index_;
  Dim3 thread_index_;
};

}  // namespace

bool Execute(const KernelProgram& kernel, Dim3 grid, Dim3 block,
             const std::vector<std::vector<uint8_t>>& params,
             const AddressTranslator& translate, uint64_t instruction_budget,
             std::string* error) {
  std::string ignored;
  return Launch(kernel, grid, block, params, translate, instruction_budget,
                error != nullptr ? error : &ignored)
      .Run();
}

}  // namespace fake_cuda::ptx
