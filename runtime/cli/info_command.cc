#include "runtime/cli/info_command.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "runtime/client/client.h"

namespace pjrtx::cli {
namespace {

using client::Client;
using client::Device;
using client::NamedValue;
using client::PluginLibrary;

constexpr char kUsage[] =
    "usage: pjrtx info --plugin=PATH [--option name=value]...\n";

std::string Lookup(const std::vector<NamedValue>& attributes,
                   const std::string& name) {
  for (const NamedValue& a : attributes) {
    if (a.name == name) return client::ValueToString(a.value);
  }
  return "-";
}

void PrintDevices(const Client& client) {
  std::vector<Device> devices = client.devices();
  std::printf("\nDevices (%zu, %zu addressable):\n", devices.size(),
              client.addressable_devices().size());
  std::printf("  %5s  %-24s  %-9s  %-12s  %-11s  %-13s  %s\n", "id", "kind",
              "coords", "core_on_chip", "slice_index", "process_index",
              "memories");
  for (const Device& device : devices) {
    std::vector<NamedValue> attributes = device.attributes();
    std::string memories = "(not addressable)";
    if (device.is_addressable()) {
      auto list = device.memories();
      std::vector<std::string> kinds;
      if (list.ok()) {
        for (const auto& m : *list) {
          kinds.push_back(absl::StrCat(m.kind, "#", m.id));
        }
      }
      memories = absl::StrJoin(kinds, " ");
    }
    std::string coords = Lookup(attributes, "coords");
    if (absl::StartsWith(coords, "["))
      coords = coords.substr(1, coords.size() - 2);
    std::printf("  %5lld  %-24s  %-9s  %-12s  %-11s  %-13d  %s\n",
                static_cast<long long>(device.id()), device.kind().c_str(),
                coords.c_str(), Lookup(attributes, "core_on_chip").c_str(),
                Lookup(attributes, "slice_index").c_str(),
                device.process_index(), memories.c_str());
  }
}

}  // namespace

int RunInfo(const std::vector<std::string>& args) {
  std::string plugin_path;
  std::vector<std::string> option_flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (absl::StartsWith(arg, "--plugin=")) {
      plugin_path = arg.substr(9);
    } else if (arg == "--option" && i + 1 < args.size()) {
      option_flags.push_back(args[++i]);
    } else if (absl::StartsWith(arg, "--option=")) {
      option_flags.push_back(arg.substr(9));
    } else {
      std::cerr << "pjrtx info: unexpected argument '" << arg << "'\n"
                << kUsage;
      return 2;
    }
  }
  if (plugin_path.empty()) {
    std::cerr << "pjrtx info: --plugin=PATH is required\n" << kUsage;
    return 2;
  }
  auto library = PluginLibrary::Load(plugin_path);
  if (!library.ok()) {
    std::cerr << "pjrtx info: " << library.status().message() << "\n";
    return 1;
  }
  const PluginLibrary& plugin = **library;
  std::printf("Plugin: %s\n", plugin_path.c_str());
  for (const NamedValue& a : plugin.attributes()) {
    std::printf("  %-26s %s\n", a.name.c_str(),
                client::ValueToString(a.value).c_str());
  }
  std::printf("\nOptions (--option name=value):\n");
  for (size_t i = 0; i < plugin.option_defaults().size(); ++i) {
    const NamedValue& option = plugin.option_defaults()[i];
    std::printf("  %-16s %-10s default %-10s %s\n", option.name.c_str(),
                client::ValueTypeName(option.value),
                client::ValueToString(option.value).c_str(),
                plugin.option_descriptions()[i].c_str());
  }
  if (auto reason = plugin.StringAttribute("pjrtx.unavailable_reason")) {
    std::printf("\nUnavailable: %s\n", reason->c_str());
  }

  auto options = Client::ParseOptions(plugin, option_flags);
  if (!options.ok()) {
    std::cerr << "pjrtx info: " << options.status().message() << "\n";
    return 2;
  }
  auto client = Client::Create(*library, *options);
  if (!client.ok()) {
    std::cerr << "pjrtx info: cannot create a client: "
              << client.status().message() << "\n";
    return client.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  std::printf("\nClient: %s %s, process %d\n", client->platform_name().c_str(),
              client->platform_version().c_str(), client->process_index());
  std::vector<NamedValue> topology = client->topology_attributes();
  if (!topology.empty()) {
    std::printf("Topology:\n");
    for (const NamedValue& a : topology) {
      std::printf("  %-16s %s\n", a.name.c_str(),
                  client::ValueToString(a.value).c_str());
    }
  }
  PrintDevices(*client);
  return 0;
}

}  // namespace pjrtx::cli
