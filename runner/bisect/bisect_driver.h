// The driver of one bisection (bisect.h's drive_bisect), split by stage as
// the executor is: bisect_driver.cc the session, its references and its
// search; bisect_batches.cc installing a candidate (checkout and hook, or a
// lab kernel build) and running its batches; bisect_candidate.cc judging a
// candidate batch by batch. Private to runner/bisect/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sequential/bisect_looks.h"
#include "analysis/sequential/bisect_verdict.h"
#include "results/store.h"
#include "runner/bisect/bisect.h"

namespace schedlab {

// Thrown when schedlab is interrupted inside a hook.
struct BisectInterrupted {};

class BisectDriver {
 public:
  BisectDriver(Store& store, std::int64_t id, const DriveOptions& options);
  BisectOutcome run();

 private:
  using json = nlohmann::json;

  // bisect_driver.cc: the session, its references, its result.
  BisectOutcome refuse(const std::string& reason, const ReferenceCheck& check,
                       json extra = json::object());
  void finish(const SearchStep& step, const std::vector<CandidateState>& states);
  json decision_of(std::size_t pos) const;
  // The runs of a candidate's batches and of the references measured beside them.
  std::string run_name(std::size_t pos, std::size_t batch) const;
  std::string window_name(std::size_t pos, std::size_t batch, std::size_t ref) const;
  std::vector<std::int64_t> finished_runs(std::size_t pos) const;
  std::vector<std::int64_t> window_runs(std::size_t pos, std::size_t ref) const;
  bool finished(const std::string& name) const;
  std::string runs_json(std::size_t pos) const;
  std::vector<double> samples(std::size_t pos) const;
  bool has_decision(std::size_t pos) const;
  Centre metric_centre(std::size_t pos) const;

  // bisect_batches.cc: a candidate installed and measured.
  std::optional<std::string> prepare(std::size_t pos);
  bool builds_itself() const;
  std::string lab_kernel(std::size_t pos) const;
  std::optional<std::string> build(std::size_t pos);
  bool run_batch(std::size_t which, const std::string& name);
  bool run_batch(std::size_t pos, std::size_t batch);
  std::optional<BisectOutcome> reference_batch(std::size_t pos);
  void record_reference(std::size_t pos);

  // bisect_candidate.cc: a candidate judged, batch by batch.
  void record(std::size_t pos, const std::string& verdict, const std::string& by,
              const std::vector<double>& x, const VerdictResult* v, const std::string& note,
              const SequentialVerdict* looks = nullptr);
  SequentialVerdict judge_looks(std::size_t pos, const std::vector<std::int64_t>& runs,
                                const std::vector<double>& good0, const std::vector<double>& bad0);
  bool measure_candidate(std::size_t pos, const std::vector<double>& good0,
                         const std::vector<double>& bad0);
  std::vector<std::string> batch_leanings(std::size_t pos, std::size_t batches) const;
  bool last_is_unknown_at(std::size_t pos, std::size_t n) const;
  static std::string p_text(const PValue& p);

  Store& store_;
  std::int64_t id_;
  DriveOptions options_;
  BisectSpec spec_;
  VerdictOptions verdict_;
};

}  // namespace schedlab
