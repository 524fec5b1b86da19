// Where the guest's programs and their libraries come from.
//   this machine   a guest of its own architecture (x86): programs found on
//                  PATH, their libraries from ldd, busybox's applets from
//                  `busybox --list`
//   Debian packages of the board's architecture (armhf): downloaded through
//                  the private apt configuration of that architecture and
//                  unpacked once into the cache (userland/<arch>-<sha12 of the
//                  package versions>/); ldd cannot read those binaries, so
//                  their libraries come from the ELF NEEDED entries and the
//                  program interpreter (readelf), and busybox's applets are
//                  linked by the guest's init (busybox --install -s)
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/lab/board.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

struct GuestFile {
  std::string from;  // here
  std::string to;    // in the guest, relative: lib/arm-linux-gnueabihf/libc.so.6
};

class GuestUserland {
 public:
  virtual ~GuestUserland() = default;
  // For messages: "this machine", "Debian armhf packages".
  virtual std::string name() const = 0;
  // A program's path here, or nullopt.
  virtual std::optional<std::string> find_program(const std::string& name) = 0;
  // The shared libraries a program needs (and theirs), the loader included.
  virtual std::vector<GuestFile> libraries(const std::string& program) = 0;
  // The static busybox, here.
  virtual std::string busybox() = 0;
  // busybox's applets when it runs here; nullopt: the init links them.
  virtual std::optional<std::vector<std::string>> applets() = 0;
  // Whether this machine's own files (a workload's server, GuestNeeds) can
  // run in the guest.
  virtual bool native() const = 0;
  // The versions of those packages the guest's programs come from (the
  // guest has no dpkg): this machine's installed ones (one dpkg-query), or
  // the board's unpacked ones; a package not there has none.
  virtual std::map<std::string, std::string> package_versions(
      const std::vector<std::string>& packages) = 0;
};

// The board's: this machine's programs, or its Debian packages (fetched
// and unpacked on first use).
std::unique_ptr<GuestUserland> guest_userland(const Board& board, const LabPaths& paths,
                                              Host& local, const Log& log);

// The NEEDED entries and the program interpreter of `readelf -d -l -W`
// output. Pure.
std::vector<std::string> readelf_needed(const std::string& readelf_output);
std::string readelf_interpreter(const std::string& readelf_output);

// Shared libraries ldd lists for a program (the loader included), from
// ldd's output text; empty for a static binary. Pure.
std::vector<std::string> parse_ldd(const std::string& ldd_output);

}  // namespace schedlab::lab
