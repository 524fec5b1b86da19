#!/bin/sh
# Ingest: 100 pgbench logs of a 5,000 s run with -P 1, 1,000,200
# samples in all (10,000 progress samples + tps + latency per log), parsed
# (`schedlab parse`, goal <= 0.5 s CPU) and imported into SQLite
# (`schedlab import`, goal <= 1.5 s CPU and <= 64 MiB peak RSS), then that
# database merged into an empty one (`schedlab merge`: what a
# Slurm task's database costs to bring into the history) and merged again
# (every iteration already there: nothing copied). Prints
# user+sys CPU, peak RSS and samples per CPU second of each.
#   bench/ingest_bench.sh [BUILD_DIR]      (default: build)
set -eu
build=${1:-build}
schedlab="$build/runner/schedlab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# One log from pgbench's real output shape (../shared/fixtures/pgbench),
# its progress section lengthened; the others are copies.
awk 'BEGIN {
  print "pgbench (15.18 (Debian 15.18-0+deb12u1))"; print "starting vacuum...end."
  for (i = 1; i <= 5000; i++) printf "progress: %d.0 s, %.1f tps, lat %.3f ms stddev 0.023, 0 failed\n", i, 90000 + (i * 7919) % 20000, 0.019 + (i % 7) / 1000
  print "transaction type: <builtin: select only>"; print "scaling factor: 1"; print "query mode: simple"
  print "number of clients: 2"; print "number of threads: 2"; print "maximum number of tries: 1"
  print "duration: 5000 s"; print "number of transactions actually processed: 436212000"
  print "number of failed transactions: 0 (0.000%)"; print "latency average = 0.023 ms"
  print "latency stddev = 0.063 ms"; print "initial connection time = 3.100 ms"
  print "tps = 87282.689690 (without initial connection time)"
}' > "$dir/log-0.txt"
inputs=""
for i in $(seq 0 99); do
  [ "$i" -eq 0 ] || cp "$dir/log-0.txt" "$dir/log-$i.txt"
  inputs="$inputs default=$dir/log-$i.txt"
done
samples=1000200
measure() {  # label, command...: CPU seconds, peak RSS, samples per CPU second
  label=$1; shift
  /usr/bin/time -f "%U %S %M" -o "$dir/time" "$@" > /dev/null 2> "$dir/err" || { cat "$dir/err"; exit 1; }
  read -r user sys rss < "$dir/time"
  cpu=$(echo "$user + $sys" | bc)
  echo "$label: $cpu s CPU (user $user, sys $sys), peak RSS $((rss / 1024)) MiB, $(echo "$samples / $cpu" | bc) samples/s"
}
# shellcheck disable=SC2086
measure "parse  $samples samples" "$schedlab" parse pgbench $(echo "$inputs" | sed 's/default=//g') --param clients=2
# shellcheck disable=SC2086
measure "import $samples samples" "$schedlab" import pgbench $inputs --name big --param clients=2 --db "$dir/ingest.db"
echo "samples stored: $(sqlite3 "$dir/ingest.db" 'SELECT count(*) FROM samples')"
measure "merge  $samples samples" "$schedlab" merge "$dir/merged.db" "$dir/ingest.db"
measure "merge  again (nothing new)" "$schedlab" merge "$dir/merged.db" "$dir/ingest.db"
echo "samples merged: $(sqlite3 "$dir/merged.db" 'SELECT count(*) FROM samples')"
