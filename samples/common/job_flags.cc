#include "samples/common/job_flags.h"

#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"

namespace samples {

bool ConsumeJobFlag(absl::string_view arg, JobFlags& flags, bool* valid) {
  *valid = true;
  if (absl::ConsumePrefix(&arg, "--plugin=")) {
    flags.plugin = std::string(arg);
    *valid = !flags.plugin.empty();
  } else if (absl::ConsumePrefix(&arg, "--slices=")) {
    *valid = absl::SimpleAtoi(arg, &flags.slices) && flags.slices >= 1 &&
             flags.slices <= 64;
  } else if (absl::ConsumePrefix(&arg, "--topology=")) {
    flags.topology = std::string(arg);
  } else {
    return false;
  }
  return true;
}

}  // namespace samples
