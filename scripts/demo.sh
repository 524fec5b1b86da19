#!/bin/sh
# The README's first command: install, build and install schedlab (on PATH
# as the README's commands use it), run the demo experiment on this machine
# into ./schedlab.db, and print the comparison table.
# SCHEDLAB_PREFIX=DIR installs into DIR/bin instead of /usr/local/bin.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh schedlab
prefix="${SCHEDLAB_PREFIX:-/usr/local}"
if [ -w "$prefix" ] || [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
$SUDO cmake --install build --prefix "$prefix" >/dev/null
schedlab="$prefix/bin/schedlab"
if [ "$(command -v schedlab || true)" = "$schedlab" ]; then
  echo "demo: installed $schedlab (on PATH: the README's commands run as written)" >&2
else
  echo "demo: installed $schedlab; it is not first on PATH, so run it as $schedlab" >&2
fi
# --quiet: the table comes once, from compare (run would print it too).
"$schedlab" run configs/demo-local.yaml --db schedlab.db --name "demo-$(date -u +%Y%m%dT%H%M%SZ)" --quiet
"$schedlab" compare --db schedlab.db
