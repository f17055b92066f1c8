#!/usr/bin/env bash
# Builds the packet simulator helper with g++ against Debian's ns-3 (bin/install-ns3), only when ns-3 is installed
# and the source is newer than the binary. Without ns-3 it says so and succeeds: the packet evaluator then answers
# UNAVAILABLE. Usage: build.sh SOURCE OUTPUT
set -euo pipefail
source="$1" output="$2"
modules="ns3-core ns3-network ns3-internet ns3-point-to-point ns3-applications ns3-traffic-control"
if ! command -v g++ >/dev/null || ! command -v pkg-config >/dev/null || ! pkg-config --exists $modules 2>/dev/null; then
  echo "packet-sim: ns-3 is not installed (bin/install-ns3 installs it); the packet evaluator will be unavailable"
  rm -f "$output"
  exit 0
fi
if [ -x "$output" ] && [ "$output" -nt "$source" ] && [ "$output" -nt "$0" ]; then
  exit 0
fi
mkdir -p "$(dirname "$output")"
# shellcheck disable=SC2046 # pkg-config prints several flags on purpose
g++ -O2 -std=c++17 -o "$output.tmp" "$source" $(pkg-config --cflags --libs $modules)
mv "$output.tmp" "$output"
echo "packet-sim: built $output"
