#include "runner/run/kernel_columns.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <thread>

#include "base/message.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/locks.h"
#include "runner/lab/guest_journal.h"
#include "runner/lab/host_set.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/lab_config_yaml.h"
#include "runner/lab/lab_host.h"
#include "runner/run/one_pair.h"
#include "runner/run/preflight.h"

namespace schedlab {
namespace {

// Each kernel built from source, in order, before any guest boots: a build
// that fails (the compiler's first error) costs no boot. The boots then
// find them in the cache. Returns each kernel's cache key (empty: not built
// from source).
std::vector<std::string> build_first(const RunShape& shape) {
  LocalHost local;
  const auto paths = lab::LabPaths::from_env();
  std::vector<std::string> keys;
  for (const auto& k : shape.kernels) {
    keys.emplace_back();
    if (!lab::is_git_kernel(k.kernel)) continue;
    const HostSpec hosts = shape.hosts(k, 0);
    keys.back() = lab::build_kernel(k.kernel, lab::kernel_build_config(*hosts.sut_lab), paths,
                                    local, print_line)
                      .key;
  }
  return keys;
}

// A resumed run goes on only with the kernels it measured: a @WORKTREE
// edited since (or a ref that moved) is another kernel, refused before
// any guest boots.
void check_resumed_kernels(const Store& store, std::int64_t run_id, const RunShape& shape,
                           const std::vector<std::string>& keys) {
  const auto run = store.runs_table().find_run(run_id);
  if (!run) return;  // the executor says there is no such run
  nlohmann::json stored;
  try {
    stored = nlohmann::json::parse(run->manifest_json).at("kernel_columns");
  } catch (const std::exception&) {
    return;  // not recorded (the run stopped before its guests were up)
  }
  for (std::size_t k = 0; k < keys.size() && k < stored.size(); ++k) {
    if (keys[k].empty() || !stored[k].is_object() || !stored[k]["lab"].is_object()) continue;
    const auto was = stored[k]["lab"].value("kernel_key", std::string());
    if (!was.empty() && was != keys[k])
      throw PreflightError(fmt::format(
          "run {} measured {} as {}; it is {} now (edited since?): resuming would mix two "
          "kernels in one column; start a new run",
          run_id, shape.kernels[k].kernel, was, keys[k]));
  }
}

// Every guest boots at once, each in a thread of its own, which then takes
// the guest's SUT lock with `lock` (the other guests' boots go on
// meanwhile). The threads stay until the object goes: qemu's (and the
// lock's ssh client's) parent-death signal follows the thread that started
// it, so one that ended would take its guest along. The locks go first,
// then the sets (power off), then the threads.
class Boots {
 public:
  using Lock = std::function<std::shared_ptr<SutLock>(std::size_t, HostSet&)>;
  Boots(const std::vector<HostSpec>& specs, const Lock& lock)
      : sets_(specs.size()), locks_(specs.size()), released_(release_.get_future().share()) {
    std::vector<std::exception_ptr> errors(specs.size());
    std::vector<std::promise<void>> up(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i)
      threads_.emplace_back([&, i, done = &up[i], released = released_] {
        try {
          sets_[i] = std::make_unique<HostSet>(specs[i]);
          locks_[i] = lock(i, *sets_[i]);
        } catch (...) {
          errors[i] = std::current_exception();
        }
        done->set_value();
        released.wait();
      });
    for (auto& u : up) u.get_future().wait();
    for (const auto& e : errors)
      if (e) {
        finish();
        std::rethrow_exception(e);
      }
  }
  ~Boots() { finish(); }
  Boots(const Boots&) = delete;
  Boots& operator=(const Boots&) = delete;
  const std::vector<std::unique_ptr<HostSet>>& sets() const { return sets_; }
  SutLock* lock(std::size_t i) const { return locks_.at(i).get(); }

 private:
  void finish() noexcept {
    locks_.clear();
    sets_.clear();
    if (!finished_) release_.set_value();
    finished_ = true;
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  std::vector<std::unique_ptr<HostSet>> sets_;
  std::vector<std::shared_ptr<SutLock>> locks_;
  std::promise<void> release_;
  std::shared_future<void> released_;
  std::vector<std::thread> threads_;
  bool finished_ = false;
};

lab::LabHost* lab_host(const Pair& pair) {
  return dynamic_cast<lab::LabHost*>(&pair.sut);
}

}  // namespace

bool kernels_as_columns(const Config& config) {
  if (plan_kernels(config.sut_lab).size() < 2) return false;
  return std::any_of(config.workloads.begin(), config.workloads.end(),
                     [](const WorkloadConfig& w) { return w.iterations.sequential.has_value(); });
}

RunSummary run_kernel_columns(Store& store, const RunShape& shape, const ExecOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const std::vector<std::string> keys = build_first(shape);
  if (options.resume_run) check_resumed_kernels(store, *options.resume_run, shape, keys);
  const double built = since();
  std::vector<HostSpec> specs;
  for (const auto& k : shape.kernels) specs.push_back(shape.hosts(k, 0));
  std::vector<std::string> lab_hosts;
  RunSummary summary;
  std::vector<double> up_at(specs.size());
  try {
    const Boots boots(specs, [&](std::size_t k, HostSet& set) {
      up_at[k] = since();
      Host& guest = set.pair().sut;
      auto lock = SutLock::acquire(guest, "a run starting", store.path());
      guest.identity();  // read once, kept: the journal stamps its rows with it
      return lock;
    });
    std::vector<Pair> pairs;
    for (const auto& s : boots.sets()) pairs.push_back(s->pair());
    for (const Pair& p : pairs) lab_hosts.push_back(p.sut.name());
    const double booted = *std::max_element(up_at.begin(), up_at.end());
    print_line(fmt::format(
        "schedlab: {} kernels up side by side (built in {:.1f}s, booted in {:.1f}s); iterations "
        "alternate between them",
        pairs.size(), built, booted - built));
    // Each kernel's preflight with its own variants, on its own guest.
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const RunContext one{.store = store,
                           .pair = pairs[k],
                           .hosts = specs[k],
                           .config = shape.config,
                           .plan = shape.kernels[k].plan,
                           .options = options,
                           .sut_lock = boots.lock(k)};
      preflight(one);
    }
    ExecOptions exec = options;
    std::vector<std::optional<double>> cpu_before;
    nlohmann::json columns = nlohmann::json::array();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const lab::LabHost* guest = lab_host(pairs[k]);
      columns.push_back({{"column", lab::kernel_label(shape.kernels[k].kernel)},
                         {"kernel", shape.kernels[k].kernel},
                         {"lab", guest ? guest->manifest() : nlohmann::json(nullptr)}});
      cpu_before.push_back(guest ? guest->qemu_cpu_seconds() : std::nullopt);
    }
    exec.manifest["kernel_columns"] = columns;
    exec.manifest["kernel_columns_timing"] = {{"build_seconds", built},
                                              {"boot_seconds", booted - built}};
    std::vector<const Pair*> by_variant;
    for (const std::size_t k : shape.column_kernel) by_variant.push_back(&pairs.at(k));
    const RunContext ctx{.store = store,
                         .pair = pairs.front(),
                         .hosts = specs.front(),
                         .config = shape.config,
                         .plan = *shape.columns_plan,
                         .options = exec,
                         .sut_lock = boots.lock(0),
                         .variant_pairs = by_variant};
    summary = execute(ctx);
    // What each guest's qemu used over the measured part (busy on its own
    // iterations, idle on the others').
    const double measured = since() - booted;
    nlohmann::json cpu = nlohmann::json::array();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const lab::LabHost* guest = lab_host(pairs[k]);
      const std::optional<double> after = guest ? guest->qemu_cpu_seconds() : std::nullopt;
      const std::string column = columns[k]["column"].get<std::string>();
      if (!after.has_value() || !cpu_before[k].has_value()) {
        cpu.push_back({{"column", column}, {"qemu_cpu_seconds", nullptr}});
        continue;
      }
      const double used = after.value() - cpu_before[k].value();
      cpu.push_back({{"column", column}, {"qemu_cpu_seconds", used}});
      print_line(
          fmt::format("schedlab: guest {}: qemu used {:.1f}s of CPU over the {:.1f}s measured",
                      column, used, measured));
    }
    store.runs_table().set_manifest_member(
        summary.run_id, {"kernel_columns_cpu"},
        nlohmann::json{{"wall_seconds", measured}, {"guests", cpu}}.dump());
  } catch (...) {
    for (const auto& h : lab_hosts) discard_guest_knobs(store, h);
    throw;
  }
  for (const auto& h : lab_hosts) discard_guest_knobs(store, h);
  return summary;
}

}  // namespace schedlab
