#include "samples/common/must.h"

#include <errno.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace samples {

void Fail(absl::string_view what, const absl::Status& status) {
  // program_invocation_short_name: glibc's basename of argv[0].
  std::fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name,
               std::string(what).c_str(), status.ToString().c_str());
  std::fflush(stdout);
  std::exit(1);
}

}  // namespace samples
