// libFuzzer target: `schedlab merge` of a crafted input database. The input
// is either a database file's bytes (it starts with SQLite's header) or SQL
// statements, one a line, run on a copy of a real task database (a run of
// two variants with samples, monitors, a journal row and a point stop)
// before it is merged into a copy of a database already holding that run,
// from this pair and another. A StoreError (a refused input, a
// conflict) is fine; any other exception, a crash or a hang is a bug, and
// so is a sample outside base/sample_range.h's range read back after the
// merge (inf, 1e308: every statistic of its cell would overflow).
//
// The statements run as fuzz/crafted_db.h runs them: they change this one
// file only, within limits.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "base/sample_range.h"
#include "fuzz/crafted_db.h"
#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/task_db.h"

namespace fs = std::filesystem;
using namespace schedlab;

namespace {

struct Files {
  fs::path dir, input_template, output_template, input, output;
};

const Files& files() {
  static const Files f = [] {
    std::string dir = (fs::temp_directory_path() / "schedlab-merge-fuzz-XXXXXX").string();
    if (!::mkdtemp(dir.data())) std::abort();
    Files out{dir, fs::path(dir) / "in-template.db", fs::path(dir) / "out-template.db",
              fs::path(dir) / "in.db", fs::path(dir) / "out.db"};
    // The output already holds both pairs: the input's iterations meet
    // their equals (or what it made of them).
    test::write_task_db(out.input_template, "n2", 2);
    test::write_task_db(out.output_template, "n1", 2);
    Store(out.output_template.string()).merge_from(out.input_template.string());
    std::atexit([] { fs::remove_all(files().dir); });
    return out;
  }();
  return f;
}

void remove_database(const fs::path& p) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(p.string() + suffix);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Files& f = files();
  remove_database(f.input);
  remove_database(f.output);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.starts_with(std::string_view("SQLite format 3\0", 16))) {
    std::ofstream(f.input, std::ios::binary).write(text.data(), static_cast<std::streamsize>(size));
  } else {
    fs::copy_file(f.input_template, f.input);
    fuzz::craft(f.input, text);
  }
  fs::copy_file(f.output_template, f.output);
  try {
    Store::check_mergeable(f.input.string());
    Store out(f.output.string());
    out.merge_from(f.input.string());
    // What merge let in, read back as analysis reads it: every sample in
    // the one range (base/sample_range.h), or a StoreError naming the row
    // (issue 44: 9e999 merged, then "inf (0.00%)" in compare).
    for (const auto& run : out.runs_table().list_runs())
      for (const auto& it : out.iterations_table().iterations(run.id))
        for (const auto& sample : it.samples)
          if (!sample_in_range(sample.value)) std::abort();
  } catch (const StoreError&) {
  }
  return 0;
}
