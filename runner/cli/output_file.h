// Where a command writes its document: a file named by -o, or stdout for
// "-" (or no -o at all). A file is written through base/file.h's
// AtomicFile, begun when the first byte is written and put in place by
// close(): a command that fails first, or fails half way, leaves no empty
// or half file behind (nor the old one changed), and a symbolic link at
// the name is replaced, never written through.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "base/file.h"

namespace schedlab::cli {

class OutputFile {
 public:
  // Empty or "-": stdout.
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Throws std::runtime_error naming the file when it cannot be written.
  void write(std::string_view text);
  // Flushes and closes; throws as write does. Called by the destructor
  // too, which swallows the error: call it to hear of one.
  void close();
  bool is_stdout() const { return path_.empty() || path_ == "-"; }
  const std::string& path() const { return path_; }
  std::size_t bytes() const { return bytes_; }

 private:
  std::string path_;
  bool stdout_used_ = false;
  std::unique_ptr<AtomicFile> file_;
  std::size_t bytes_ = 0;
};

}  // namespace schedlab::cli
