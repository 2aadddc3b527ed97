// The loader of plugins/cuda/programs/cublaslt_library.cc against the fake
// cuBLASLt and a path where there is none, and its texts.
#include "plugins/cuda/programs/cublaslt_library.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cuda_plugin {
namespace {

using ::testing::HasSubstr;

TEST(CublasLtLibraryTest, LoadsTheFakeAndResolvesEveryEntryPoint) {
  const CublasLtLibrary library = LoadCublasLtFrom(FAKE_CUBLASLT_LIBRARY);
  ASSERT_NE(library.api, nullptr) << library.unavailable_reason;
  EXPECT_EQ(library.unavailable_reason, "");
  EXPECT_EQ(library.version, size_t{CUBLAS_VERSION});
  EXPECT_EQ(library.path, FAKE_CUBLASLT_LIBRARY);
}

TEST(CublasLtLibraryTest, AMissingLibraryIsAReasonNotAFailure) {
  const CublasLtLibrary library =
      LoadCublasLtFrom("/nonexistent/libcublasLt.so.13");
  EXPECT_EQ(library.api, nullptr);
  EXPECT_THAT(library.unavailable_reason,
              HasSubstr("cannot load /nonexistent/libcublasLt.so.13"));
  EXPECT_THAT(library.unavailable_reason, HasSubstr("PJRTX_CUBLASLT_PATH"));
}

TEST(CublasLtLibraryTest, VersionsAndStatusesInWords) {
  EXPECT_EQ(CublasLtVersionText(130100), "13.1.0");
  EXPECT_EQ(CublasLtVersionText(120902), "12.9.2");
  const CublasLtLibrary library = LoadCublasLtFrom(FAKE_CUBLASLT_LIBRARY);
  ASSERT_NE(library.api, nullptr) << library.unavailable_reason;
  EXPECT_TRUE(CublasLtStatus(*library.api, CUBLAS_STATUS_SUCCESS, "x").ok());
  const absl::Status unsupported = CublasLtStatus(
      *library.api, CUBLAS_STATUS_NOT_SUPPORTED, "cublasLtMatmul");
  EXPECT_EQ(unsupported.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(unsupported.message(),
              HasSubstr("cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED"));
  EXPECT_EQ(
      CublasLtStatus(*library.api, CUBLAS_STATUS_ALLOC_FAILED, "x").code(),
      absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(
      CublasLtStatus(*library.api, CUBLAS_STATUS_EXECUTION_FAILED, "x").code(),
      absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace cuda_plugin
