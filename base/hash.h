// SHA-256 (OpenSSL's EVP), lowercase hex: config texts in the store, lab
// kernel packages and initramfs images in the cache.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace schedlab {

std::string sha256_hex(std::string_view data);
// Of a file's bytes, read in pieces (a kernel package is ~100 MiB). Throws
// FileError (base/file.h) when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

}  // namespace schedlab
