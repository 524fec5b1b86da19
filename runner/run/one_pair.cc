#include "runner/run/one_pair.h"

#include <fmt/format.h>

#include "base/message.h"
#include "base/text.h"
#include "runner/lab/guest_journal.h"
#include "runner/run/preflight.h"

namespace schedlab {

void discard_guest_knobs(Store& store, const std::string& lab_host) noexcept {
  if (lab_host.empty()) return;
  try {
    if (const auto note = lab::discard_guest_journal(store.journal(), lab_host); !note.empty())
      print_message(fmt::format("schedlab: {}\n", note));
  } catch (const std::exception& e) {
    print_message(fmt::format("schedlab: warning: {}: {}\n", lab_host, e.what()));
  }
}

RunSummary run_on_pair(Store& store, const RunShape& shape, const KernelShape& kernel,
                       const HostSpec& hosts, const ExecOptions& options) {
  std::string lab_host;
  RunSummary summary;
  try {
    const HostSet connected(hosts);  // a lab guest boots here and powers off at scope end
    const Pair pair = connected.pair();
    if (hosts.sut_lab) lab_host = pair.sut.name();
    // Before the first knob is read (preflight), held until the run ends.
    const auto lock = SutLock::acquire(pair.sut, "a run starting", store.path());
    const RunContext ctx{.store = store,
                         .pair = pair,
                         .hosts = hosts,
                         .config = shape.config,
                         .plan = kernel.plan,
                         .options = options,
                         .sut_lock = lock.get()};
    preflight(ctx);
    summary = execute(ctx);
  } catch (...) {
    discard_guest_knobs(store, lab_host);
    throw;
  }
  discard_guest_knobs(store, lab_host);
  return summary;
}

}  // namespace schedlab
