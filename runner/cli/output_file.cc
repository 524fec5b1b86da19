#include "runner/cli/output_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace schedlab::cli {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {}

OutputFile::~OutputFile() {
  try {
    close();
  } catch (const std::exception&) {
  }
}

void OutputFile::write(std::string_view text) {
  if (!file_) {
    file_ = is_stdout() ? stdout : std::fopen(path_.c_str(), "wb");
    if (!file_) throw std::runtime_error(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
  }
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    throw std::runtime_error(fmt::format("cannot write {}: {}", is_stdout() ? "stdout" : path_, std::strerror(errno)));
  bytes_ += text.size();
}

void OutputFile::close() {
  if (!file_) return;
  std::FILE* f = file_;
  file_ = nullptr;
  const bool ok = f == stdout ? std::fflush(f) == 0 : std::fclose(f) == 0;
  if (!ok) throw std::runtime_error(fmt::format("cannot write {}: {}", is_stdout() ? "stdout" : path_, std::strerror(errno)));
}

}  // namespace schedlab::cli
