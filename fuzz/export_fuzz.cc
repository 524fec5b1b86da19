// libFuzzer target: `schedlab export` of a crafted database in each format
// (analysis/export/: kcidb, bmf, otava). Each line of the input is an SQL
// statement run (fuzz/crafted_db.h) on a copy of a real database of two
// runs (two task databases merged: variants, samples, monitors, point
// stops); then every run is exported as `schedlab export` does: its cells
// (export_runs), the KCIDB report with an origin from the input's first
// line, the BMF report of each run and the Otava CSV of them all. A
// StoreError or std::invalid_argument (a refused database, a run with
// nothing Otava can state) is fine; any other exception, a crash, a hang or
// a centre or interval that is not finite (KCIDB's number.value would be
// null, a false fact) is a bug.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/export/bmf.h"
#include "analysis/export/export_cells.h"
#include "analysis/export/kcidb.h"
#include "analysis/export/otava.h"
#include "fuzz/crafted_db.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/task_db.h"
#include "workloads/registry.h"

namespace fs = std::filesystem;
using namespace schedlab;

namespace {

struct Files {
  fs::path dir, db_template, db;
};

const Files& files() {
  static const Files f = [] {
    std::string dir = (fs::temp_directory_path() / "schedlab-export-fuzz-XXXXXX").string();
    if (!::mkdtemp(dir.data())) std::abort();
    Files out{dir, fs::path(dir) / "template.db", fs::path(dir) / "export.db"};
    const fs::path other = fs::path(dir) / "other.db";
    test::write_task_db(out.db_template, "n1", 3);
    // The same run measured on a second pair (a fleet), so the merge joins them.
    test::write_task_db(other, "n2", 3, "sha-1", 2.0);
    Store(out.db_template.string()).merge_from(other.string());
    std::atexit([] { fs::remove_all(files().dir); });
    return out;
  }();
  return f;
}

void finite_or_abort(const std::vector<ExportRun>& runs) {
  for (const auto& r : runs)
    for (const auto& c : r.cells) {
      if (c.centre && !std::isfinite(*c.centre)) std::abort();
      if (c.ci.ci && !(std::isfinite(c.ci.ci->low) && std::isfinite(c.ci.ci->high))) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Files& f = files();
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(f.db.string() + suffix);
  fs::copy_file(f.db_template, f.db);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::craft(f.db, text);
  // The origin as --origin takes it: the first line when the schema does.
  std::string origin(text.substr(0, text.find('\n')));
  if (kcidb_origin_problem(origin)) origin = "schedlab";
  try {
    const Store store(f.db.string(), Store::Access::kReadOnly);
    std::vector<std::int64_t> ids;
    for (const auto& l : store.runs_table().run_labels()) ids.push_back(l.id);
    const std::vector<ExportRun> runs =
        export_runs(store, ids, "", {.level = 0.95, .known_domain = declared_domain});
    finite_or_abort(runs);
    const auto dumped = [](const nlohmann::json& j) {
      return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    };
    dumped(kcidb_report(runs, origin));
    for (const auto& r : runs) dumped(bmf_report(r).json);
    otava_csv(runs);
  } catch (const StoreError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
