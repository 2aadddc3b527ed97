#include "samples/common/relaunch.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace samples {

void RelaunchIfNeeded(const pjrtx::LaunchEnvironment& environment,
                      int64_t processes, const char* pjrtx_cli, int argc,
                      char** argv) {
  if (environment.launcher != "single" || processes <= 1) return;
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  std::vector<std::string> args = {
      pjrtx_cli, "launch",
      "-n",      absl::StrCat(processes),
      "--",      n > 0 ? std::string(self, n) : std::string(argv[0])};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  std::vector<char*> c_args;
  for (std::string& arg : args) c_args.push_back(arg.data());
  c_args.push_back(nullptr);
  execv(pjrtx_cli, c_args.data());
  std::fprintf(stderr, "%s: cannot run %s: %s\n", argv[0], pjrtx_cli,
               std::strerror(errno));
  std::exit(1);
}

}  // namespace samples
