// Regions reading values of the computations around them (captures) when
// they are nested: a capture two levels down makes the region in between
// capture the value too, after its own nested regions were lowered (which
// appends computations and may move them). Every capture must name a value
// its enclosing computation defines, and the program must compute what it
// says.
#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/literal.h"
#include "tests/compiler_stub/nested_loop_program.h"

namespace pjrtx {
namespace {

// The values `c` defines: parameters, captures and instruction results.
std::set<int> Defined(const ir::Computation& c) {
  std::set<int> values(c.parameters.begin(), c.parameters.end());
  values.insert(c.capture_parameters.begin(), c.capture_parameters.end());
  for (const ir::Instruction& instruction : c.instructions) {
    values.insert(instruction.results.begin(), instruction.results.end());
  }
  return values;
}

TEST(RegionCapturesTest, NestedCapturesNameValuesOfTheEnclosingComputation) {
  for (bool fusion : {false, true}) {
    SCOPED_TRACE(fusion);
    compiler::CompileOptions options;
    options.fusion = fusion;
    absl::StatusOr<ir::Program> program =
        compiler::Compile(test_programs::kNestedWhileTriangle, options);
    ASSERT_TRUE(program.ok()) << program.status();
    // Walks every region from the computation whose instruction owns it.
    int checked = 0;
    for (const ir::Computation& c : program->computations) {
      const std::set<int> defined = Defined(c);
      for (const ir::Instruction& instruction : c.instructions) {
        for (int region : instruction.regions) {
          const ir::Computation& inner = program->computations[region];
          ASSERT_EQ(inner.captures.size(), inner.capture_parameters.size());
          for (int value : inner.captures) {
            EXPECT_TRUE(defined.count(value))
                << inner.name << " captures value " << value << ", which "
                << c.name << " does not define";
            ++checked;
          }
        }
      }
    }
    // %n; %zero and %one; %i; %one again, through the outer body. (A lost
    // capture would also make the loops below run forever.)
    ASSERT_EQ(checked, 5);

    cpu::Interpreter interpreter(*program);
    cpu::Literal n(ir::Shape{ir::ElementType::kS32, {}});
    n.SetInt(0, 6);
    absl::StatusOr<std::vector<cpu::TensorValue>> results =
        interpreter.Run({cpu::TensorValue::Tensor(n)});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ((*results)[0].tensor.GetInt(0), 15);
  }
}

}  // namespace
}  // namespace pjrtx
