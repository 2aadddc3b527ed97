#include "runtime/collectives/ucx/ucx_transport_factory.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/collectives/ucx/ucx_context.h"
#include "runtime/collectives/ucx/ucx_transport.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

absl::StatusOr<std::shared_ptr<UcxContext>> ProcessContext() {
  static std::mutex mu;
  static std::weak_ptr<UcxContext> shared;
  std::lock_guard<std::mutex> lock(mu);
  if (std::shared_ptr<UcxContext> context = shared.lock()) return context;
  absl::StatusOr<std::shared_ptr<UcxContext>> created =
      UcxContext::Create(UcxContext::Options());
  if (created.ok()) shared = *created;
  return created;
}

}  // namespace

TransportFactory UcxTransportFactory() {
  return [](KeyValueStore& store, const std::string& key, int rank, int size,
            int64_t timeout_ms) -> absl::StatusOr<std::unique_ptr<Transport>> {
    PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<UcxContext> context,
                           ProcessContext());
    UcxTransport::Options options;
    options.context = std::move(context);
    options.connect_timeout_ms = timeout_ms;
    PJRTX_ASSIGN_OR_RETURN(
        std::unique_ptr<UcxTransport> transport,
        UcxTransport::Create(store, key, rank, size, std::move(options)));
    return std::unique_ptr<Transport>(std::move(transport));
  };
}

}  // namespace pjrtx::collectives
