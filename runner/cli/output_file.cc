#include "runner/cli/output_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace schedlab::cli {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {}

OutputFile::~OutputFile() {
  // Not closed: an error on the way; the file is not put in place.
  if (stdout_used_) std::fflush(stdout);
}

void OutputFile::write(std::string_view text) {
  if (is_stdout()) {
    stdout_used_ = true;
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
      throw std::runtime_error(fmt::format("cannot write stdout: {}", std::strerror(errno)));
  } else {
    if (!file_) file_ = std::make_unique<AtomicFile>(path_);
    file_->write(text);
  }
  bytes_ += text.size();
}

void OutputFile::close() {
  if (stdout_used_) {
    stdout_used_ = false;
    if (std::fflush(stdout) != 0)
      throw std::runtime_error(fmt::format("cannot write stdout: {}", std::strerror(errno)));
  }
  if (file_) {
    const auto f = std::move(file_);
    f->commit();
  }
}

}  // namespace schedlab::cli
