// plugins/cuda/collectives/nccl_library.cc on its own: loading NCCL (the fake,
// a path that does not exist), the names and codes of its errors, the versions,
// and which types and operators map to NCCL's.
#include "plugins/cuda/collectives/nccl_library.h"

#include <nccl.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cuda_plugin {
namespace {

using ::testing::HasSubstr;

TEST(NcclLibraryTest, LoadsTheFakeAndReadsItsVersion) {
  const NcclLibrary nccl = LoadNcclFrom(FAKE_NCCL_LIBRARY);
  ASSERT_NE(nccl.api, nullptr) << nccl.unavailable_reason;
  EXPECT_EQ(nccl.unavailable_reason, "");
  EXPECT_EQ(nccl.version, NCCL_VERSION_CODE);
  EXPECT_EQ(nccl.path, FAKE_NCCL_LIBRARY);
}

TEST(NcclLibraryTest, AMissingLibraryIsAReasonNotAFailure) {
  const NcclLibrary nccl = LoadNcclFrom("/nonexistent/libnccl.so.2");
  EXPECT_EQ(nccl.api, nullptr);
  EXPECT_THAT(nccl.unavailable_reason,
              HasSubstr("cannot load /nonexistent/libnccl.so.2"));
  EXPECT_THAT(nccl.unavailable_reason, HasSubstr("PJRTX_NCCL_PATH"));
}

TEST(NcclLibraryTest, ALibraryWithoutNcclIsNamedByTheMissingSymbol) {
  // libdl is a shared library without a single NCCL entry point.
  const NcclLibrary nccl = LoadNcclFrom("libdl.so.2");
  EXPECT_EQ(nccl.api, nullptr);
  EXPECT_THAT(nccl.unavailable_reason, HasSubstr("has no ncclGetVersion"));
}

TEST(NcclLibraryTest, VersionsInBothEncodings) {
  EXPECT_EQ(NcclVersionText(22809), "2.28.9");
  EXPECT_EQ(NcclVersionText(21300), "2.13.0");
  EXPECT_EQ(NcclVersionText(2708), "2.7.8");
}

TEST(NcclLibraryTest, ErrorsNameTheCallNcclsTextAndCode) {
  const NcclLibrary nccl = LoadNcclFrom(FAKE_NCCL_LIBRARY);
  ASSERT_NE(nccl.api, nullptr) << nccl.unavailable_reason;
  EXPECT_TRUE(NcclStatus(*nccl.api, ncclSuccess, "ncclAllReduce").ok());
  const struct {
    ncclResult_t result;
    absl::StatusCode code;
    const char* text;
  } cases[] = {
      {ncclInvalidArgument, absl::StatusCode::kInvalidArgument,
       "invalid argument"},
      {ncclInvalidUsage, absl::StatusCode::kFailedPrecondition,
       "invalid usage"},
      {ncclSystemError, absl::StatusCode::kUnavailable, "system error"},
      {ncclRemoteError, absl::StatusCode::kUnavailable, "remote process"},
      {ncclUnhandledCudaError, absl::StatusCode::kInternal, "cuda error"},
      {ncclInternalError, absl::StatusCode::kInternal, "internal error"},
  };
  for (const auto& c : cases) {
    const absl::Status status = NcclStatus(*nccl.api, c.result, "ncclSend");
    EXPECT_EQ(status.code(), c.code) << status;
    EXPECT_THAT(status.message(), HasSubstr("ncclSend: "));
    EXPECT_THAT(status.message(), HasSubstr(c.text));
    EXPECT_THAT(status.message(),
                HasSubstr("ncclResult_t " + std::to_string(c.result)));
  }
  // What NCCL last said comes along: here, a call with a NULL argument.
  ASSERT_EQ(nccl.api->ncclGetVersion(nullptr), ncclInvalidArgument);
  EXPECT_THAT(
      NcclStatus(*nccl.api, ncclInvalidArgument, "ncclGetVersion").message(),
      HasSubstr("NCCL's last error: fake_nccl: version is NULL"));
}

TEST(NcclLibraryTest, ReductionTypes) {
  const struct {
    PJRTX_Buffer_Type type;
    ncclDataType_t nccl;
  } supported[] = {
      {PJRTX_Buffer_Type_S8, ncclInt8},
      {PJRTX_Buffer_Type_U8, ncclUint8},
      {PJRTX_Buffer_Type_S32, ncclInt32},
      {PJRTX_Buffer_Type_U32, ncclUint32},
      {PJRTX_Buffer_Type_S64, ncclInt64},
      {PJRTX_Buffer_Type_U64, ncclUint64},
      {PJRTX_Buffer_Type_F16, ncclFloat16},
      {PJRTX_Buffer_Type_BF16, ncclBfloat16},
      {PJRTX_Buffer_Type_F32, ncclFloat32},
      {PJRTX_Buffer_Type_F64, ncclFloat64},
  };
  for (const auto& c : supported) {
    auto type = NcclReductionType(c.type, /*fp8=*/false);
    ASSERT_TRUE(type.ok()) << type.status();
    EXPECT_EQ(*type, c.nccl);
  }
  auto e4m3 = NcclReductionType(PJRTX_Buffer_Type_F8E4M3FN, /*fp8=*/true);
  ASSERT_TRUE(e4m3.ok()) << e4m3.status();
  EXPECT_EQ(*e4m3, ncclFloat8e4m3);
  auto e5m2 = NcclReductionType(PJRTX_Buffer_Type_F8E5M2, /*fp8=*/true);
  ASSERT_TRUE(e5m2.ok()) << e5m2.status();
  EXPECT_EQ(*e5m2, ncclFloat8e5m2);
  // FP8 only where NCCL and the GPUs have it.
  auto old = NcclReductionType(PJRTX_Buffer_Type_F8E4M3FN, /*fp8=*/false);
  EXPECT_EQ(old.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(old.status().message(), HasSubstr("F8E4M3FN"));
  EXPECT_THAT(old.status().message(), HasSubstr("NCCL 2.24.0 or newer"));
  for (PJRTX_Buffer_Type type :
       {PJRTX_Buffer_Type_PRED, PJRTX_Buffer_Type_S16, PJRTX_Buffer_Type_U16,
        PJRTX_Buffer_Type_C64, PJRTX_Buffer_Type_S4}) {
    auto unsupported = NcclReductionType(type, /*fp8=*/true);
    EXPECT_EQ(unsupported.status().code(), absl::StatusCode::kUnimplemented)
        << type;
    EXPECT_THAT(unsupported.status().message(), HasSubstr("through NCCL"));
  }
}

TEST(NcclLibraryTest, ReduceOps) {
  EXPECT_EQ(*NcclReduceOp(PJRTX_ReduceOp_SUM), ncclSum);
  EXPECT_EQ(*NcclReduceOp(PJRTX_ReduceOp_PRODUCT), ncclProd);
  EXPECT_EQ(*NcclReduceOp(PJRTX_ReduceOp_MIN), ncclMin);
  EXPECT_EQ(*NcclReduceOp(PJRTX_ReduceOp_MAX), ncclMax);
  // A value the ABI does not define (it rejects them before they get here).
  auto other = NcclReduceOp(static_cast<PJRTX_ReduceOp>(7));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(other.status().message(),
              HasSubstr("reduce op 7 has no NCCL equivalent"));
}

}  // namespace
}  // namespace cuda_plugin
