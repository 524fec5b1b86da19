#include "base/local_secret.h"

#include <openssl/rand.h>

#include <filesystem>
#include <string>

#include "base/file.h"
#include "base/hash.h"

namespace schedlab {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kSecretBytes = 32;

fs::path secret_path() {
  const fs::path dir = user_cache_dir();
  return dir.empty() ? dir : dir / "local-secret";
}

std::string random_secret() {
  std::string bytes(kSecretBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), kSecretBytes) != 1)
    throw std::runtime_error("cannot draw random bytes (OpenSSL RAND_bytes)");
  return bytes;
}

// The stored secret, made when absent; a secret of this process when the
// file cannot be read or made (a read-only home).
std::string load_secret() {
  const fs::path path = secret_path();
  if (path.empty()) return random_secret();
  // A secret another user can read or put in place (XDG_CACHE_HOME in a
  // folder all may write) would let them sign a crafted run or bisection
  // as this user's (hostile13): this process's own secret then.
  if (shared_dir_problem("XDG_CACHE_HOME", path.parent_path())) return random_secret();
  try {
    if (const std::string s = read_file(path, 4096); s.size() == kSecretBytes) return s;
  } catch (const FileError&) {
    // absent or unreadable: made below
  }
  std::string fresh = random_secret();
  try {
    fs::create_directories(path.parent_path());
    write_whole_file(path, fresh, /*private_file=*/true);
    // Two processes making it at once: the file that stayed is the secret.
    if (const std::string s = read_file(path, 4096); s.size() == kSecretBytes) return s;
  } catch (const std::exception&) {
    // not stored: this process's own
  }
  return fresh;
}

}  // namespace

std::int64_t local_tag(std::string_view purpose) {
  static const std::string secret = load_secret();
  const std::string digest = sha256_hex(std::string(purpose) + '\0' + secret);
  return static_cast<std::int64_t>(std::stoull(digest.substr(0, 16), nullptr, 16) >> 1);
}

}  // namespace schedlab
