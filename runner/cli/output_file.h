// Where a command writes its document: a file named by -o, or stdout for
// "-" (or no -o at all), opened only when the first byte is written, so a
// command that fails first leaves no empty file behind.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

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
  std::FILE* file_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace schedlab::cli
