// The SUT/loadgen pair a run's steps go to (HostSet builds it).
#pragma once

#include <string>

#include "runner/hosts/host.h"
#include "workloads/workload.h"

namespace schedlab {

struct Pair {
  Host& sut;
  Host& loadgen;
  std::string sut_address;  // the SUT as the loadgen sees it
  Host& host(Role r) const { return r == Role::kSut ? sut : loadgen; }
};

}  // namespace schedlab
