// The Slurm submission's pure parts: what scontrol and squeue print (lines
// captured from Slurm 22.05.8, Debian's slurm-wlm, on the test cluster of
// tests/support/slurm/lab.sh), the pair a task makes of its nodes, the batch
// script and sbatch's arguments, the record on disk.
#include "runner/slurm/submission.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "base/file.h"
#include "runner/slurm/array_job.h"
#include "runner/slurm/slurm_tools.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace schedlab::slurm;

namespace {

const char* kPartitions =
    "PartitionName=lab AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL AllocNodes=ALL Default=YES "
    "QoS=N/A DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO "
    "MaxNodes=UNLIMITED MaxTime=UNLIMITED MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED Nodes=n[1-2] "
    "PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO OverTimeLimit=NONE "
    "PreemptMode=OFF State=UP TotalCPUs=4 TotalNodes=2 SelectTypeParameters=NONE "
    "JobDefaults=(null) DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED "
    "TRES=cpu=4,mem=2M,node=2,billing=4\n"
    "PartitionName=big Default=NO State=DOWN TotalNodes=40\n";

const char* kNode =
    "NodeName=n1 Arch=x86_64 CoresPerSocket=1  CPUAlloc=0 CPUEfctv=2 CPUTot=2 CPULoad=1.27 "
    "AvailableFeatures=(null) ActiveFeatures=(null) Gres=(null) NodeAddr=10.231.0.1 "
    "NodeHostName=n1 Version=22.05.8 OS=Linux 6.18.44-fc-v1147 #1 SMP PREEMPT_DYNAMIC @0  "
    "RealMemory=1 AllocMem=0 FreeMem=23075 Sockets=2 Boards=1 State=IDLE ThreadsPerCore=1";

Config config_with(const std::string& sut, const std::string& loadgen) {
  Config c;
  c.sut = sut;
  c.loadgen = loadgen;
  return c;
}

}  // namespace

TEST_CASE("slurm: partitions, node addresses and queued tasks as scontrol and squeue print them") {
  const auto parts = parse_partitions(kPartitions);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].name == "lab");
  CHECK(parts[0].nodes == 2);
  CHECK(parts[0].is_default);
  CHECK(parts[0].state == "UP");
  CHECK(parts[1].nodes == 40);
  CHECK_FALSE(parts[1].is_default);
  CHECK(parse_partitions("").empty());

  CHECK(parse_node_address(kNode) == "10.231.0.1");
  CHECK_FALSE(parse_node_address("NodeName=n9 State=UNKNOWN"));
  CHECK_FALSE(parse_node_address("NodeName=n9 NodeAddr=(null)"));

  // squeue -h -r -o '%K|%T|%N|%r': a running task, and the pending rest.
  const auto q = parse_squeue("0|RUNNING|n1|None\n1-3|PENDING||Resources\n\ngarbage\n");
  REQUIRE(q.size() == 2);
  CHECK(q[0].task == 0);
  CHECK(q[0].state == "RUNNING");
  CHECK(q[0].nodes == "n1");
  CHECK(q[1].task == -1);
  CHECK(q[1].range == "1-3");
  CHECK(q[1].nodes.empty());
  CHECK(q[1].reason == "Resources");
}

TEST_CASE("slurm: sacct's array task states (the format of sacct -n -X -P -o JobID,State)") {
  // Not captured here: the test cluster keeps no accounting.
  const auto st = parse_sacct("12", "12_0|COMPLETED\n12_1|CANCELLED by 0\n12_[2-3]|PENDING\n"
                                    "13_0|FAILED\n12_4|\nnoise\n");
  CHECK(st == std::map<int, std::string>{{0, "COMPLETED"}, {1, "CANCELLED"}});
  CHECK(parse_sacct("12", "").empty());
}

TEST_CASE("slurm: a task's nodes become the config's pair, keeping user and port") {
  const std::vector<Node> two = {{"n1", "10.231.0.1"}, {"n2", "10.231.0.2"}};
  const auto p = task_pair(config_with("ssh://root@sut-host:2222", "ssh://bench@lg-host"), two);
  CHECK(p.name == "n1_n2");
  CHECK(p.sut == "ssh://root@10.231.0.1:2222");
  CHECK(p.loadgen == "ssh://bench@10.231.0.2");
  CHECK(p.sut_address == "10.231.0.1");

  const auto one = task_pair(config_with("ssh://root@x", "local"), {{"node.rack1", "10.0.0.7"}});
  CHECK(one.name == "node-rack1");  // pair names are [A-Za-z0-9_-]
  CHECK(one.sut == "ssh://root@10.0.0.7");
  CHECK(one.loadgen == "local");
  CHECK(one.sut_address.empty());
  CHECK(task_pair(config_with("local", "local"), {{"n1", "n1"}}).sut == "local");

  CHECK(nodes_per_task(config_with("ssh://a", "local")) == 1);
  CHECK(nodes_per_task(config_with("ssh://a", "ssh://b")) == 2);
  CHECK_THROWS_WITH(task_pair(config_with("ssh://a", "ssh://b"), {{"n1", "a"}}),
                    Catch::Contains("1 node(s), its pair needs 2"));
}

TEST_CASE("slurm: configs a job array cannot run are named with the reason") {
  Config lab = config_with("lab", "local");
  lab.sut_lab.emplace();
  CHECK(unsupported(lab).empty());  // one VM on the task's node
  CHECK(nodes_per_task(lab) == 1);
  CHECK_THAT(unsupported(config_with("lab", "local")), Catch::Contains("neither local, ssh:// nor a lab"));
  CHECK_THAT(unsupported(config_with("ssh://a", "ftp://b")), Catch::Contains("'ftp://b'"));
  Config pairs = config_with("local", "local");
  pairs.pairs.push_back({.name = "a", .sut = "ssh://a"});
  CHECK_THAT(unsupported(pairs), Catch::Contains("--pairs N"));
  CHECK(unsupported(config_with("ssh://root@a", "local")).empty());
}

TEST_CASE("slurm: the batch script quotes every word; sbatch gets argv") {
  Submission s;
  s.dir = "/res/it's here";
  s.name = "fleet";
  s.pairs = 3;
  s.nodes_per_task = 2;
  s.partition = "lab";
  s.time_limit = "10:00";
  s.schedlab = "/opt/sched lab/schedlab";
  CHECK(task_script(s) ==
        "#!/bin/sh\n"
        "# Written by schedlab slurm submit; one array task = one SUT/loadgen pair.\n"
        "exec '/opt/sched lab/schedlab' slurm task '/res/it'\\''s here'\n");
  const auto a = sbatch_args(s, "0-2");
  CHECK(a == std::vector<std::string>{"--job-name=schedlab-fleet", "--array=0-2", "--nodes=2",
                                      "--ntasks-per-node=1", "--exclusive",
                                      "--output=/res/it's here/slurm/task-%a-%A.out",
                                      "--chdir=/res/it's here", "--partition=lab", "--time=10:00",
                                      "/res/it's here/slurm/task.sh"});
  CHECK(sbatch_args(s, "1", "n3,n4")[9] == "--nodelist=n3,n4");
}

TEST_CASE("slurm: a nightly target's SUT replaces the config's, and is not put on the nodes") {
  const std::string text = "hosts:\n  sut: ssh://root@any\n  loadgen: local\nworkloads:\n  - hackbench: {groups: [1]}\n";
  Submission s;
  s.config_path = "/c/n.yaml";
  const Config plain = task_config(s, text);
  CHECK(plain.sut == "ssh://root@any");
  CHECK(places_on_nodes(s, plain));
  s.target_sut = "ssh://root@sut7";
  const Config fixed = task_config(s, text);
  CHECK(fixed.sut == "ssh://root@sut7");
  CHECK_FALSE(places_on_nodes(s, fixed));
  s.target_sut.clear();
  s.lab_kernel = "debian:6.1";
  const Config lab = task_config(s, text);
  REQUIRE(lab.sut_lab);
  CHECK(lab.sut_lab->kernel == "debian:6.1");
  CHECK_FALSE(places_on_nodes(s, lab));
}

TEST_CASE("slurm: the submission record round-trips, and a bad one names its file") {
  test::TempDir dir;
  Submission s;
  s.dir = dir.path().string();
  s.name = "fleet";
  s.config_path = "/c/fleet.yaml";
  s.pairs = 2;
  s.partition = "lab";
  s.schedlab = "/usr/bin/schedlab";
  s.jobs = {"12", "15"};
  s.lab_kernel = "debian:6.12";
  s.save();
  const auto back = Submission::load(dir.path().string());
  CHECK(back.name == "fleet");
  CHECK(back.pairs == 2);
  CHECK(back.jobs == std::vector<std::string>{"12", "15"});
  CHECK(back.lab_kernel == "debian:6.12");
  CHECK(back.target_sut.empty());
  CHECK(back.task_db(1) == dir.path().string() + "/task-1.db");
  write_whole_file(dir.file("submission.json"), R"({"name": "x", "pairs": -1})");
  CHECK_THROWS_WITH(Submission::load(dir.path().string()),
                    Catch::Contains("submission.json: not a submission record"));
  // hostile7: a crafted record in a shared results directory: an escape
  // sequence status printed raw, a job id scancel would take for an option,
  // pairs status would walk for hours.
  const std::string good = s.to_json();
  const std::pair<const char*, const char*> crafted[] = {
      {R"("name": "fleet")", R"("name": "x\u001b]0;t\u0007")"},
      {R"("12")", R"("--user=root")"},
      {R"("partition": "lab")", R"("partition": "l\nab")"},
      {R"("pairs": 2)", R"("pairs": 2000000000)"},
  };
  for (const auto& [from, to] : crafted) {
    std::string text = good;
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), std::string(from).size(), to);
    write_whole_file(dir.file("submission.json"), text);
    INFO(text);
    CHECK_THROWS_WITH(Submission::load(dir.path().string()),
                      Catch::Contains("submission.json: not a submission record") &&
                          !Catch::Contains("\x1b") && !Catch::Contains("\n"));
  }
  // hostile8: the refusal names the field it refuses.
  {
    std::string text = good;
    text.replace(text.find(R"("partition": "lab")"), 18, R"("partition": "l\nab")");
    write_whole_file(dir.file("submission.json"), text);
    CHECK_THROWS_WITH(Submission::load(dir.path().string()),
                      Catch::Contains("its partition 'l\\x0aab' holds a control character"));
  }
  CHECK_THROWS_WITH(Submission::load(dir.file("nowhere")), Catch::Contains("no submission record"));
  CHECK_THROWS_WITH(submission_dir(dir.file("nowhere")),
                    Catch::Contains("neither a results directory"));
  CHECK(submission_dir(dir.path().string()) == dir.path().string());
}

TEST_CASE("slurm: status prints a task's nodes file and Slurm's words escaped (hostile8)") {
  // DIR/slurm/task-I.nodes is written into a results directory others may
  // share: its ESC and BEL (an OSC retitling the terminal) were printed raw
  // in the nodes column; the merge command to paste named DIR unquoted.
  test::TempDir dir;
  Submission s;
  s.dir = dir.file("fleet one");
  s.name = "fleet";
  s.pairs = 2;
  std::filesystem::create_directories(s.dir + "/slurm");
  write_whole_file(s.dir + "/slurm/task-1.nodes", "n1\x1b]0;pwned\x07\n");
  const std::string text =
      slurm::status_text(s, {{0, {.task = 0, .state = "RUN\x1bNING", .nodes = "n\x07"}}});
  INFO(text);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  CHECK_THAT(text, Catch::Contains("RUN\\x1bNING") && Catch::Contains("n1\\x1b]0;pwned\\x07"));
  s.pairs = 0;  // nothing unfinished: the merge command
  CHECK_THAT(slurm::status_text(s, {}),
             Catch::Contains("schedlab merge merged.db '" + s.dir + "'/task-*.db"));
}
