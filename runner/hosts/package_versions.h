// The installed versions of Debian packages on a host, asked of its dpkg in
// one call (one round trip to a remote SUT, not one a package): what a run
// manifest's `tools` records. A lab guest has no dpkg: its programs are this
// machine's (or the board's unpacked packages), so the lab asks there
// (runner/lab/guest_userland.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner/hosts/host.h"

namespace schedlab {

// Package -> version of those installed. A name that is no Debian package
// name (e.g. "hammerdb (not in Debian; ...)", a pattern) is not asked; a
// host without dpkg-query, or one that cannot be asked, gives none.
std::map<std::string, std::string> installed_versions(Host& host,
                                                      const std::vector<std::string>& packages);

// `dpkg-query -W -f '${Package}\t${db:Status-Abbrev}\t${Version}\n'`
// output: package -> version, installed ones only (status "?i": not one
// removed with its configuration kept), the first of a name listed twice
// (one per architecture). Pure.
std::map<std::string, std::string> parse_dpkg_versions(const std::string& out);

// Whether `name` is a Debian package name (lower-case letters, digits, + - .;
// two characters at least, starting with a letter or digit).
bool is_debian_package_name(const std::string& name);

}  // namespace schedlab
