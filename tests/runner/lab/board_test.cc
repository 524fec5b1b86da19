// The lab's boards (board.h) and what differs on the exynos4210: its qemu
// argv, its config errors, the DTB fixes (on dtc's own output: a real DTB
// compiled and decompiled here), the armhf userland's ELF libraries, which
// workloads' modules a board gets and the package names one (dmatest.ko) is
// built from.
#include "runner/lab/board.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "runner/config/config.h"
#include "runner/hosts/local_host.h"
#include "runner/lab/dtb.h"
#include "runner/lab/guest_userland.h"
#include "runner/lab/initramfs.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"
#include "runner/lab/out_of_tree_module.h"
#include "runner/lab/qemu.h"
#include "tests/support/config_error.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;
using namespace schedlab::lab;

namespace {

const Board& exynos() {
  return board_named("exynos4210");
}

// A DTB shaped like the board's (dtc's decompiled form of Debian's
// exynos4210-smdkv310.dtb, cut to the nodes around the fixes).
const char* const kSmdkDts = R"(/dts-v1/;

/ {
	#address-cells = <0x01>;
	#size-cells = <0x01>;
	compatible = "samsung,smdkv310\0samsung,exynos4210\0samsung,exynos4";

	soc {
		compatible = "simple-bus";
		#address-cells = <0x01>;
		#size-cells = <0x01>;
		ranges;

		pinctrl@11000000 {
			compatible = "samsung,exynos4210-pinctrl";
			reg = <0x11000000 0x1000>;

			gpx0-gpio-bank {
				gpio-controller;
				#gpio-cells = <0x02>;
				interrupt-controller;
				#interrupt-cells = <0x02>;
			};
		};
	};

	fixed-rate-clocks {

		xxti {
			compatible = "samsung,clock-xxti";
			clock-frequency = <0xb71b00>;
		};
	};
};
)";

}  // namespace

TEST_CASE("boards: one row each, x86 the default, the exynos4210's facts") {
  CHECK(default_board().name == "x86");
  CHECK(default_board().qemu == "qemu-system-x86_64");
  const Board& b = exynos();
  CHECK(b.qemu == "qemu-system-arm");
  CHECK(b.machine == "smdkc210");
  CHECK(b.cpus == 2);
  CHECK(b.memory == "1G");
  CHECK(b.kvm_args.empty());
  CHECK(b.debian_arch == "armhf");
  CHECK(b.flavour == "armmp");
  CHECK(b.dtb == "exynos4210-smdkv310.dtb");
  CHECK(find_board("exynos") == nullptr);
  CHECK(unknown_board("exynos4201")
            .starts_with("unknown board 'exynos4201' (did you mean 'exynos4210'?)"));
  CHECK(unknown_board("exynos").starts_with("unknown board 'exynos'; known: x86 (qemu's PC"));
  CHECK(unknown_board("exynos").find(", exynos4210 (qemu's smdkc210") != std::string::npos);
  CHECK(package_regex(kernel_series().front(), b) == R"(^linux-image-6\.1\.0-[0-9]+-armmp$)");
  CHECK(package_regex(kernel_series().back(), default_board()) ==
        R"(^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$)");
  // The board's part of the guest fragment: dmatest as a module, the PL330, its NIC and console.
  const auto g = guest_config(b);
  const auto has = [&](const std::string& k, const std::string& v) {
    return std::find(g.begin(), g.end(), std::pair<std::string, std::string>{k, v}) != g.end();
  };
  CHECK(has("CONFIG_DMATEST", "m"));
  CHECK(has("CONFIG_PL330_DMA", "y"));
  CHECK(has("CONFIG_SMSC911X", "y"));
  CHECK(has("CONFIG_SERIAL_SAMSUNG_CONSOLE", "y"));
  CHECK(has("CONFIG_SCHEDSTATS", "y"));
  CHECK_FALSE(has("CONFIG_ACPI", "y"));
}

TEST_CASE(
    "qemu argv for the exynos4210: smdkc210, its DTB, console on the second UART, a LAN9118") {
  QemuOptions o{.board = "exynos4210",
                .vmlinuz = "/k",
                .initrd = "/i",
                .dtb = "/d/board.dtb",
                .cpus = 2,
                .memory = "1G",
                .accel = "tcg",
                .ssh_port = 2222,
                .forwards = {7003},
                .serial_log = "/d/serial.log"};
  const auto a = qemu_argv(o);
  const auto at = [&](const std::string& s) {
    return std::find(a.begin(), a.end(), s) - a.begin();
  };
  CHECK(a.front() == "qemu-system-arm");
  CHECK(a[at("-M") + 1] == "smdkc210");
  CHECK(a[at("-dtb") + 1] == "/d/board.dtb");
  CHECK(a[at("-append") + 1] == "console=ttySAC1,115200 panic=-1");
  CHECK(a[at("-serial") + 1] == "null");
  CHECK(a[at("-serial") + 3] == "file:/d/serial.log");
  CHECK(a[at("-nic") + 1] ==
        "user,restrict=on,hostfwd=tcp:127.0.0.1:2222-:22,hostfwd=tcp:127.0.0.1:7003-:7003,hostfwd=udp:127.0.0.1:"
        "7003-:7003,model=lan9118");
  CHECK(at("-cpu") == static_cast<long>(a.size()));  // the board's Cortex-A9, not -cpu max
  CHECK(a[at("-accel") + 1] == "tcg,thread=multi");
}

TEST_CASE("config: board, and what a board does not allow, point into the file") {
  const auto c = parse_config(
      "hosts:\n  sut: {lab: {kernel: debian:6.1, board: exynos4210}}\nworkloads: [dmatest]\n",
      "t.yaml");
  REQUIRE(c.sut_lab);
  CHECK(c.sut_lab->board == "exynos4210");
  CHECK(c.sut_lab->cpus == 2);
  CHECK(c.sut_lab->memory == "1G");
  CHECK(
      parse_config("hosts:\n  sut: {lab: {kernel: debian:6.1}}\nworkloads: [hackbench]\n", "t.yaml")
          .sut_lab->board == "x86");
  const auto error = [](const std::string& lab) {
    return test::config_error_of("hosts:\n  sut: {lab: {" + lab + "}}\nworkloads: [dmatest]\n",
                                 "t.yaml");
  };
  // Each lab line and the key and reason of its error.
  const std::pair<std::string, std::string> refused[] = {
      {"kernel: debian:6.1, board: exynos", "board: " + unknown_board("exynos")},
      {"kernel: debian:6.1, board: exynos4210, cpus: 4",
       "cpus: the exynos4210 board has 2 CPUs (qemu's smdkc210 takes no other count), not 4"},
      {"kernel: debian:6.1, board: exynos4210, memory: 2G",
       "memory: the exynos4210 board has 1G of memory whatever qemu is told, not 2G"},
      {"kernel: debian:6.1, board: exynos4210, accel: kvm",
       "accel: the exynos4210 board is emulated (qemu-system-arm): TCG only"},
      {"kernel: linux-image-6.1.0-57-amd64-unsigned, board: exynos4210",
       "kernel: 'linux-image-6.1.0-57-amd64-unsigned' is no armhf build: the exynos4210 board "
       "boots linux-image-*-armmp"},
  };
  for (const auto& [lab, why] : refused) CHECK(error(lab) == "t.yaml:2: hosts.sut.lab." + why);
  CHECK(error("kernels: [debian:6.1, linux-image-6.1.0-57-armmp], board: exynos4210") ==
        "(no error)");
}

TEST_CASE("DTB fixes: the xxti clock and the ethernet node, by the nodes' paths in dtc's output") {
  const auto nodes = dts_nodes(kSmdkDts);
  REQUIRE(nodes.size() == 6);
  CHECK(nodes[0].path == "/");
  CHECK(nodes[0].compatible ==
        std::vector<std::string>{"samsung,smdkv310", "samsung,exynos4210", "samsung,exynos4"});
  CHECK(nodes[3].path == "/soc/pinctrl@11000000/gpx0-gpio-bank");
  CHECK(nodes[5].path == "/fixed-rate-clocks/xxti");
  CHECK(nodes[5].compatible == std::vector<std::string>{"samsung,clock-xxti"});
  const std::string fixed = fixed_dts(kSmdkDts, exynos(), "smdk.dtb");
  CHECK(fixed.starts_with(kSmdkDts));
  CHECK(fixed.find("&{/fixed-rate-clocks/xxti} { clock-frequency = <24000000>; };") !=
        std::string::npos);
  CHECK(fixed.find("interrupt-parent = <&{/soc/pinctrl@11000000/gpx0-gpio-bank}>;") !=
        std::string::npos);
  CHECK(fixed.find("ethernet@5000000 {") != std::string::npos);
  std::string no_gpx0 = kSmdkDts;
  no_gpx0.replace(no_gpx0.find("gpx0-gpio-bank"), 14, "gpx1-gpio-bank");
  CHECK_THROWS_WITH(
      fixed_dts(no_gpx0, exynos(), "smdk.dtb"),
      Catch::StartsWith("lab: smdk.dtb: no gpx0 GPIO bank (gpx0-gpio-bank) node, so the exynos4210 "
                        "board's fix cannot apply (qemu wires a LAN9118"));
}

TEST_CASE(
    "DTB fixes through the real dtc: applied, and a DTB they cannot apply to is one line naming "
    "the node") {
  LocalHost local;
  if (!local.find_program("dtc"))
    SCHEDLAB_SKIP("dtc is not installed (Debian package device-tree-compiler)");
  test::TempDir dir;
  const auto compile = [&](const std::string& dts, const std::string& name) {
    test::write_text(dir.file(name + ".dts"), dts);
    const auto r = local.run({.argv = {"dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dir.file(name),
                                       dir.file(name + ".dts")},
                              .timeout = std::chrono::seconds(30)});
    REQUIRE(r.ok());
    return dir.file(name);
  };
  const std::string good = compile(kSmdkDts, "smdk.dtb");
  fix_dtb(exynos(), good, dir.file("fixed.dtb"), local);
  const auto get = [&](const std::string& node, const std::string& prop) {
    return local.run({.argv = {"fdtget", dir.file("fixed.dtb"), node, prop},
                      .timeout = std::chrono::seconds(30)});
  };
  CHECK(get("/fixed-rate-clocks/xxti", "clock-frequency").out == "24000000\n");
  CHECK(get("/ethernet@5000000", "compatible").out == "smsc,lan9115\n");
  CHECK(get("/ethernet@5000000", "interrupts").out == "5 4\n");
  // The interrupt parent is the GPIO bank's phandle, which dtc gave it.
  CHECK(get("/ethernet@5000000", "interrupt-parent").out ==
        get("/soc/pinctrl@11000000/gpx0-gpio-bank", "phandle").out);
  std::string other = kSmdkDts;
  other.replace(other.find("\"samsung,clock-xxti\""), 20, "\"fixed-clock\"");
  const std::string bad = compile(other, "other.dtb");
  try {
    fix_dtb(exynos(), bad, dir.file("never.dtb"), local);
    FAIL("fixed a DTB without an xxti clock");
  } catch (const DtbFixError& e) {
    const std::string what = e.what();
    CHECK(what.starts_with(
        "lab: other.dtb: no xxti clock (compatible samsung,clock-xxti) node, so the exynos4210 "
        "board's fix cannot apply"));
    CHECK(what.find('\n') == std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("never.dtb")));
}

TEST_CASE("armhf libraries from the ELF NEEDED entries and the interpreter (readelf's output)") {
  const std::string out =
      "Program Headers:\n"
      "  INTERP         0x000154 0x00010154 0x00010154 0x00019 0x00019 R   0x1\n"
      "      [Requesting program interpreter: /lib/ld-linux-armhf.so.3]\n"
      "Dynamic section at offset 0x1ef0c contains 27 entries:\n"
      "  Tag        Type                         Name/Value\n"
      " 0x00000001 (NEEDED)                     Shared library: [libtomcrypt.so.1]\n"
      " 0x00000001 (NEEDED)                     Shared library: [libc.so.6]\n"
      " 0x0000000c (INIT)                       0x11a4c\n";
  CHECK(readelf_needed(out) == std::vector<std::string>{"libtomcrypt.so.1", "libc.so.6"});
  CHECK(readelf_interpreter(out) == "/lib/ld-linux-armhf.so.3");
  CHECK(readelf_needed("There is no dynamic section in this file.\n").empty());
  CHECK(readelf_interpreter("There is no dynamic section in this file.\n").empty());
}

TEST_CASE("a board's modules are the workloads' modules for the hardware it has") {
  // The exynos4210 says it has DMA engines; dmatest declares the module
  // that drives them. x86 has none.
  const auto arm = board_modules(exynos());
  REQUIRE(arm.size() == 1);
  CHECK(arm[0].name == "dmatest");
  CHECK(arm[0].source == "drivers/dma/dmatest.c");
  CHECK(arm[0].config == "CONFIG_DMATEST");
  CHECK(board_modules(default_board()).empty());
  CHECK(board_help(exynos()) == exynos().help + " for dmatest");
  CHECK(board_help(default_board()) == default_board().help);
  // Every declared module is built for some board (else it never is).
  for (const Workload* w : all_workloads())
    for (const KernelModule& m : w->guest_needs().kernel_modules) {
      INFO(w->name() << ": " << m.name);
      CHECK(std::ranges::any_of(boards(), [&](const Board& b) {
        return std::ranges::count(board_modules(b), m.name, &KernelModule::name) == 1;
      }));
    }
  // Kept where the cache kept dmatest.ko before modules were declared.
  Kernel k;
  k.modules_dir = "/c/kernels/6.1.0-57-armmp-62cdb16ec5bc/lib/modules/6.1.0-57-armmp";
  CHECK(out_of_tree_module_path(k, arm[0]) ==
        "/c/kernels/6.1.0-57-armmp-62cdb16ec5bc/lib/modules/6.1.0-57-armmp/extra/dmatest.ko");
  // A tree build has it as a module, after CONFIG_MODULES; x86 builds none.
  const auto g = guest_config(exynos());
  const auto at = [&](const std::string& k) {
    return std::ranges::find(g, k, &std::pair<std::string, std::string>::first) - g.begin();
  };
  CHECK(at("CONFIG_MODULES") + 2 == at("CONFIG_DMATEST"));
  CHECK(std::ranges::count(guest_config(default_board()),
                           std::pair<std::string, std::string>{"CONFIG_MODULES", "n"}) == 1);
}

TEST_CASE("dmatest.ko is built from the image's headers, its kbuild and the series' source") {
  CHECK(headers_package("linux-image-6.1.0-57-armmp") == "linux-headers-6.1.0-57-armmp");
  CHECK(common_headers_package("linux-image-6.1.0-57-armmp", "armmp") ==
        "linux-headers-6.1.0-57-common");
  CHECK(common_headers_package("linux-image-6.12.118+deb12-armmp", "armmp") ==
        "linux-headers-6.12.118+deb12-common");
  // Depends of linux-headers-6.1.0-57-armmp 6.1.192-3, as dpkg-deb -f prints it.
  CHECK(kbuild_package(
            "linux-headers-6.1.0-57-common (= 6.1.192-3), linux-kbuild-6.1 (>= 6.1.192-3), "
            "linux-compiler-gcc-12-arm") == "linux-kbuild-6.1");
  CHECK(kbuild_package("linux-kbuild-6.12.118+deb12 (>= 6.12.118-1~deb12u1)") ==
        "linux-kbuild-6.12.118+deb12");
  CHECK(kbuild_package("kmod, linux-base (>= 4.3~)").empty());
  CHECK(source_package("6.1.0-57-armmp") == "linux-source-6.1");
  CHECK(source_package("6.12.118+deb12-armmp") == "linux-source-6.12");
}

TEST_CASE("an armhf busybox links its applets at boot; this machine's lists them") {
  const std::string s = init_script({"libphy.ko", "smsc911x.ko"}, true);
  CHECK(s.find("/bin/busybox --install -s\n") < s.find("mount -t proc"));
  CHECK(s.find("insmod /lib/modules/lab/libphy.ko") <
        s.find("insmod /lib/modules/lab/smsc911x.ko"));
  CHECK(init_script({}, false).find("--install") == std::string::npos);
}
