#include "runtime/collectives/device_ids.h"

#include <map>
#include <mutex>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pjrtx::collectives {

absl::StatusOr<std::vector<int>> ResolveDeviceIds(
    const ClientState& client, absl::Span<const int64_t> device_ids) {
  std::map<int64_t, int> index_of_id;
  for (int d = 0; d < client.num_devices(); ++d) {
    index_of_id[client.device(d).global_id] = d;
  }
  std::map<int64_t, size_t> position_of_id;
  std::vector<int> devices;
  devices.reserve(device_ids.size());
  for (size_t r = 0; r < device_ids.size(); ++r) {
    const int64_t id = device_ids[r];
    auto found = index_of_id.find(id);
    if (found == index_of_id.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device_ids[", r, "] is ", id,
          ", which is not a device of this client; expected global device "
          "ids"));
    }
    auto [previous, inserted] = position_of_id.emplace(id, r);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device id ", id, " appears twice in device_ids (at ",
          previous->second, " and ", r, "); each device may be one rank only"));
    }
    devices.push_back(found->second);
  }
  return devices;
}

std::string CommunicatorKey(absl::Span<const int64_t> device_ids) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a: stable across runs.
  for (int64_t id : device_ids) {
    for (int byte = 0; byte < 8; ++byte) {
      hash = (hash ^ ((static_cast<uint64_t>(id) >> (8 * byte)) & 0xff)) *
             1099511628211ull;
    }
  }
  static std::mutex mu;
  static std::map<std::vector<int64_t>, int> created;
  int instance = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    instance =
        created[std::vector<int64_t>(device_ids.begin(), device_ids.end())]++;
  }
  return absl::StrCat("pjrtx/communicator/", absl::Hex(hash), "-",
                      device_ids.size(), "/", instance);
}

int64_t SliceOf(const DeviceSpec& spec) {
  for (const Attribute& attribute : spec.attributes) {
    if (attribute.name != "slice_index") continue;
    if (const int64_t* value = std::get_if<int64_t>(&attribute.value)) {
      return *value;
    }
  }
  return spec.process_index;
}

}  // namespace pjrtx::collectives
