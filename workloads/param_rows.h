// ParamSpec rows that several workloads declare alike: a duration, a flag,
// and where a database workload's client runs.
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include "workloads/workload.h"

namespace schedlab {

inline ParamSpec duration_param(std::string name, std::chrono::milliseconds default_value,
                                std::string help) {
  return {.name = std::move(name),
          .type = ParamType::kDuration,
          .default_value = default_value,
          .help = std::move(help),
          .unit = "duration"};
}

// Off unless the config sets it.
inline ParamSpec flag_param(std::string name, std::string help) {
  return {.name = std::move(name),
          .type = ParamType::kBool,
          .default_value = false,
          .help = std::move(help)};
}

// `client`: sut (the default) or loadgen; HELP says how each reaches the server.
inline ParamSpec client_param(std::string help) {
  return {.name = "client",
          .type = ParamType::kString,
          .default_value = std::string("sut"),
          .help = std::move(help),
          .choices = {"sut", "loadgen"}};
}

// `timeout`: a measured run's limit, by default its duration and 2 minutes.
inline ParamSpec run_timeout_param() {
  return duration_param("timeout", std::chrono::milliseconds(0),
                        "kill a run still going after this; 0 = duration + 2m");
}

}  // namespace schedlab
