// ir::FuseElementwise on compiled programs: which instructions a fused
// instruction replaces, what it reads and returns, and that the interpreter
// computes the same bits with and without fusion.
#include "compiler_stub/passes/fusion.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/cpu/interpreter.h"
#include "runtime/cpu/literal.h"

namespace pjrtx {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;

using ir::BinaryOp;
using ir::OpCode;

absl::StatusOr<ir::Program> Compile(std::string_view text, bool fusion) {
  compiler::CompileOptions options;
  options.fusion = fusion;
  return compiler::Compile(text, options);
}

const ir::Computation& Entry(const ir::Program& program) {
  return program.computations[program.entry];
}

std::vector<OpCode> Opcodes(const ir::Computation& computation) {
  std::vector<OpCode> opcodes;
  for (const ir::Instruction& inst : computation.instructions) {
    opcodes.push_back(inst.opcode);
  }
  return opcodes;
}

// The fused instructions of `computation`, in program order.
std::vector<const ir::Instruction*> Fused(const ir::Computation& computation) {
  std::vector<const ir::Instruction*> fused;
  for (const ir::Instruction& inst : computation.instructions) {
    if (inst.opcode == OpCode::kFusedElementwise) fused.push_back(&inst);
  }
  return fused;
}

// The one instruction of `computation` with `opcode`.
const ir::Instruction* Only(const ir::Computation& computation, OpCode opcode) {
  const ir::Instruction* found = nullptr;
  for (const ir::Instruction& inst : computation.instructions) {
    if (inst.opcode != opcode) continue;
    EXPECT_EQ(found, nullptr) << "more than one instruction of this opcode";
    found = &inst;
  }
  EXPECT_NE(found, nullptr);
  return found;
}

std::vector<BinaryOp> StepBinaryOps(const ir::FusedBody& body) {
  std::vector<BinaryOp> ops;
  for (const ir::FusedStep& step : body.steps) {
    EXPECT_EQ(step.opcode, OpCode::kBinary);
    ops.push_back(step.binary);
  }
  return ops;
}

std::vector<int> Ranks(const std::vector<ir::ValueType>& types) {
  std::vector<int> ranks;
  for (const ir::ValueType& type : types) ranks.push_back(type.shape.rank());
  return ranks;
}

int CountFused(const ir::Program& program) {
  int count = 0;
  for (const ir::Computation& c : program.computations) {
    count += static_cast<int>(Fused(c).size());
  }
  return count;
}

int CountFusedReduces(const ir::Program& program) {
  int count = 0;
  for (const ir::Computation& c : program.computations) {
    for (const ir::Instruction& inst : c.instructions) {
      count += inst.opcode == OpCode::kFusedReduce;
    }
  }
  return count;
}

// y = (((((x * a + b) - c) * d) max e) min f + g) / a over $N elements of
// $T, every scalar broadcast: a, c, e, g are parameters, b, d, f
// constants. Eight elementwise ops.
constexpr char kChain[] = R"(
func.func @main(%x: tensor<$Nx$T>, %a: tensor<$T>, %c: tensor<$T>, %e: tensor<$T>, %g: tensor<$T>) -> tensor<$Nx$T> {
  %b = stablehlo.constant dense<0.5> : tensor<$T>
  %d = stablehlo.constant dense<-3.0> : tensor<$T>
  %f = stablehlo.constant dense<2.5> : tensor<$T>
  %ab = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %db = stablehlo.broadcast_in_dim %d, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %eb = stablehlo.broadcast_in_dim %e, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %gb = stablehlo.broadcast_in_dim %g, dims = [] : (tensor<$T>) -> tensor<$Nx$T>
  %0 = stablehlo.multiply %x, %ab : tensor<$Nx$T>
  %1 = stablehlo.add %0, %bb : tensor<$Nx$T>
  %2 = stablehlo.subtract %1, %cb : tensor<$Nx$T>
  %3 = stablehlo.multiply %2, %db : tensor<$Nx$T>
  %4 = stablehlo.maximum %3, %eb : tensor<$Nx$T>
  %5 = stablehlo.minimum %4, %fb : tensor<$Nx$T>
  %6 = stablehlo.add %5, %gb : tensor<$Nx$T>
  %7 = stablehlo.divide %6, %ab : tensor<$Nx$T>
  func.return %7 : tensor<$Nx$T>
}
)";

std::string Chain(const char* type, const char* n) {
  return absl::StrReplaceAll(kChain, {{"$T", type}, {"$N", n}});
}

TEST(FuseElementwiseTest, ChainWithScalarBroadcastsIsOneFusedInstruction) {
  absl::StatusOr<ir::Program> program = Compile(Chain("f32", "1024"), true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  // The scalar constants stay; the broadcasts are gone, since the body
  // reads their rank-0 operands at every element.
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kConstant, OpCode::kConstant,
                          OpCode::kConstant, OpCode::kFusedElementwise));
  const ir::Instruction& fused = entry.instructions[3];
  const ir::FusedBody& body = fused.attributes.fused;
  const std::vector<int>& p = entry.parameters;
  const int b = entry.instructions[0].results[0];
  const int d = entry.instructions[1].results[0];
  const int f = entry.instructions[2].results[0];
  // In the order of first reads: x, then a..g as the chain reads them.
  EXPECT_THAT(fused.operands,
              ElementsAre(p[0], p[1], b, p[2], d, p[3], f, p[4]));
  EXPECT_THAT(Ranks(fused.operand_types), ElementsAre(1, 0, 0, 0, 0, 0, 0, 0));
  EXPECT_EQ(body.num_inputs, 8);
  ASSERT_THAT(body.steps, SizeIs(8));
  EXPECT_THAT(
      StepBinaryOps(body),
      ElementsAre(BinaryOp::kMultiply, BinaryOp::kAdd, BinaryOp::kSubtract,
                  BinaryOp::kMultiply, BinaryOp::kMaximum, BinaryOp::kMinimum,
                  BinaryOp::kAdd, BinaryOp::kDivide));
  // Each step reads the previous step's register and one scalar; the
  // divide reads a (register 1) again rather than a second copy.
  std::vector<std::vector<int>> inputs;
  for (const ir::FusedStep& step : body.steps) inputs.push_back(step.inputs);
  EXPECT_THAT(inputs, ElementsAre(ElementsAre(0, 1), ElementsAre(8, 2),
                                  ElementsAre(9, 3), ElementsAre(10, 4),
                                  ElementsAre(11, 5), ElementsAre(12, 6),
                                  ElementsAre(13, 7), ElementsAre(14, 1)));
  for (const ir::FusedStep& step : body.steps) {
    EXPECT_EQ(step.type, ir::ElementType::kF32);
  }
  // Only the returned value leaves the body.
  EXPECT_THAT(body.outputs, ElementsAre(15));
  EXPECT_EQ(fused.results, entry.results);
  EXPECT_EQ(fused.result_types, entry.result_types);
}

TEST(FuseElementwiseTest, OpReadingTwoOpenGroupsMergesThem) {
  // Adam's moment update, m = b1 * m + (1 - b1) * g, as JAX writes it: each
  // product begins a group, and the add reads both. Merged, neither product
  // nor its broadcast constant is materialized.
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%m: tensor<64xf32>, %g: tensor<64xf32>) -> tensor<64xf32> {
  %c1 = stablehlo.constant dense<0.1> : tensor<f32>
  %b1 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %0 = stablehlo.multiply %b1, %g : tensor<64xf32>
  %c9 = stablehlo.constant dense<0.9> : tensor<f32>
  %b9 = stablehlo.broadcast_in_dim %c9, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %1 = stablehlo.multiply %b9, %m : tensor<64xf32>
  %2 = stablehlo.add %0, %1 : tensor<64xf32>
  func.return %2 : tensor<64xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry), ElementsAre(OpCode::kConstant, OpCode::kConstant,
                                          OpCode::kFusedElementwise));
  const ir::FusedBody& body = entry.instructions[2].attributes.fused;
  EXPECT_THAT(
      StepBinaryOps(body),
      ElementsAre(BinaryOp::kMultiply, BinaryOp::kMultiply, BinaryOp::kAdd));
  EXPECT_THAT(body.outputs, ElementsAre(body.num_inputs + 2));
}

TEST(FuseElementwiseTest, WithoutFusionEveryOpStays) {
  absl::StatusOr<ir::Program> program = Compile(Chain("f32", "1024"), false);
  ASSERT_TRUE(program.ok()) << program.status();
  const std::vector<OpCode> opcodes = Opcodes(Entry(*program));
  EXPECT_EQ(std::count(opcodes.begin(), opcodes.end(), OpCode::kBinary), 8);
  EXPECT_EQ(std::count(opcodes.begin(), opcodes.end(), OpCode::kBroadcastInDim),
            7);
  EXPECT_EQ(CountFused(*program), 0);
}

TEST(FuseElementwiseTest, ValueReadByNonElementwiseOpIsAnOutputAndCloses) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4x4xf32>
  %1 = stablehlo.exponential %0 : tensor<4x4xf32>
  %2 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = stablehlo.multiply %1, %2 : tensor<4x4xf32>
  %4 = stablehlo.negate %3 : tensor<4x4xf32>
  func.return %4 : tensor<4x4xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kFusedElementwise, OpCode::kDotGeneral,
                          OpCode::kFusedElementwise));
  const ir::Instruction& first = entry.instructions[0];
  const ir::Instruction& dot = entry.instructions[1];
  const ir::Instruction& second = entry.instructions[2];
  // %0 (read by the dot) and %1 (read by the multiply, which comes after
  // the dot and so cannot join) both leave the first body.
  ASSERT_THAT(first.results, SizeIs(2));
  EXPECT_THAT(first.attributes.fused.outputs, ElementsAre(1, 2));
  EXPECT_THAT(dot.operands, ElementsAre(first.results[0], entry.parameters[1]));
  // The second group starts afresh, reading %1 and the dot's result.
  EXPECT_THAT(second.operands, ElementsAre(first.results[1], dot.results[0]));
  EXPECT_THAT(second.attributes.fused.steps, SizeIs(2));
  EXPECT_EQ(second.results, entry.results);
}

TEST(FuseElementwiseTest, ReaderOutsideStopsTheGroupFromGrowing) {
  // The fused instruction stands where its last member stood, so once the
  // dot reads %0, the multiply after it cannot join %0's group: %0 stays a
  // lone (unfused) add, and the multiply starts a group of its own.
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.add %x, %x : tensor<4x4xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.multiply %0, %0 : tensor<4x4xf32>
  %3 = stablehlo.negate %2 : tensor<4x4xf32>
  func.return %1, %3 : tensor<4x4xf32>, tensor<4x4xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry), ElementsAre(OpCode::kBinary, OpCode::kDotGeneral,
                                          OpCode::kFusedElementwise));
  const ir::Instruction& fused = entry.instructions[2];
  EXPECT_THAT(fused.operands, ElementsAre(entry.instructions[0].results[0]));
  EXPECT_THAT(fused.attributes.fused.outputs, ElementsAre(2));
}

TEST(FuseElementwiseTest, GroupOfOneStaysUnfused) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.add %x, %y : tensor<8xf32>
  %1 = stablehlo.reshape %0 : (tensor<8xf32>) -> tensor<2x4xf32>
  func.return %1 : tensor<2x4xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(Opcodes(Entry(*program)),
              ElementsAre(OpCode::kBinary, OpCode::kReshape));
}

TEST(FuseElementwiseTest, LoneOpReadingAScalarBroadcastIsFused) {
  // ReLU's backward pass: fused, the select reads the zero as a scalar and
  // its broadcast is never materialized.
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%m: tensor<8xi1>, %g: tensor<8xf32>) -> tensor<2x4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %0 = stablehlo.select %m, %g, %b : tensor<8xi1>, tensor<8xf32>
  %1 = stablehlo.reshape %0 : (tensor<8xf32>) -> tensor<2x4xf32>
  func.return %1 : tensor<2x4xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kConstant, OpCode::kFusedElementwise,
                          OpCode::kReshape));
  EXPECT_THAT(Ranks(entry.instructions[1].operand_types), ElementsAre(1, 1, 0));
}

TEST(FuseElementwiseTest, LoneOpComputingAnEntryResultIsFused) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %y : tensor<f32>
  func.return %0 : tensor<f32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  // One step, so that the target writes it into the caller's output.
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry), ElementsAre(OpCode::kFusedElementwise));
  EXPECT_THAT(StepBinaryOps(entry.instructions[0].attributes.fused),
              ElementsAre(BinaryOp::kAdd));
  EXPECT_EQ(entry.instructions[0].results, entry.results);
}

TEST(FuseElementwiseTest, DifferentDimsMakeDifferentGroups) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %a = stablehlo.add %x, %x : tensor<4xf32>
  %b = stablehlo.multiply %a, %x : tensor<4xf32>
  %r = stablehlo.reshape %b : (tensor<4xf32>) -> tensor<2x2xf32>
  %c = stablehlo.multiply %r, %r : tensor<2x2xf32>
  %d = stablehlo.negate %c : tensor<2x2xf32>
  func.return %d : tensor<2x2xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kFusedElementwise, OpCode::kReshape,
                          OpCode::kFusedElementwise));
  EXPECT_THAT(entry.instructions[0].result_types[0].shape.dims, ElementsAre(4));
  EXPECT_THAT(entry.instructions[2].result_types[0].shape.dims,
              ElementsAre(2, 2));
}

TEST(FuseElementwiseTest, BroadcastReadElsewhereStays) {
  // The fused body reads %s itself; the broadcast stays for the reshape.
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.add %x, %b : tensor<4xf32>
  %1 = stablehlo.multiply %0, %b : tensor<4xf32>
  %r = stablehlo.reshape %b : (tensor<4xf32>) -> tensor<2x2xf32>
  func.return %1, %r : tensor<4xf32>, tensor<2x2xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kBroadcastInDim, OpCode::kFusedElementwise,
                          OpCode::kReshape));
  EXPECT_THAT(entry.instructions[1].operands,
              ElementsAre(entry.parameters[0], entry.parameters[1]));
  EXPECT_THAT(entry.instructions[2].operands,
              ElementsAre(entry.instructions[0].results[0]));
}

TEST(FuseElementwiseTest, ValuesReturnedOrReadOutsideAreResultsInOrder) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<16xf32>) -> (tensor<16xi1>, tensor<16xf32>) {
  %a = stablehlo.exponential %x : tensor<16xf32>
  %b = stablehlo.negate %a : tensor<16xf32>
  %c = stablehlo.compare LT, %a, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
  func.return %c, %a : tensor<16xi1>, tensor<16xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  const ir::Instruction* fused = Only(entry, OpCode::kFusedElementwise);
  ASSERT_NE(fused, nullptr);
  // Program order, not the order of the return; %b stays inside.
  EXPECT_THAT(fused->results, ElementsAre(entry.results[1], entry.results[0]));
  EXPECT_THAT(fused->attributes.fused.outputs, ElementsAre(1, 3));
  EXPECT_EQ(fused->result_types[1].shape.type, ir::ElementType::kPred);
}

TEST(FuseElementwiseTest, RankZeroPredicateAndBoundsAreScalarInputs) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %r = stablehlo.select %p, %x, %y : tensor<i1>, tensor<4xf32>
  %c = stablehlo.clamp %lo, %r, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry), ElementsAre(OpCode::kFusedElementwise));
  const ir::Instruction& fused = entry.instructions[0];
  EXPECT_THAT(
      fused.operands,
      ElementsAre(entry.parameters[0], entry.parameters[1], entry.parameters[2],
                  entry.parameters[3], entry.parameters[4]));
  EXPECT_THAT(Ranks(fused.operand_types), ElementsAre(0, 1, 1, 0, 0));
  const ir::FusedBody& body = fused.attributes.fused;
  ASSERT_THAT(body.steps, SizeIs(2));
  EXPECT_EQ(body.steps[0].opcode, OpCode::kSelect);
  EXPECT_THAT(body.steps[0].inputs, ElementsAre(0, 1, 2));
  EXPECT_EQ(body.steps[1].opcode, OpCode::kClamp);
  EXPECT_THAT(body.steps[1].inputs, ElementsAre(3, 5, 4));
}

TEST(FuseElementwiseTest, GroupNobodyReadsIsDropped) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.add %0, %x : tensor<4xf32>
  func.return %x : tensor<4xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  // A fused instruction with no results would compute nothing (and give a
  // target no result to take its dims from).
  EXPECT_THAT(Entry(*program).instructions, IsEmpty());
}

// A value a region reads is materialized even when nothing else reads it:
// the while body reads %1, and the reducer reads %k, both computed by
// fused groups (%k by a rank-0 one).
constexpr char kCaptures[] = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  %1 = stablehlo.multiply %0, %x : tensor<4xf32>
  %k0 = stablehlo.add %y, %y : tensor<f32>
  %k = stablehlo.multiply %k0, %y : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %sum = stablehlo.add %acc, %1 : tensor<4xf32>
    %sq = stablehlo.multiply %sum, %sum : tensor<4xf32>
    stablehlo.return %next, %sq : tensor<i32>, tensor<4xf32>
  }
  %fzero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %fzero) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.multiply %s, %k : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }
  func.return %w#1, %r : tensor<4xf32>, tensor<f32>
}
)";

TEST(FuseElementwiseTest, ValuesCapturedByRegionsStayMaterialized) {
  absl::StatusOr<ir::Program> program = Compile(kCaptures, true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kFusedElementwise, OpCode::kFusedElementwise,
                          OpCode::kConstant, OpCode::kWhile, OpCode::kConstant,
                          OpCode::kReduce));
  const ir::Instruction& while_op = entry.instructions[3];
  const ir::Instruction& reduce = entry.instructions[5];
  ASSERT_THAT(while_op.regions, SizeIs(2));
  ASSERT_THAT(reduce.regions, SizeIs(1));
  const ir::Computation& body = program->computations[while_op.regions[1]];
  const ir::Computation& reducer = program->computations[reduce.regions[0]];
  // Each group returns exactly the value its region captures.
  ASSERT_THAT(body.captures, SizeIs(1));
  ASSERT_THAT(reducer.captures, SizeIs(1));
  EXPECT_THAT(entry.instructions[0].results, ElementsAre(body.captures[0]));
  EXPECT_THAT(entry.instructions[1].results, ElementsAre(reducer.captures[0]));
  EXPECT_THAT(Ranks(entry.instructions[1].result_types), ElementsAre(0));

  // Regions are fused too: the loop body's add and multiply (reading the
  // captured %1 as an input), and the reducer's add and multiply by %k.
  const ir::Instruction* body_fused = Only(body, OpCode::kFusedElementwise);
  ASSERT_NE(body_fused, nullptr);
  EXPECT_THAT(body_fused->operands,
              ElementsAre(body.parameters[1], body.capture_parameters[0]));
  const ir::Instruction* reducer_fused =
      Only(reducer, OpCode::kFusedElementwise);
  ASSERT_NE(reducer_fused, nullptr);
  EXPECT_THAT(reducer_fused->operands,
              ElementsAre(reducer.parameters[0], reducer.parameters[1],
                          reducer.capture_parameters[0]));
  EXPECT_EQ(reducer_fused->results, reducer.results);
}

// sum((x * y + s) max 0) over dims $D of a $SHAPE tensor of $T: the reduce
// takes in the fused group computing its input.
constexpr char kReduceOfChain[] = R"(
func.func @main(%x: tensor<$SHAPEx$T>, %y: tensor<$SHAPEx$T>, %s: tensor<$T>) -> tensor<$OUT$T> {
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<$T>) -> tensor<$SHAPEx$T>
  %zero = stablehlo.constant dense<0.0> : tensor<$T>
  %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<$T>) -> tensor<$SHAPEx$T>
  %0 = stablehlo.multiply %x, %y : tensor<$SHAPEx$T>
  %1 = stablehlo.add %0, %sb : tensor<$SHAPEx$T>
  %2 = stablehlo.maximum %1, %zb : tensor<$SHAPEx$T>
  %r = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [$D] : (tensor<$SHAPEx$T>, tensor<$T>) -> tensor<$OUT$T>
  func.return %r : tensor<$OUT$T>
}
)";

std::string ReduceOfChain(const char* type, const char* shape, const char* dims,
                          const char* out) {
  return absl::StrReplaceAll(
      kReduceOfChain,
      {{"$T", type}, {"$SHAPE", shape}, {"$D", dims}, {"$OUT", out}});
}

TEST(FuseReduceTest, ReduceTakesInTheGroupComputingItsInput) {
  absl::StatusOr<ir::Program> program =
      Compile(ReduceOfChain("f32", "8x16", "1", "8x"), true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  // No materialized input: the group's steps became the reduce's prologue.
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kConstant, OpCode::kFusedReduce));
  const ir::Instruction& reduce = entry.instructions[1];
  const int zero = entry.instructions[0].results[0];
  const std::vector<int>& p = entry.parameters;
  // x, y, s (read as a scalar), the 0 the maximum reads, then the init.
  EXPECT_THAT(reduce.operands, ElementsAre(p[0], p[1], p[2], zero, zero));
  EXPECT_THAT(Ranks(reduce.operand_types), ElementsAre(2, 2, 0, 0, 0));
  EXPECT_EQ(reduce.attributes.fused.num_inputs, 4);
  EXPECT_THAT(
      StepBinaryOps(reduce.attributes.fused),
      ElementsAre(BinaryOp::kMultiply, BinaryOp::kAdd, BinaryOp::kMaximum));
  EXPECT_THAT(reduce.attributes.fused.outputs, ElementsAre(6));
  EXPECT_EQ(reduce.attributes.fused_shape.dims, (std::vector<int64_t>{8, 16}));
  EXPECT_THAT(reduce.attributes.dims, ElementsAre(1));
  ASSERT_THAT(reduce.regions, SizeIs(1));
}

TEST(FuseReduceTest, SingleElementwiseProducerIsTakenIn) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<64xf32>) -> tensor<f32> {
  %sq = stablehlo.multiply %x, %x : tensor<64xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Computation& entry = Entry(*program);
  ASSERT_THAT(Opcodes(entry),
              ElementsAre(OpCode::kConstant, OpCode::kFusedReduce));
  const ir::Instruction& reduce = entry.instructions[1];
  // x once (read twice by the step), then the init.
  EXPECT_THAT(reduce.operands, ElementsAre(entry.parameters[0],
                                           entry.instructions[0].results[0]));
  EXPECT_THAT(StepBinaryOps(reduce.attributes.fused),
              ElementsAre(BinaryOp::kMultiply));
  EXPECT_THAT(reduce.attributes.fused.steps[0].inputs, ElementsAre(0, 0));
}

TEST(FuseReduceTest, InputReadElsewhereStaysMaterialized) {
  absl::StatusOr<ir::Program> program = Compile(R"(
func.func @main(%x: tensor<64xf32>) -> (tensor<f32>, tensor<64xf32>) {
  %sq = stablehlo.multiply %x, %x : tensor<64xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  func.return %r, %sq : tensor<f32>, tensor<64xf32>
}
)",
                                                true);
  ASSERT_TRUE(program.ok()) << program.status();
  // %sq stays materialized (as a one-step fused instruction, since it is a
  // result too) and the reduce reads it.
  EXPECT_THAT(Opcodes(Entry(*program)),
              ElementsAre(OpCode::kFusedElementwise, OpCode::kConstant,
                          OpCode::kReduce));
}

TEST(FuseReduceTest, WithoutFusionTheReduceStays) {
  absl::StatusOr<ir::Program> program =
      Compile(ReduceOfChain("f32", "8x16", "1", "8x"), false);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(CountFusedReduces(*program), 0);
}

// Deterministic arguments for every parameter of the entry computation,
// with the float values that trip up careless rewrites (NaN, signed zeros,
// infinities) mixed in.
std::vector<cpu::TensorValue> Arguments(const ir::Program& program,
                                        uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<cpu::TensorValue> arguments;
  for (const ir::ValueType& type : Entry(program).parameter_types) {
    cpu::Literal literal(type.shape);
    for (int64_t i = 0; i < literal.num_elements(); ++i) {
      const ir::ElementType t = type.shape.type;
      if (ir::IsFloat(t)) {
        double v = std::uniform_real_distribution<double>(-8, 8)(rng);
        switch (rng() % 32) {
          case 0:
            v = std::numeric_limits<double>::quiet_NaN();
            break;
          case 1:
            v = -0.0;
            break;
          case 2:
            v = 0.0;
            break;
          case 3:
            v = -std::numeric_limits<double>::infinity();
            break;
        }
        literal.SetFloat(i, v);
      } else if (t == ir::ElementType::kPred) {
        literal.SetInt(i, rng() & 1);
      } else {
        literal.SetInt(i,
                       std::uniform_int_distribution<int64_t>(-300, 300)(rng));
      }
    }
    arguments.push_back(cpu::TensorValue::Tensor(std::move(literal)));
  }
  return arguments;
}

// The same bits, except that any NaN matches any NaN: IEEE 754 leaves the
// sign and payload a NaN-propagating operation returns open, and vector
// code may pick the other operand's NaN than scalar code does.
bool SameBitsUpToNaNs(const cpu::Literal& got, const cpu::Literal& want) {
  if (got.shape() != want.shape()) return false;
  if (!ir::IsFloat(want.type())) return got.BitwiseEquals(want);
  const size_t element = ir::StorageSize(want.type());
  for (int64_t e = 0; e < want.num_elements(); ++e) {
    if (std::isnan(want.GetFloat(e)) && std::isnan(got.GetFloat(e))) continue;
    if (std::memcmp(got.data() + e * element, want.data() + e * element,
                    element) != 0) {
      ADD_FAILURE() << "element " << e << ": got " << got.GetFloat(e)
                    << ", want " << want.GetFloat(e);
      return false;
    }
  }
  return true;
}

struct EquivalenceCase {
  std::string name;
  std::string text;
  int fused;  // Fused instructions the program should have, all regions.
  int fused_reduces = 0;  // Of which reduces that took in their input.
};

constexpr char kMixedTypes[] = R"(
func.func @main(%x: tensor<300xf32>, %y: tensor<300xf32>, %p: tensor<i1>, %lo: tensor<f32>, %hi: tensor<f32>) -> (tensor<300xf32>, tensor<300xi32>, tensor<300xbf16>, tensor<300xi1>, tensor<300xf16>) {
  %gt = stablehlo.compare GT, %x, %y, FLOAT : (tensor<300xf32>, tensor<300xf32>) -> tensor<300xi1>
  %ne = stablehlo.compare NE, %x, %y : (tensor<300xf32>, tensor<300xf32>) -> tensor<300xi1>
  %both = stablehlo.and %gt, %ne : tensor<300xi1>
  %pick = stablehlo.select %both, %x, %y : tensor<300xi1>, tensor<300xf32>
  %clamped = stablehlo.clamp %lo, %pick, %hi : (tensor<f32>, tensor<300xf32>, tensor<f32>) -> tensor<300xf32>
  %chosen = stablehlo.select %p, %clamped, %x : tensor<i1>, tensor<300xf32>
  %i = stablehlo.convert %chosen : (tensor<300xf32>) -> tensor<300xi32>
  %twice = stablehlo.add %i, %i : tensor<300xi32>
  %back = stablehlo.convert %twice : (tensor<300xi32>) -> tensor<300xf32>
  %bf = stablehlo.convert %back : (tensor<300xf32>) -> tensor<300xbf16>
  %sq = stablehlo.multiply %bf, %bf : tensor<300xbf16>
  %total = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<300xf32>, tensor<300xf32>) -> tensor<300xi1>
  %odd = stablehlo.xor %total, %both : tensor<300xi1>
  %h = stablehlo.convert %sq : (tensor<300xbf16>) -> tensor<300xf16>
  %hm = stablehlo.maximum %h, %h : tensor<300xf16>
  %out = stablehlo.add %chosen, %back : tensor<300xf32>
  func.return %out, %twice, %sq, %odd, %hm : tensor<300xf32>, tensor<300xi32>, tensor<300xbf16>, tensor<300xi1>, tensor<300xf16>
}
)";

constexpr char kIntegerOps[] = R"(
func.func @main(%x: tensor<257x$T>, %y: tensor<257x$T>) -> (tensor<257x$T>, tensor<257xi1>) {
  %k = stablehlo.constant dense<3> : tensor<$T>
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<$T>) -> tensor<257x$T>
  %0 = stablehlo.add %x, %y : tensor<257x$T>
  %1 = stablehlo.subtract %0, %kb : tensor<257x$T>
  %2 = stablehlo.multiply %1, %y : tensor<257x$T>
  %3 = stablehlo.and %2, %x : tensor<257x$T>
  %4 = stablehlo.or %3, %y : tensor<257x$T>
  %5 = stablehlo.xor %4, %0 : tensor<257x$T>
  %6 = stablehlo.shift_left %5, %kb : tensor<257x$T>
  %7 = stablehlo.shift_right_arithmetic %6, %y : tensor<257x$T>
  %8 = stablehlo.shift_right_logical %7, %kb : tensor<257x$T>
  %9 = stablehlo.maximum %8, %x : tensor<257x$T>
  %10 = stablehlo.minimum %9, %y : tensor<257x$T>
  %11 = stablehlo.negate %10 : tensor<257x$T>
  %12 = stablehlo.not %11 : tensor<257x$T>
  %13 = stablehlo.clamp %k, %12, %y : (tensor<$T>, tensor<257x$T>, tensor<257x$T>) -> tensor<257x$T>
  %14 = stablehlo.compare LT, %13, %x : (tensor<257x$T>, tensor<257x$T>) -> tensor<257xi1>
  %15 = stablehlo.select %14, %13, %x : tensor<257xi1>, tensor<257x$T>
  func.return %15, %14 : tensor<257x$T>, tensor<257xi1>
}
)";

// The dot reads %1 between what would otherwise be members of one group
// (%0 .. %5): a fused instruction standing where %5 stood would leave the
// dot reading a value not computed yet.
constexpr char kDotBetweenMembers[] = R"(
func.func @main(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %x, %w : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %d = stablehlo.dot_general %1, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %x : tensor<8x8xf32>
  %3 = stablehlo.subtract %2, %d : tensor<8x8xf32>
  %4 = stablehlo.tanh %3 : tensor<8x8xf32>
  %5 = stablehlo.maximum %4, %0 : tensor<8x8xf32>
  func.return %5, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
)";

// Every way the f32 register path reads operands: scalar first and second,
// two tensors, a value read three steps later (spilled), the same value
// twice, unary steps, and a second output that is not the last step. $N
// covers a partial last block and, large, the streaming stores.
constexpr char kF32Forms[] = R"(
func.func @main(%x: tensor<$Nxf32>, %y: tensor<$Nxf32>, %s: tensor<f32>) -> (tensor<$Nxf32>, tensor<$Nxf32>) {
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<$Nxf32>
  %0 = stablehlo.subtract %sb, %x : tensor<$Nxf32>
  %1 = stablehlo.divide %0, %y : tensor<$Nxf32>
  %2 = stablehlo.multiply %1, %1 : tensor<$Nxf32>
  %3 = stablehlo.negate %2 : tensor<$Nxf32>
  %4 = stablehlo.maximum %sb, %3 : tensor<$Nxf32>
  %5 = stablehlo.minimum %4, %1 : tensor<$Nxf32>
  %6 = stablehlo.abs %5 : tensor<$Nxf32>
  %7 = stablehlo.maximum %y, %6 : tensor<$Nxf32>
  %8 = stablehlo.minimum %7, %sb : tensor<$Nxf32>
  func.return %8, %3 : tensor<$Nxf32>, tensor<$Nxf32>
}
)";

// A dense layer's bias and activation as JAX lowers them, the ReLU an
// outlined function: inlined, one group in the entry.
constexpr char kOutlinedRelu[] = R"(
func.func @main(%x: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = stablehlo.add %x, %b : tensor<1000xf32>
  %1 = call @relu(%0) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %1 : tensor<1000xf32>
}
func.func private @relu(%arg0: tensor<1000xf32>) -> tensor<1000xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  %1 = stablehlo.maximum %arg0, %0 : tensor<1000xf32>
  return %1 : tensor<1000xf32>
}
)";

std::vector<EquivalenceCase> EquivalenceCases() {
  std::vector<EquivalenceCase> cases = {
      {"chain_f32", Chain("f32", "1024"), 1},
      // Over two 16 Ki-element tiles and a partial one.
      {"chain_f32_tiled", Chain("f32", "40000"), 1},
      {"chain_bf16", Chain("bf16", "1000"), 1},
      {"chain_f16", Chain("f16", "1000"), 1},
      {"chain_f64", Chain("f64", "100"), 1},
      {"f32_forms", absl::StrReplaceAll(kF32Forms, {{"$N", "1000"}}), 1},
      {"f32_forms_streamed",
       absl::StrReplaceAll(kF32Forms, {{"$N", "1100037"}}), 1},
      // One group: an op reading two open groups merges them (%both reads
      // %gt's and %ne's, %odd reads %total's and %both's).
      {"mixed_types", kMixedTypes, 1},
      {"dot_between_members", kDotBetweenMembers, 2},
      // The entry's group, and @relu's own (it stays in the program).
      {"outlined_relu", kOutlinedRelu, 2},
      {"region_captures", kCaptures, 4},
  };
  // Reductions that took in their input: innermost, outer and several
  // dims, rows longer than a produced chunk, types the typed loops cover
  // and bf16 (which materializes the prologue instead), and a reducer of
  // two ops (likewise).
  cases.push_back(
      {"reduce_inner_f32", ReduceOfChain("f32", "7x300", "1", "7x"), 1, 1});
  cases.push_back(
      {"reduce_outer_f32", ReduceOfChain("f32", "300x7", "0", "7x"), 1, 1});
  cases.push_back({"reduce_all_f32",
                   ReduceOfChain("f32", "3x5x9000", "0, 1, 2", ""), 1, 1});
  cases.push_back({"reduce_middle_f64",
                   ReduceOfChain("f64", "5x6000x3", "1", "5x3x"), 1, 1});
  cases.push_back(
      {"reduce_bf16", ReduceOfChain("bf16", "9x40", "1", "9x"), 1, 1});
  cases.push_back(
      {"reduce_i32",
       absl::StrReplaceAll(ReduceOfChain("i32", "6x500", "0", "500x"),
                           {{"dense<0.0>", "dense<0>"}}),
       1, 1});
  cases.push_back({"reduce_two_op_reducer", R"(
func.func @main(%x: tensor<4x50xf32>) -> tensor<4xf32> {
  %sq = stablehlo.multiply %x, %x : tensor<4x50xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.reduce(%sq init: %one) across dimensions = [1] : (tensor<4x50xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %h = stablehlo.multiply %s, %one : tensor<f32>
    stablehlo.return %h : tensor<f32>
  }
  func.return %r : tensor<4xf32>
}
)",
                   2, 1});
  for (const char* type : {"i32", "i64", "ui8", "i8", "ui32"}) {
    cases.push_back({absl::StrCat("integer_ops_", type),
                     absl::StrReplaceAll(kIntegerOps, {{"$T", type}}), 1});
  }
  return cases;
}

// Names the case in failure messages instead of dumping its bytes.
void PrintTo(const EquivalenceCase& c, std::ostream* os) { *os << c.name; }

class FusionEquivalenceTest : public ::testing::TestWithParam<EquivalenceCase> {
};

TEST_P(FusionEquivalenceTest, FusedAndUnfusedGiveTheSameBits) {
  const EquivalenceCase& c = GetParam();
  absl::StatusOr<ir::Program> fused = Compile(c.text, true);
  ASSERT_TRUE(fused.ok()) << fused.status();
  absl::StatusOr<ir::Program> unfused = Compile(c.text, false);
  ASSERT_TRUE(unfused.ok()) << unfused.status();
  // Otherwise the comparison would prove nothing.
  ASSERT_EQ(CountFused(*fused), c.fused - c.fused_reduces);
  ASSERT_EQ(CountFusedReduces(*fused), c.fused_reduces);
  ASSERT_EQ(CountFused(*unfused) + CountFusedReduces(*unfused), 0);
  for (uint32_t seed : {1u, 2u, 3u}) {
    cpu::Interpreter fused_interpreter(*fused);
    cpu::Interpreter unfused_interpreter(*unfused);
    absl::StatusOr<std::vector<cpu::TensorValue>> want =
        unfused_interpreter.Run(Arguments(*unfused, seed));
    ASSERT_TRUE(want.ok()) << want.status();
    absl::StatusOr<std::vector<cpu::TensorValue>> got =
        fused_interpreter.Run(Arguments(*fused, seed));
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), want->size());
    for (size_t i = 0; i < want->size(); ++i) {
      const cpu::Literal& w = (*want)[i].tensor;
      const cpu::Literal& g = (*got)[i].tensor;
      EXPECT_TRUE(SameBitsUpToNaNs(g, w))
          << "result " << i << ", seed " << seed;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Programs, FusionEquivalenceTest, ::testing::ValuesIn(EquivalenceCases()),
    [](const ::testing::TestParamInfo<EquivalenceCase>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace pjrtx
