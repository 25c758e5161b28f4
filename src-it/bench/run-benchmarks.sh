#!/usr/bin/env bash
# End-to-end benchmarks of the packaged kcshare launcher (see bench.py for what is timed and how).
#
#   ./mvnw -B -ntp -q -DskipTests package       # builds shareability-cli/target/kcshare
#   src-it/bench/run-benchmarks.sh [--rounds N] [--fleet-rounds N] [--sampling-rounds N] [--only abcde] [--json-out FILE]
#
# Installs the pinned real servers and the MCP Inspector CLI into .it-servers/ first (no-op when
# current). Needs java, node, npm and python3. Prints a table of medians and IQRs and each ratio
# against its target. Not run by .ci/run: timings on a shared CI machine prove little.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ ! -x "$repo/shareability-cli/target/kcshare" ] || [ ! -f "$repo/shareability-cli/target/kcshare.jar" ]; then
  echo "run-benchmarks: build the launcher first: ./mvnw -B -ntp -q -DskipTests package" >&2
  exit 1
fi
command -v python3 >/dev/null || { echo "run-benchmarks: python3 is not on PATH" >&2; exit 1; }
"$repo/src-it/servers/install.sh" >&2
exec python3 "$here/bench.py" "$@"
