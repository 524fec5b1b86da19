// gzip and xz data in memory: mmtests keeps its logs as .gz or .xz, Debian
// its kernel modules as .ko.xz.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace schedlab {

// A decompressed size above this is refused (a few KB of xz can claim
// gigabytes): mmtests' largest logs are tens of MB.
inline constexpr std::size_t kMaxDecompressed = std::size_t{1} << 30;

enum class Compression { kNone, kGzip, kXz };

// Data that decompresses to more than the cap it was given (a bomb, or a
// log larger than its reader allows).
class DecompressedTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// By the data's magic bytes, whatever the file is called.
Compression compression_of(const std::string& data);

// Throws std::runtime_error naming `what` (usually the file) for corrupt
// or truncated data, DecompressedTooLarge for output above max_bytes.
std::string gunzip(const std::string& data, const std::string& what,
                   std::size_t max_bytes = kMaxDecompressed);
std::string unxz(const std::string& data, const std::string& what,
                 std::size_t max_bytes = kMaxDecompressed);

// gzip (zlib's default level), for text stored compressed (perf profiles'
// folded stacks).
std::string gzip(const std::string& data);

// The data as is, or decompressed when its magic says gzip or xz.
std::string decompressed(const std::string& data, const std::string& what,
                         std::size_t max_bytes = kMaxDecompressed);

}  // namespace schedlab
