// The lab cache's keys, pinned: a cached kernel is found again only while
// every byte that enters its key is the same, and a cold ARM build takes
// 20-30 minutes. The values were computed by the code before the workloads
// declared their kernel modules (main 3216ceb); x86's request key is the
// one a real build wrote to its kernel.json then. A change that moves one
// of them rebuilds every cached kernel: it fails here first.
#include <catch2/catch.hpp>

#include "base/hash.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/lab_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace schedlab::lab;
namespace fs = std::filesystem;

namespace {

constexpr const char* kCompiler = "gcc (Debian 12.2.0-14+deb12u1) 12.2.0";
constexpr const char* kIdentity = "commit 334d98fc6ec52d6f32cbb283919265172863c733";

std::string sha(const std::string& text) {
  return sha256_hex(text);
}

}  // namespace

TEST_CASE("a Debian kernel's cache entry keeps its key and its dmatest.ko's path") {
  CHECK(package_kernel_key("6.1.0-57-armmp",
                           "62cdb16ec5bc06443d4ad73f98ba6de7d0a594b876e7202a889444bfb530d343") ==
        "6.1.0-57-armmp-62cdb16ec5bc");
  // The entry as the cache holds it (kernel.json as fetch_package wrote it).
  test::TempDir t;
  const LabPaths paths{t.path()};
  const fs::path entry = paths.kernels() / "6.1.0-57-armmp-62cdb16ec5bc";
  fs::create_directories(entry / "boot");
  fs::create_directories(entry / "lib/modules/6.1.0-57-armmp/extra");
  test::write_text(entry / "boot/vmlinuz-6.1.0-57-armmp", "kernel");
  test::write_text(entry / "lib/modules/6.1.0-57-armmp/extra/dmatest.ko", "module");
  test::write_text(entry / "kernel.json", R"({
  "board": "exynos4210",
  "deb_sha256": "62cdb16ec5bc06443d4ad73f98ba6de7d0a594b876e7202a889444bfb530d343",
  "package": "linux-image-6.1.0-57-armmp",
  "release": "6.1.0-57-armmp",
  "version": "6.1.192-3"
}
)");
  const auto cached = cached_kernels(paths);
  REQUIRE(cached.size() == 1);
  CHECK(cached[0].key == "6.1.0-57-armmp-62cdb16ec5bc");
  CHECK(cached[0].board == "exynos4210");
  CHECK(cached[0].modules_dir == (entry / "lib/modules/6.1.0-57-armmp").string());
}

TEST_CASE("a built kernel's guest fragment and request key keep their bytes") {
  const Board& arm = board_named("exynos4210");
  const Board& x86 = default_board();
  // The guest fragment alone (no user config): what every build appends.
  const std::string arm_fragment = requested_config({.board = arm.name}, arm);
  CHECK(sha(arm_fragment) == "43fbe77191157ca3ce53a3a3ebf9234f0c453f6fb74868292ed132faa4d42893");
  CHECK(sha(requested_config({}, x86)) ==
        "443d08d201debc66120dcd025004efd3a7125cfe1ae2c886c40c666d32b0501b");
  // A run with pgbench and dmatest on the board: the workloads' symbols after it.
  LabConfig config;
  config.board = arm.name;
  config.workloads = {"pgbench", "dmatest"};
  config.config = {{"CONFIG_HZ_1000", "y"}};
  const std::string with_run = requested_config(kernel_build_config(config), arm);
  CHECK(with_run.starts_with(arm_fragment));
  CHECK(sha(with_run) == "dc827d9b53ded72fc3cd01c96c38f37d98e239eedd782ca8420165c7e6dff664");
  CHECK(request_key(kIdentity, arm_fragment, kCompiler, arm) == "00aa44987d65");
  // What a real x86 build of that commit wrote to its kernel.json.
  CHECK(request_key(kIdentity, requested_config({}, x86), kCompiler, x86) == "7a80ee424eb6");
  CHECK(request_key("", arm_fragment, kCompiler, arm).empty());
  CHECK(built_kernel_key(kIdentity, "CONFIG_DMATEST=m\n", kCompiler) == "3d90ab4e90b2");
}

TEST_CASE("a run with perf-stat asks a built kernel for tracepoints, under a key of its own") {
  // A kernel built for a run without perf-stat (no tracepoints) is never
  // found for one with it: the symbols perf-stat adds are in the request,
  // hence in the request key (and in the resolved .config's key).
  const Board& x86 = default_board();
  LabConfig without;
  without.workloads = {"hackbench"};
  without.monitors = {"stat", "perf-profile"};
  LabConfig with = without;
  with.monitors.push_back("perf-stat");
  const std::string plain = requested_config(kernel_build_config(without), x86);
  const std::string traced = requested_config(kernel_build_config(with), x86);
  CHECK(traced.find("CONFIG_FTRACE=y\nCONFIG_ENABLE_DEFAULT_TRACERS=y\n") != std::string::npos);
  CHECK(plain.find("CONFIG_FTRACE") == std::string::npos);
  CHECK(request_key(kIdentity, plain, kCompiler, x86) !=
        request_key(kIdentity, traced, kCompiler, x86));
  // A run without perf-stat keeps the request it had before perf-stat asked
  // for anything (main 22a41b9): kernels cached for it stay found.
  CHECK(sha(plain) == "2f3882cd987bf657f697ba9cdc57098c739c958baea020caa848be47d535488f");
}
