#include "base/compression.h"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <stdexcept>

namespace schedlab {
namespace {

constexpr std::size_t kChunk = 1 << 16;

DecompressedTooLarge too_big(const std::string& what, std::size_t max_bytes) {
  return DecompressedTooLarge(
      fmt::format("{}: decompresses to more than {} MiB; refused", what, max_bytes >> 20));
}

// One call of a decoder (zlib's or liblzma's stream Z, CODE) with a chunk
// for its output, appended to OUT; more than MAX_BYTES in all ends the
// decoder (END) and is refused.
template <class Stream, class Code, class End>
auto decode_chunk(Stream& z, std::string& out, Code code, End end, const std::string& what,
                  std::size_t max_bytes) {
  char buf[kChunk];
  z.next_out = reinterpret_cast<decltype(z.next_out)>(buf);
  z.avail_out = sizeof buf;
  const auto rc = code(z);
  out.append(buf, sizeof buf - z.avail_out);
  if (out.size() > max_bytes) {
    end(z);
    throw too_big(what, max_bytes);
  }
  return rc;
}

}  // namespace

Compression compression_of(const std::string& data) {
  if (data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
      static_cast<unsigned char>(data[1]) == 0x8b)
    return Compression::kGzip;
  if (data.size() >= 6 && data.compare(0, 6, std::string("\xfd" "7zXZ\0", 6)) == 0)
    return Compression::kXz;
  return Compression::kNone;
}

std::string gunzip(const std::string& data, const std::string& what, std::size_t max_bytes) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) throw std::runtime_error("inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  int rc = Z_OK;
  while (rc == Z_OK) {
    rc = decode_chunk(
        z, out, [](z_stream& s) { return inflate(&s, Z_NO_FLUSH); },
        [](z_stream& s) { inflateEnd(&s); }, what, max_bytes);
    // gzip files may hold several members (cat a.gz b.gz): read them all.
    if (rc == Z_STREAM_END && z.avail_in > 0) rc = inflateReset(&z);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // truncated
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END)
    throw std::runtime_error(fmt::format("{}: gzip data is corrupt or truncated (zlib error {})", what, rc));
  return out;
}

std::string unxz(const std::string& data, const std::string& what, std::size_t max_bytes) {
  lzma_stream z = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    throw std::runtime_error("lzma_stream_decoder failed");
  std::string out;
  z.next_in = reinterpret_cast<const uint8_t*>(data.data());
  z.avail_in = data.size();
  lzma_ret rc = LZMA_OK;
  while (rc == LZMA_OK)
    rc = decode_chunk(
        z, out, [](lzma_stream& s) { return lzma_code(&s, LZMA_FINISH); },
        [](lzma_stream& s) { lzma_end(&s); }, what, max_bytes);
  lzma_end(&z);
  if (rc != LZMA_STREAM_END)
    throw std::runtime_error(
        fmt::format("{}: xz data is corrupt or truncated (lzma error {})", what, static_cast<int>(rc)));
  return out;
}

std::string decompressed(const std::string& data, const std::string& what, std::size_t max_bytes) {
  switch (compression_of(data)) {
    case Compression::kGzip: return gunzip(data, what, max_bytes);
    case Compression::kXz: return unxz(data, what, max_bytes);
    case Compression::kNone: break;
  }
  return data;
}

}  // namespace schedlab

namespace schedlab {

std::string gzip(const std::string& data) {
  z_stream z{};
  // 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    char buf[kChunk];
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = deflate(&z, Z_FINISH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      deflateEnd(&z);
      throw std::runtime_error("gzip: deflate failed");
    }
    out.append(buf, sizeof buf - z.avail_out);
  }
  deflateEnd(&z);
  return out;
}

}  // namespace schedlab
