// The process kinds: applied to the workload's own processes as they start
// (hosts/: between fork and exec locally, chrt/taskset over SSH), nothing
// to journal; but `policy: {tasks: ...}`, which sets running threads by name
// (runner/run/task_policies.h). A variant gives them as `policy: batch`,
// `nice: 5` (the clients), `policy: {server: batch, client: other}`, `nice:
// {server: 5}`, `policy: {tasks: {comm: mysqld, policy: batch}}` and
// `affinity: {server: CPUS, client: CPUS}`.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "base/suggest.h"
#include "runner/input/units.h"
#include "runner/input/yaml_reader.h"
#include "runner/knobs/knob_kind_rows.h"

namespace schedlab {
namespace {

// Setting names: a bare `policy: batch` / `nice: 5` is "policy" / "nice"
// (the clients, as before roles); `policy: {server: batch, client: other}`
// and `nice: {server: 5}` are "server.policy", "client.policy",
// "server.nice", ...; `policy: {tasks: {comm: mysqld, policy: batch}}` is
// "tasks.comm" and "tasks.policy".
const std::vector<std::string> kPolicyRoles = {"server", "client", "tasks"};
const std::vector<std::string> kNiceRoles = {"server", "client"};
const std::vector<std::string> kTasksKeys = {"comm", "policy"};

// The kernel keeps 15 bytes of a task's name (TASK_COMM_LEN 16).
constexpr std::size_t kMaxComm = 15;

bool bare(const std::vector<KnobSetting>& settings) {
  return std::all_of(settings.begin(), settings.end(),
                     [](const KnobSetting& s) { return s.name == "policy" || s.name == "nice"; });
}

// A role's policy and nice ("client" also takes the bare settings); nice
// alone is SCHED_OTHER at that nice value. Nothing when the role has none.
std::optional<SchedPolicy> role_policy(const std::vector<KnobSetting>& settings,
                                       const std::string& role) {
  std::optional<SchedPolicy> p;
  for (const auto& s : settings) {
    const bool mine = s.name.starts_with(role + ".") ||
                      (role == "client" && s.name.find('.') == std::string::npos);
    if (!mine) continue;
    if (!p) p = SchedPolicy{};
    const std::string what = s.name.substr(s.name.find('.') + 1);
    if (what == "policy") p->policy = *sched_policy_from_name(s.value);
    if (what == "nice") p->nice = std::stoi(s.value);
  }
  return p;
}

std::optional<TaskPolicyKnob> tasks_policy(const std::vector<KnobSetting>& settings) {
  std::optional<TaskPolicyKnob> t;
  for (const auto& s : settings) {
    if (!s.name.starts_with("tasks.")) continue;
    if (!t) t = TaskPolicyKnob{};
    if (s.name == "tasks.comm") t->comm = s.value;
    if (s.name == "tasks.policy") t->policy.policy = *sched_policy_from_name(s.value);
  }
  return t;
}

std::string policy_name(const YamlReader& r, const YAML::Node& n, const std::string& key) {
  const std::string s = r.scalar(n, key);
  if (!sched_policy_from_name(s))
    r.fail(
        n, key,
        fmt::format("unknown scheduling policy '{}'{}; known: {}", s,
                    did_you_mean(s, sched_policy_names()), fmt::join(sched_policy_names(), ", ")));
  return s;
}

// A role map (`{server: ..., client: ...}`): its keys checked, not empty.
void expect_roles(const YamlReader& r, const YAML::Node& n, const std::string& key,
                  const std::vector<std::string>& roles, const std::string& example) {
  r.check_keys(n, key, roles);
  if (n.size() == 0) r.fail(n, key, "empty: give " + or_list(roles) + ", e.g. " + example);
}

void parse_policy(const YamlReader& r, const YAML::Node& p, const std::string& key,
                  std::vector<KnobSetting>& out) {
  if (!p.IsMap()) {
    out.push_back({"policy", policy_name(r, p, key), YamlReader::line_of(p)});
    return;
  }
  expect_roles(r, p, key, kPolicyRoles, "{server: batch}");
  for (const std::string role : {"server", "client"})
    if (const auto v = p[role])
      out.push_back(
          {role + ".policy", policy_name(r, v, key + "." + role), YamlReader::line_of(v)});
  const auto t = p["tasks"];
  if (!t) return;
  const std::string tkey = key + ".tasks";
  r.check_keys(t, tkey, kTasksKeys);
  for (const auto& k : kTasksKeys)
    if (!t[k])
      r.fail(t, tkey, fmt::format("no '{}': give both, e.g. {{comm: mysqld, policy: batch}}", k));
  const std::string comm = r.word(t["comm"], tkey + ".comm");
  if (comm.size() > kMaxComm || comm.find('\n') != std::string::npos)
    r.fail(
        t["comm"], tkey + ".comm",
        fmt::format("'{}' is no task name: the kernel keeps at most {} bytes of one, on one line",
                    comm, kMaxComm));
  out.push_back({"tasks.comm", comm, YamlReader::line_of(t["comm"])});
  out.push_back({"tasks.policy", policy_name(r, t["policy"], tkey + ".policy"),
                 YamlReader::line_of(t["policy"])});
}

void parse_nice(const YamlReader& r, const YAML::Node& n, const std::string& key,
                std::vector<KnobSetting>& out) {
  if (!n.IsMap()) {
    out.push_back({"nice", std::to_string(r.integer(n, key, -20, 19)), YamlReader::line_of(n)});
    return;
  }
  expect_roles(r, n, key, kNiceRoles, "{server: 5}");
  for (const auto& role : kNiceRoles)
    if (const auto v = n[role])
      out.push_back({role + ".nice", std::to_string(r.integer(v, key + "." + role, -20, 19)),
                     YamlReader::line_of(v)});
}

nlohmann::json policy_json(const SchedPolicy& p) {
  nlohmann::json j = {{"policy", sched_policy_name(p.policy)}};
  if (p.nice) j["nice"] = *p.nice;
  return j;
}

// A setting's value is the CPU list as format_cpu_list writes it.
std::vector<int> cpus_of(const KnobSetting& s) {
  return parse_cpu_list(s.value).value_or(std::vector<int>{});
}

}  // namespace

KnobKind policy_kind() {
  return {
      .name = "policy",
      .config_keys = {"policy", "nice"},
      .parse =
          [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
            std::vector<KnobSetting> out;
            if (const auto p = variant["policy"]) parse_policy(r, p, key + ".policy", out);
            if (const auto n = variant["nice"]) parse_nice(r, n, key + ".nice", out);
            return out;
          },
      .process =
          [](const std::vector<KnobSetting>& settings, ProcessKnobs& k) {
            k.policy = role_policy(settings, "client");
            k.server_policy = role_policy(settings, "server");
            k.tasks = tasks_policy(settings);
          },
      .to_json =
          [](const std::vector<KnobSetting>& settings, nlohmann::json& j) {
            if (bare(settings)) {  // as before roles: {"policy": "SCHED_BATCH", "nice": 5}
              j.update(policy_json(*role_policy(settings, "client")));
              return;
            }
            nlohmann::json roles = nlohmann::json::object();
            for (const std::string role : {"server", "client"})
              if (const auto p = role_policy(settings, role)) roles[role] = policy_json(*p);
            if (const auto t = tasks_policy(settings))
              roles["tasks"] = {{"comm", t->comm}, {"policy", sched_policy_name(t->policy.policy)}};
            j["policy"] = roles;
          },
      .describe =
          [](const std::vector<KnobSetting>& settings) {
            if (bare(settings)) return " policy " + role_policy(settings, "client")->describe();
            std::string out;
            for (const std::string role : {"server", "client"})
              if (const auto p = role_policy(settings, role))
                out += fmt::format(" policy {}={}", role, p->describe());
            if (const auto t = tasks_policy(settings))
              out += fmt::format(" policy tasks {}={}", t->comm, t->policy.describe());
            return out;
          }};
}

// Settings `server` and `client`, in that order, each a CPU list.
KnobKind affinity_kind() {
  return {.name = "affinity",
          .config_keys = {"affinity"},
          .parse =
              [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
                static const std::vector<std::string> kAffinityKeys = {"server", "client"};
                const YAML::Node n = variant["affinity"];
                const std::string akey = key + ".affinity";
                r.expect_map(n, akey);
                r.check_keys(n, akey, kAffinityKeys);
                if (n.size() == 0)
                  r.fail(
                      n, akey,
                      "empty: give server, client or both, e.g. {server: \"0\", client: \"1-3\"}");
                std::vector<KnobSetting> out;
                for (const auto& role : kAffinityKeys) {
                  const auto v = n[role];
                  if (!v) continue;
                  const std::string k = akey + "." + role;
                  const std::string text = r.scalar(v, k);
                  const auto parsed = parse_cpu_list(text);
                  if (!parsed)
                    r.fail(v, k, fmt::format("'{}' is not a CPU list such as 0-3,8", text));
                  out.push_back({role, format_cpu_list(*parsed), YamlReader::line_of(v)});
                }
                return out;
              },
          .process =
              [](const std::vector<KnobSetting>& settings, ProcessKnobs& k) {
                for (const auto& s : settings)
                  (s.name == "server" ? k.server_cpus : k.client_cpus) = cpus_of(s);
              },
          .to_json =
              [](const std::vector<KnobSetting>& settings, nlohmann::json& j) {
                nlohmann::json a = nlohmann::json::object();
                for (const auto& s : settings) a[s.name] = s.value;
                j["affinity"] = a;
              },
          .describe =
              [](const std::vector<KnobSetting>& settings) {
                std::string out;
                for (const auto& s : settings)
                  out += fmt::format(" affinity {}={}", s.name, s.value);
                return out;
              }};
}

}  // namespace schedlab
