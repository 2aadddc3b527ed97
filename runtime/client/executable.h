// A compiled program owned by the framework.
#ifndef PJRTX_RUNTIME_CLIENT_EXECUTABLE_H_
#define PJRTX_RUNTIME_CLIENT_EXECUTABLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/device.h"
#include "runtime/client/event_future.h"

namespace pjrtx::client {

// Owns a PJRTX_LoadedExecutable; move-only.
class Executable {
 public:
  // Compiles StableHLO text. `options` as PJRTX_Client_Compile documents.
  static absl::StatusOr<Executable> Compile(
      const Client& client, const std::string& mlir_text,
      const std::vector<NamedValue>& options = {});
  static absl::StatusOr<Executable> Deserialize(const Client& client,
                                                const std::string& bytes);

  Executable(Executable&& other) noexcept;
  Executable& operator=(Executable&& other) noexcept;
  ~Executable();

  std::string name() const;
  size_t num_outputs() const;

  struct Run {
    std::vector<Buffer> outputs;
    EventFuture done;
  };
  // Starts a run on `device`; never blocks. `donate[i]` donates argument i.
  absl::StatusOr<Run> Execute(const Device& device,
                              const std::vector<const Buffer*>& arguments,
                              const std::vector<bool>& donate = {}) const;
  absl::StatusOr<std::string> Serialize() const;

  PJRTX_LoadedExecutable* handle() const { return handle_; }

 private:
  Executable(const PJRTX_Api* api, PJRTX_LoadedExecutable* handle)
      : api_(api), handle_(handle) {}

  const PJRTX_Api* api_ = nullptr;
  PJRTX_LoadedExecutable* handle_ = nullptr;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_EXECUTABLE_H_
