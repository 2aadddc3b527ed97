// PTX module text -> decoded kernels (program.h).
//
// The grammar covered is what the compiler stub's emitter writes, and the
// usual variations of it: .version/.target/.address_size 64, `.visible`
// `.entry` kernels with scalar or array .param declarations, .reg
// declarations (also `%r<N>` ranges) anywhere in a body, labels, `@%p` and
// `@!%p` guards, and one instruction per statement with register,
// special-register (%tid/%ntid/%ctaid/%nctaid .x/.y/.z), immediate,
// [address + offset] and label operands. Functions, global variables,
// shared or local memory, vector operands and nested blocks are errors.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PARSER_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/program.h"

namespace fake_cuda::ptx {

// Returns false with "line N: what is wrong" in `error`.
bool ParseModule(std::string_view text, std::vector<KernelProgram>* kernels,
                 std::string* error);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PARSER_H_
