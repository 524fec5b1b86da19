#!/bin/sh
# The README's first command: install, build, run the demo experiment on this
# machine into ./schedlab.db, and print the comparison table.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh schedlab
./build/runner/schedlab run configs/demo-local.yaml --db schedlab.db --name "demo-$(date -u +%Y%m%dT%H%M%SZ)"
./build/runner/schedlab compare --db schedlab.db
