// Lowering of collectives, send/recv and the process ids: the opcodes and
// CollectiveSpec the runtime reads, the checks that reject ill-formed ops
// (naming the offending value), and the compile-driver options that go
// with them (entry reachability, replica/partition counts).
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

using ir::OpCode;

absl::StatusOr<ir::Program> Compile(std::string_view text,
                                    std::string entry = "") {
  compiler::CompileOptions options;
  options.entry = std::move(entry);
  return compiler::Compile(text, options);
}

// A module whose @f takes `params` and returns `results` through `body`.
std::string Module(const std::string& params, const std::string& results,
                   const std::string& body) {
  return absl::StrCat("module {\n  func.func @f(", params, ") -> (", results,
                      ") {\n", body, "\n  }\n}\n");
}

const ir::Instruction& Only(const ir::Program& program, OpCode opcode) {
  const ir::Instruction* found = nullptr;
  for (const ir::Computation& c : program.computations) {
    for (const ir::Instruction& inst : c.instructions) {
      if (inst.opcode != opcode) continue;
      EXPECT_EQ(found, nullptr) << "more than one instruction of this opcode";
      found = &inst;
    }
  }
  EXPECT_NE(found, nullptr) << "no instruction of this opcode";
  static const ir::Instruction kNone;
  return found != nullptr ? *found : kNone;
}

ir::ValueType Tensor(ir::ElementType type, std::vector<int64_t> dims) {
  return ir::ValueType::Tensor(ir::Shape{type, std::move(dims)});
}

ir::ValueType Token() {
  return ir::ValueType{ir::ValueType::Kind::kToken, {}, {}};
}

// The message of a compile that must fail with `code`.
std::string ErrorOf(
    const absl::StatusOr<ir::Program>& program,
    absl::StatusCode code = absl::StatusCode::kInvalidArgument) {
  EXPECT_FALSE(program.ok());
  if (program.ok()) return "";
  EXPECT_EQ(program.status().code(), code) << program.status();
  return std::string(program.status().message());
}

constexpr char kAddRegion[] = R"(({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }))";

TEST(CollectiveLoweringTest, ProcessIds) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("", "tensor<ui32>, tensor<ui32>", R"(
    %r = stablehlo.replica_id : tensor<ui32>
    %p = "stablehlo.partition_id"() : () -> tensor<ui32>
    return %r, %p : tensor<ui32>, tensor<ui32>)"));
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(Only(*program, OpCode::kReplicaId).result_types,
              ElementsAre(Tensor(ir::ElementType::kU32, {})));
  EXPECT_THAT(Only(*program, OpCode::kPartitionId).operands, IsEmpty());
  EXPECT_TRUE(program->has_collectives);
}

TEST(CollectiveLoweringTest, ProgramsWithoutCollectivesSaySo) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<2xf32>", "tensor<2xf32>", R"(
    %y = stablehlo.add %x, %x : tensor<2xf32>
    return %y : tensor<2xf32>)"));
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_FALSE(program->has_collectives);
  EXPECT_EQ(program->num_replicas, 1);
  EXPECT_EQ(program->num_partitions, 1);
}

TEST(CollectiveLoweringTest, AllReduceWithRaggedGroupsAndGlobalIds) {
  absl::StatusOr<ir::Program> program = Compile(Module(
      "%x: tensor<4xi64>, %y: tensor<5xi64>", "tensor<4xi64>, tensor<5xi64>",
      absl::StrCat(R"(
    %r:2 = "stablehlo.all_reduce"(%x, %y) )",
                   kAddRegion, R"( {
      replica_groups = dense<[[0, 2, 1], [3, -1, -1], [5, 4, -1]]> : tensor<3x3xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>,
      use_global_device_ids
    } : (tensor<4xi64>, tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>)
    return %r#0, %r#1 : tensor<4xi64>, tensor<5xi64>)")));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& inst = Only(*program, OpCode::kAllReduce);
  const ir::CollectiveSpec& spec = inst.attributes.collective;
  EXPECT_THAT(
      spec.replica_groups,
      ElementsAre(ElementsAre(0, 2, 1), ElementsAre(3), ElementsAre(5, 4)));
  EXPECT_EQ(spec.channel_id, 7);
  EXPECT_EQ(spec.channel_type, 1);
  EXPECT_TRUE(spec.use_global_device_ids);
  EXPECT_THAT(inst.result_types,
              ElementsAre(Tensor(ir::ElementType::kS64, {4}),
                          Tensor(ir::ElementType::kS64, {5})));
  ASSERT_EQ(inst.regions.size(), 1u);
  EXPECT_EQ(program->computations[inst.regions[0]].parameter_types.size(), 2u);
  EXPECT_TRUE(program->has_collectives);
}

TEST(CollectiveLoweringTest, AllReduceWithoutGroupsOrChannel) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<4xi64>", "tensor<4xi64>",
                     absl::StrCat(R"(
    %r = "stablehlo.all_reduce"(%x) )",
                                  kAddRegion,
                                  R"( {
      replica_groups = dense<> : tensor<0x0xi64>
    } : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>)")));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::CollectiveSpec& spec =
      Only(*program, OpCode::kAllReduce).attributes.collective;
  EXPECT_THAT(spec.replica_groups, IsEmpty());
  EXPECT_EQ(spec.channel_id, 0);
  EXPECT_FALSE(spec.use_global_device_ids);
}

TEST(CollectiveLoweringTest, AllReduceRegionMustMatchTheElementType) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<4xf32>", "tensor<4xf32>",
                             absl::StrCat(R"(
    %r = "stablehlo.all_reduce"(%x) )",
                                          kAddRegion, R"( {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>)"))));
  EXPECT_THAT(message, HasSubstr("tensor<f32>"));
}

TEST(CollectiveLoweringTest, CollectiveReduceTakesOneOperand) {
  const std::string region = kAddRegion;
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<4xi64>", "tensor<4xi64>",
                     absl::StrCat(R"(
    %r = "stablehlo.collective_reduce"(%x) )",
                                  region, R"( {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>)")));
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(Only(*program, OpCode::kCollectiveReduce)
                  .attributes.collective.replica_groups,
              ElementsAre(ElementsAre(0, 1)));

  std::string message = ErrorOf(
      Compile(Module("%x: tensor<4xi64>", "tensor<4xi64>, tensor<4xi64>",
                     absl::StrCat(R"(
    %r:2 = "stablehlo.collective_reduce"(%x, %x) )",
                                  region,
                                  R"( {
    } : (tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>)
    return %r#0, %r#1 : tensor<4xi64>, tensor<4xi64>)"))));
  EXPECT_THAT(message, HasSubstr("takes 1 operand(s), got 2"));
}

TEST(CollectiveLoweringTest, AllGather) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<2x2xi64>, %y: tensor<2x3xi32>",
                     "tensor<2x4xi64>, tensor<2x6xi32>", R"(
    %r:2 = "stablehlo.all_gather"(%x, %y) {
      all_gather_dim = 1 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2x2xi64>, tensor<2x3xi32>) -> (tensor<2x4xi64>, tensor<2x6xi32>)
    return %r#0, %r#1 : tensor<2x4xi64>, tensor<2x6xi32>)"));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& inst = Only(*program, OpCode::kAllGather);
  EXPECT_EQ(inst.attributes.dimension, 1);
  EXPECT_THAT(inst.result_types,
              ElementsAre(Tensor(ir::ElementType::kS64, {2, 4}),
                          Tensor(ir::ElementType::kS32, {2, 6})));
}

TEST(CollectiveLoweringTest, AllGatherResultDimMustBeAMultiple) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<2x3xi64>", "tensor<2x7xi64>", R"(
    %r = "stablehlo.all_gather"(%x) {
      all_gather_dim = 1 : i64
    } : (tensor<2x3xi64>) -> tensor<2x7xi64>
    return %r : tensor<2x7xi64>)")));
  EXPECT_THAT(message, HasSubstr("(7) should be a multiple of operand "
                                 "dimension 1 (3)"));
  EXPECT_THAT(message, HasSubstr("stablehlo.all_gather"));
}

TEST(CollectiveLoweringTest, ReduceScatter) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<2x4xi64>", "tensor<2x2xi64>",
                     absl::StrCat(R"(
    %r = "stablehlo.reduce_scatter"(%x) )",
                                  kAddRegion, R"( {
      scatter_dimension = 1 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>
    } : (tensor<2x4xi64>) -> tensor<2x2xi64>
    return %r : tensor<2x2xi64>)")));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& inst = Only(*program, OpCode::kReduceScatter);
  EXPECT_EQ(inst.attributes.dimension, 1);
  EXPECT_EQ(inst.attributes.collective.channel_id, 2);
  EXPECT_EQ(inst.regions.size(), 1u);
}

TEST(CollectiveLoweringTest, ReduceScatterBadDimension) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<2x4xi64>", "tensor<2x2xi64>",
                             absl::StrCat(R"(
    %r = "stablehlo.reduce_scatter"(%x) )",
                                          kAddRegion, R"( {
      scatter_dimension = 2 : i64
    } : (tensor<2x4xi64>) -> tensor<2x2xi64>
    return %r : tensor<2x2xi64>)"))));
  EXPECT_THAT(message, HasSubstr("scatter_dimension 2 is out of range for "
                                 "rank 2"));

  message = ErrorOf(Compile(Module("%x: tensor<2x4xi64>", "tensor<2x3xi64>",
                                   absl::StrCat(R"(
    %r = "stablehlo.reduce_scatter"(%x) )",
                                                kAddRegion, R"( {
      scatter_dimension = 1 : i64
    } : (tensor<2x4xi64>) -> tensor<2x3xi64>
    return %r : tensor<2x3xi64>)"))));
  EXPECT_THAT(message, HasSubstr("(3) should be a divisor of operand "
                                 "dimension 1 (4)"));
}

TEST(CollectiveLoweringTest, AllToAll) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<2x4xi64>, %y: tensor<3x4xi32>",
                     "tensor<4x2xi64>, tensor<6x2xi32>", R"(
    %r:2 = "stablehlo.all_to_all"(%x, %y) {
      split_dimension = 1 : i64,
      concat_dimension = 0 : i64,
      split_count = 2 : i64,
      replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>
    } : (tensor<2x4xi64>, tensor<3x4xi32>) -> (tensor<4x2xi64>, tensor<6x2xi32>)
    return %r#0, %r#1 : tensor<4x2xi64>, tensor<6x2xi32>)"));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& inst = Only(*program, OpCode::kAllToAll);
  const ir::CollectiveSpec& spec = inst.attributes.collective;
  EXPECT_EQ(spec.split_dimension, 1);
  EXPECT_EQ(spec.concat_dimension, 0);
  EXPECT_EQ(spec.split_count, 2);
  EXPECT_THAT(spec.replica_groups, ElementsAre(ElementsAre(1, 0)));
  EXPECT_THAT(inst.result_types,
              ElementsAre(Tensor(ir::ElementType::kS64, {4, 2}),
                          Tensor(ir::ElementType::kS32, {6, 2})));
}

TEST(CollectiveLoweringTest, AllToAllSplitMustDivide) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<2x5xi64>", "tensor<4x2xi64>", R"(
    %r = "stablehlo.all_to_all"(%x) {
      split_dimension = 1 : i64,
      concat_dimension = 0 : i64,
      split_count = 2 : i64
    } : (tensor<2x5xi64>) -> tensor<4x2xi64>
    return %r : tensor<4x2xi64>)")));
  EXPECT_THAT(message, HasSubstr("dimension 1 (5) is not divisible by "
                                 "split_count 2"));
}

TEST(CollectiveLoweringTest, CollectivePermute) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<2x2xi64>", "tensor<2x2xi64>", R"(
    %r = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 1], [1, 2], [3, 3]]> : tensor<3x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>
    } : (tensor<2x2xi64>) -> tensor<2x2xi64>
    return %r : tensor<2x2xi64>)"));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::CollectiveSpec& spec =
      Only(*program, OpCode::kCollectivePermute).attributes.collective;
  EXPECT_THAT(spec.source_target_pairs,
              ElementsAre(Pair(0, 1), Pair(1, 2), Pair(3, 3)));
  EXPECT_EQ(spec.channel_id, 1);
}

TEST(CollectiveLoweringTest, CollectivePermuteDuplicateTarget) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<2x2xi64>", "tensor<2x2xi64>", R"(
    %r = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 2], [1, 2]]> : tensor<2x2xi64>
    } : (tensor<2x2xi64>) -> tensor<2x2xi64>
    return %r : tensor<2x2xi64>)")));
  EXPECT_THAT(message, HasSubstr("names target 2 twice"));
}

TEST(CollectiveLoweringTest, CollectiveBroadcast) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<1x2xi64>", "tensor<1x2xi64>", R"(
    %r = "stablehlo.collective_broadcast"(%x) {
      replica_groups = dense<[[2, 1, 0]]> : tensor<1x3xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
    } : (tensor<1x2xi64>) -> tensor<1x2xi64>
    return %r : tensor<1x2xi64>)"));
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_THAT(Only(*program, OpCode::kCollectiveBroadcast)
                  .attributes.collective.replica_groups,
              ElementsAre(ElementsAre(2, 1, 0)));
}

TEST(CollectiveLoweringTest, SendAndRecv) {
  absl::StatusOr<ir::Program> program =
      Compile(Module("%x: tensor<2x2xi64>, %t: !stablehlo.token",
                     "!stablehlo.token, tensor<2x2xi64>, !stablehlo.token", R"(
    %s = "stablehlo.send"(%x, %t) {
      channel_handle = #stablehlo.channel_handle<handle = 3, type = 2>,
      is_host_transfer = true
    } : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
    %v, %u = "stablehlo.recv"(%t) {
      channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>
    } : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
    return %s, %v, %u : !stablehlo.token, tensor<2x2xi64>, !stablehlo.token)"));
  ASSERT_TRUE(program.ok()) << program.status();
  const ir::Instruction& send = Only(*program, OpCode::kSend);
  EXPECT_EQ(send.attributes.collective.channel_id, 3);
  EXPECT_EQ(send.attributes.collective.channel_type, 2);
  EXPECT_TRUE(send.attributes.collective.is_host_transfer);
  EXPECT_THAT(send.result_types, ElementsAre(Token()));
  const ir::Instruction& recv = Only(*program, OpCode::kRecv);
  EXPECT_EQ(recv.attributes.collective.channel_id, 4);
  EXPECT_FALSE(recv.attributes.collective.is_host_transfer);
  EXPECT_THAT(recv.result_types,
              ElementsAre(Tensor(ir::ElementType::kS64, {2, 2}), Token()));
  EXPECT_TRUE(program->has_collectives);
}

TEST(CollectiveLoweringTest, SendWithoutTokenOrChannel) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<2x2xi64>", "!stablehlo.token", R"(
    %s = "stablehlo.send"(%x) {
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>
    } : (tensor<2x2xi64>) -> !stablehlo.token
    return %s : !stablehlo.token)")));
  EXPECT_THAT(message, HasSubstr("last operand must be a !stablehlo.token, "
                                 "got tensor<2x2xsi64>"));

  message = ErrorOf(Compile(Module("%x: tensor<2x2xi64>, %t: !stablehlo.token",
                                   "!stablehlo.token", R"(
    %s = "stablehlo.send"(%x, %t) : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
    return %s : !stablehlo.token)")));
  EXPECT_THAT(message, HasSubstr("needs a channel_handle"));
}

TEST(CollectiveLoweringTest, ReplicaIdWithWrongResultType) {
  std::string message = ErrorOf(Compile(Module("", "tensor<i32>", R"(
    %r = stablehlo.replica_id : tensor<i32>
    return %r : tensor<i32>)")));
  EXPECT_THAT(message, HasSubstr("result type tensor<si32> should be "
                                 "tensor<ui32>"));
}

TEST(CollectiveLoweringTest, MalformedReplicaGroups) {
  auto all_reduce = [](const std::string& groups) {
    return Compile(Module(
        "%x: tensor<4xi64>", "tensor<4xi64>",
        absl::StrCat(R"(
    %r = "stablehlo.all_reduce"(%x) )",
                     kAddRegion, " {\n      replica_groups = ", groups, R"(
    } : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>)")));
  };
  std::string message =
      ErrorOf(all_reduce("dense<[[0, -1, 1]]> : tensor<1x3xi64>"));
  EXPECT_THAT(message, HasSubstr("[0, -1, 1] has id 1 after -1 padding"));
  message = ErrorOf(all_reduce("dense<[[0, -2], [1, 3]]> : tensor<2x2xi64>"));
  EXPECT_THAT(message, HasSubstr("has id -2"));
  message = ErrorOf(all_reduce("dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>"));
  EXPECT_THAT(message, HasSubstr("names id 1 twice"));
  message = ErrorOf(all_reduce("dense<[0, 1]> : tensor<2xi64>"));
  EXPECT_THAT(message, HasSubstr("tensor<RxCxi64>"));
}

TEST(CollectiveLoweringTest, GlobalDeviceIdsNeedAChannel) {
  std::string message =
      ErrorOf(Compile(Module("%x: tensor<4xi64>", "tensor<4xi64>",
                             absl::StrCat(R"(
    %r = "stablehlo.all_reduce"(%x) )",
                                          kAddRegion,
                                          R"( {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      use_global_device_ids
    } : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>)"))));
  EXPECT_THAT(message, HasSubstr("handle > 0, has 0"));
}

TEST(CollectiveLoweringTest, InfeedStaysUnimplemented) {
  std::string message = ErrorOf(
      Compile(Module("%t: !stablehlo.token", "tensor<2xf32>, !stablehlo.token",
                     R"(
    %v, %u = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    return %v, %u : tensor<2xf32>, !stablehlo.token)")),
      absl::StatusCode::kUnimplemented);
  EXPECT_THAT(message, HasSubstr("host feed"));
}

// The StableHLO corpus's layout: collective functions, and a @main that
// runs them with an interpreter-only op.
constexpr char kDriverModule[] = R"(
module @cross_replica {
  func.func @add(%a: tensor<4xi64>) -> tensor<4xi64> {
    %r = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<i64>, %y: tensor<i64>):
        %s = stablehlo.add %x, %y : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>
  }
  func.func @all_reduce(%operand : tensor<4xi64>) -> tensor<4xi64> {
    %r = func.call @add(%operand) : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>
  }
  func.func @unrelated(%operand : tensor<4xi64>) -> tensor<4xi64> {
    %r = "stablehlo.not_an_op"(%operand) : (tensor<4xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>
  }
  func.func @main() {
    %inputs0 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
    %inputs1 = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi64>
    %results:2 = "interpreter.run_parallel"(%inputs0, %inputs1) {
      programs=[[@all_reduce], [@all_reduce]]
    } : (tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>)
    func.return
  }
}
)";

TEST(CollectiveLoweringTest, NamedEntryLowersOnlyWhatItCalls) {
  absl::StatusOr<ir::Program> program = Compile(kDriverModule, "all_reduce");
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->computations[program->entry].name, "all_reduce");
  EXPECT_EQ(program->functions.count("add"), 1u);
  EXPECT_EQ(program->functions.count("main"), 0u);
  EXPECT_EQ(program->functions.count("unrelated"), 0u);
  EXPECT_TRUE(program->has_collectives);
  const ir::Instruction& call = Only(*program, OpCode::kCall);
  EXPECT_EQ(program->computations[call.attributes.callee].name, "add");

  // Without a named entry every function is lowered, as before.
  std::string message = ErrorOf(Compile(kDriverModule));
  EXPECT_THAT(message, HasSubstr("stablehlo.not_an_op"));
}

TEST(CollectiveLoweringTest, ReplicaAndPartitionCounts) {
  const std::string text = R"(
module @m attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 3 : i32} {
  func.func @main() -> tensor<ui32> {
    %r = stablehlo.replica_id : tensor<ui32>
    return %r : tensor<ui32>
  }
}
)";
  compiler::CompileOptions options;
  absl::StatusOr<ir::Program> program = compiler::Compile(text, options);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->num_replicas, 2);
  EXPECT_EQ(program->num_partitions, 3);

  options.num_replicas = 8;
  program = compiler::Compile(text, options);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->num_replicas, 8);
  EXPECT_EQ(program->num_partitions, 3);

  options.num_partitions = -1;
  std::string message = ErrorOf(compiler::Compile(text, options));
  EXPECT_THAT(message, HasSubstr("num_partitions (-1)"));
}

TEST(CollectiveLoweringTest, DynamicRootBroadcastTakesOneRootPerOperand) {
  const std::string good = R"(
func.func @main(%a: tensor<2xf32>, %b: tensor<3xi8>, %root: tensor<2xi32>) -> (tensor<2xf32>, tensor<3xi8>) {
  %r:2 = "stablehlo.collective_broadcast"(%a, %b, %root) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root
  } : (tensor<2xf32>, tensor<3xi8>, tensor<2xi32>) -> (tensor<2xf32>, tensor<3xi8>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<3xi8>
})";
  absl::StatusOr<ir::Program> program = Compile(good, "main");
  ASSERT_TRUE(program.ok()) << program.status();
  bool found = false;
  for (const ir::Instruction& inst :
       program->computations[program->entry].instructions) {
    if (inst.opcode == ir::OpCode::kCollectiveBroadcast) {
      found = inst.attributes.collective.has_dynamic_root;
    }
  }
  EXPECT_TRUE(found);
  const std::string bad = R"(
func.func @main(%a: tensor<2xf32>, %root: tensor<2xi32>) -> tensor<2xf32> {
  %r = "stablehlo.collective_broadcast"(%a, %root) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root
  } : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
})";
  EXPECT_THAT(
      ErrorOf(Compile(bad, "main")),
      HasSubstr("root indices are tensor<2xsi32>, expected tensor<1xi32>"));
}

// Every non-@main function of the corpus's collective files compiles as an
// entry.
TEST(CollectiveLoweringTest, CorpusCollectiveFunctionsCompile) {
  const char* env = std::getenv("PJRTX_STABLEHLO_CORPUS_DIR");
  const std::string dir = env != nullptr ? env : "";
  if (dir.empty() || !std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "no StableHLO corpus (set PJRTX_STABLEHLO_CORPUS_DIR)";
  }
  const std::regex function(R"(func\.func @(\w+))");
  int compiled = 0;
  for (const char* file :
       {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
        "collective_permute", "collective_broadcast", "collective_reduce",
        "send_recv", "replica_id", "partition_id"}) {
    std::ifstream in(std::filesystem::path(dir) / absl::StrCat(file, ".mlir"));
    if (!in) continue;
    std::stringstream text;
    text << in.rdbuf();
    for (absl::string_view module : absl::StrSplit(text.str(), "// -----")) {
      const std::string module_text(module);
      for (auto it = std::sregex_iterator(module_text.begin(),
                                          module_text.end(), function);
           it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        if (name == "main") continue;
        absl::StatusOr<ir::Program> program = Compile(module_text, name);
        ASSERT_TRUE(program.ok())
            << file << ".mlir @" << name << ": " << program.status();
        EXPECT_TRUE(program->has_collectives) << file << ".mlir @" << name;
        ++compiled;
      }
    }
  }
  EXPECT_GT(compiled, 30);
}

}  // namespace
}  // namespace pjrtx
