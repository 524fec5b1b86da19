#include <string_view>

#include "base/text.h"
#include "runner/hosts/host.h"

namespace schedlab {

const HostIdentity& Host::identity() {
  if (!identity_) {
    const auto read = [&](const char* path) -> std::string {
      try {
        const auto text = read_file(path);
        return text ? std::string(trim(*text)) : "";
      } catch (const HostError&) {
        return "";
      }
    };
    identity_ = HostIdentity{read("/etc/machine-id"), read("/proc/sys/kernel/random/boot_id"),
                             read("/proc/sys/kernel/hostname")};
  }
  return *identity_;
}

}  // namespace schedlab
