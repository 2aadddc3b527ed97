#include "tests/compiler_stub/ptx/ptxas_runner.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace pjrtx::ptx::testing {

std::string FindPtxas() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  for (absl::string_view directory : absl::StrSplit(path, ':')) {
    if (directory.empty()) continue;
    const std::string candidate = absl::StrCat(directory, "/ptxas");
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

PtxasResult Assemble(const std::string& ptxas, const std::string& ptx, int sm) {
  PtxasResult result;
  std::string path = ::testing::TempDir() + "ptx_emitter_XXXXXX.ptx";
  const int fd = mkstemps(path.data(), 4);
  if (fd < 0) {
    result.log = "cannot create a temporary file in " + ::testing::TempDir();
    return result;
  }
  FILE* file = fdopen(fd, "w");
  const bool written = fwrite(ptx.data(), 1, ptx.size(), file) == ptx.size();
  if (fclose(file) != 0 || !written) {
    unlink(path.c_str());
    result.log = "cannot write " + path;
    return result;
  }
  // Paths come from PATH and TempDir; quoting keeps spaces intact.
  const std::string command = absl::StrCat("'", ptxas, "' -arch=sm_", sm, " '",
                                           path, "' -o /dev/null 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    unlink(path.c_str());
    result.log = "cannot run " + command;
    return result;
  }
  char buffer[4096];
  size_t read;
  while ((read = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    result.log.append(buffer, read);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  unlink(path.c_str());
  return result;
}

}  // namespace pjrtx::ptx::testing
