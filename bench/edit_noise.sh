#!/bin/sh
# How loud hackbench is against the edit bench/edit_to_verdict.sh plants:
# HEAD and the work tree with STMT planted first in select_task_rq_fair
# (default `udelay(10);`) as columns of one run, N iterations a kernel at
# every point (LOOPS x FDS, process-pipes, 2 groups), alternating; prints
# per point each kernel's mean, CV and the change, and the seconds an
# iteration took (what the runner waited, SSH included). What the
# sequential design's min_effect_pct and cap must fit.
#
#   bench/edit_noise.sh [TREE] [SCHEDLAB]
#   N=10 LOOPS="10 20 50" FDS="20" STMT="udelay(10);" CPUS=2 bench/edit_noise.sh
#
# The edit has a fixed comment, so a second probe of the same STMT finds its
# kernel cached; it is taken back on every exit. E2V_KEEP=DIR keeps the db.
set -eu
TREE=${1:-/work/linux-6.1}
SCHEDLAB=${2:-$(dirname "$0")/../build/runner/schedlab}
N=${N:-10}
STMT=${STMT:-udelay(10);}
WORK=$(mktemp -d /tmp/schedlab-noise-XXXXXX)
. "$(dirname "$0")/planted_edit.sh"
plant_edit "$STMT" "schedlab edit_noise"
# loops and fds take one value a workload: a run per shape, both kernels
# booted again for each (the same two cached kernels).
for loops in ${LOOPS:-20}; do
  for fds in ${FDS:-20}; do
    cat >"$WORK/noise.yaml" <<YAML
hosts:
  sut: {lab: {kernels: ['git:$TREE@HEAD', 'git:$TREE@WORKTREE'], cpus: ${CPUS:-2}, memory: 512M, accel: tcg}}
  loadgen: local
iterations: {stop: sequential, min: $N, max: $N, min_effect_pct: 25}
workloads:
  - hackbench: {modes: [process-pipes], groups: [2], loops: $loops, fds: $fds, timeout: 2m}
YAML
    "$SCHEDLAB" run "$WORK/noise.yaml" --db "$WORK/db" --name "noise-$loops-$fds" >/dev/null 2>"$WORK/run.err" ||
      { tail -30 "$WORK/run.err" >&2; exit 1; }
    grep -E "lab: built|side by side" "$WORK/run.err" || true
  done
done
sqlite3 "$WORK/db" "SELECT name, json_extract(manifest_json, '$.cpu_count'),
  json_extract(manifest_json, '$.kernel_columns[0].lab.kernel_key'),
  json_extract(manifest_json, '$.kernel_columns[1].lab.kernel_key') FROM runs"
echo "point | kernel | n | mean s | CV % | change % | s an iteration"
sqlite3 -separator ' ' "$WORK/db" "
  SELECT i.params_json, v.name, s.value, i.duration_s FROM iterations i
  JOIN variants v ON v.id = i.variant_id JOIN samples s ON s.iteration_id = i.id
  WHERE i.status = 'ok' AND s.metric = 'time' ORDER BY i.params_json, v.position, i.iteration" |
  awk '{ p = $1; k = $2; n[p, k]++; s[p, k] += $3; q[p, k] += $3 * $3; d[p, k] += $4
         if (!(p in seen)) { seen[p] = 1; order[++np] = p }
         if (!((p, k) in ks)) { ks[p, k] = 1; kern[p, ++nk[p]] = k } }
       END { for (i = 1; i <= np; i++) { p = order[i]
               for (j = 1; j <= nk[p]; j++) { k = kern[p, j]; m = s[p, k] / n[p, k]
                 sd = sqrt((q[p, k] - n[p, k] * m * m) / (n[p, k] - 1))
                 if (j == 1) base = m
                 printf "%s | %s | %d | %.4f | %.1f | %+.1f | %.2f\n", p, k, n[p, k], m, 100 * sd / m,
                   100 * (m / base - 1), d[p, k] / n[p, k] } } }'
