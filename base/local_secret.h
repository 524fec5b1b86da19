// A secret of this user on this machine: 32 random bytes kept in
// $XDG_CACHE_HOME/schedlab/local-secret (else ~/.cache/schedlab/), made on
// first use, mode 0600. It tags data schedlab derives and caches in a
// database (history's cell summaries), so a cache in a database written
// elsewhere, or crafted, is never taken for one computed here: it is
// computed again. When the file cannot be read or written, a secret of this
// process alone (caches made by other processes then go unused: slower,
// never wrong).
#pragma once

#include <cstdint>
#include <string_view>

namespace schedlab {

// A 63-bit tag of PURPOSE under the local secret (SHA-256 of both), >= 0.
std::int64_t local_tag(std::string_view purpose);

}  // namespace schedlab
