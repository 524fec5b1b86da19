// Host's members that are not an interface: its identity, read once, and
// several files read one by one (a remote host reads them at once).
#include "runner/hosts/host.h"

#include <string_view>

#include "base/text.h"

namespace schedlab {

const HostIdentity& Host::identity() {
  if (!identity_) {
    std::vector<FileRead> read;
    try {
      read = read_files(
          {"/etc/machine-id", "/proc/sys/kernel/random/boot_id", "/proc/sys/kernel/hostname"});
    } catch (const HostError&) {
      read.resize(3);
    }
    const auto text = [&](std::size_t i) {
      return read.at(i).text ? std::string(trim(*read.at(i).text)) : "";
    };
    identity_ = HostIdentity{text(0), text(1), text(2)};
  }
  return *identity_;
}

std::vector<FileRead> Host::read_files(const std::vector<std::string>& paths) {
  std::vector<FileRead> out;
  for (const auto& path : paths) {
    FileRead& f = out.emplace_back();
    try {
      f.text = read_file(path);
    } catch (const HostError& e) {
      f.error = e.what();
    }
  }
  return out;
}

}  // namespace schedlab
