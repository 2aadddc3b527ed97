#include "runtime/cpu/region_util.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {

Literal ScalarAt(const Literal& literal, int64_t i) {
  Literal scalar(Shape{literal.type(), {}});
  scalar.CopyElement(0, literal, i);
  return scalar;
}

absl::StatusOr<std::vector<Literal>> CallRegion(
    const RegionFn& region, absl::Span<const Literal> args,
    absl::Span<const ElementType> result_types) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<Literal> results, region(args));
  if (results.size() != result_types.size()) {
    return absl::InternalError(absl::StrCat("region returned ", results.size(),
                                            " values, ", result_types.size(),
                                            " expected"));
  }
  for (size_t i = 0; i < result_types.size(); ++i) {
    const Literal& result = results[i];
    if (result.type() != result_types[i] || result.num_elements() != 1) {
      return absl::InternalError(absl::StrCat(
          "region result ", i, " is ", result.shape().ToString(), ", tensor<",
          ir::ElementTypeToMlir(result_types[i]), "> expected"));
    }
  }
  return results;
}

absl::StatusOr<bool> CallPredicate(const RegionFn& region,
                                   absl::Span<const Literal> args) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<Literal> results,
                         CallRegion(region, args, {ElementType::kPred}));
  return results[0].GetInt(0) != 0;
}

}  // namespace pjrtx::cpu
