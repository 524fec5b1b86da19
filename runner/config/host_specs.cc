#include "runner/config/host_specs.h"

#include <algorithm>

namespace schedlab {

HostSpec hosts_of(const Config& config) {
  HostSpec spec{.sut = config.sut,
                .sut_lab = config.sut_lab,
                .loadgen = config.loadgen,
                .sut_address = config.sut_address,
                .ssh = config.ssh};
  if (spec.sut_lab) {
    spec.sut_lab->kernels.clear();  // one boot: sut_lab->kernel
    for (const auto& w : config.workloads) {
      spec.sut_lab->workloads.push_back(w.workload->name());
      for (const auto& m : w.monitors)
        if (std::find(spec.sut_lab->monitors.begin(), spec.sut_lab->monitors.end(), m) ==
            spec.sut_lab->monitors.end())
          spec.sut_lab->monitors.push_back(m);
    }
  }
  return spec;
}

HostSpec hosts_of(const Config& config, const PairConfig& pair) {
  return {
      .sut = pair.sut, .loadgen = pair.loadgen, .sut_address = pair.sut_address, .ssh = config.ssh};
}

}  // namespace schedlab
