// The real /proc/schedstat fixtures several tests read (../shared/fixtures:
// a before.txt and after.txt for each prefix).
#pragma once

#include <string>

namespace schedlab::test {

inline const std::string kSchedstatV15 =
    "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu.";
inline const std::string kSchedstatV17 = "schedstat/v17.aws-repro-collection-v6.19-epyc9r14-16cpu.";

}  // namespace schedlab::test
