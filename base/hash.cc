#include "base/hash.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "base/file.h"

namespace schedlab {
namespace {

std::string hex(const unsigned char* digest, unsigned int len) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * len);
  for (unsigned int i = 0; i < len; ++i) {
    out += kDigits[digest[i] >> 4];
    out += kDigits[digest[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_Digest(sha256) failed");
  return hex(digest, len);
}

std::string sha256_file(const std::filesystem::path& path) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                    &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_DigestInit(sha256) failed");
  read_file_pieces(path, [&](std::string_view piece) {
    if (EVP_DigestUpdate(ctx.get(), piece.data(), piece.size()) != 1)
      throw std::runtime_error("EVP_DigestUpdate(sha256) failed");
  });
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &len) != 1)
    throw std::runtime_error("EVP_DigestFinal(sha256) failed");
  return hex(digest, len);
}

}  // namespace schedlab
