#!/usr/bin/env bash
# What ordering nodes costs the CapacityScheduler per container: stock ResourceUsageMultiNodeLookupPolicy vs the
# CloudTalk policy, per partition size, in one run.
# Usage: hadoop-plugins/bench/node-order.sh [ROUNDS] [CALLS_PER_ROUND] [CSV] [NODES...]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
calls=${2:-2000}
csv=${3:-benchmarks/results/yarn-node-order.csv}
shift $(( $# < 3 ? $# : 3 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000 5000)
source hadoop-plugins/bench/_run.sh
run_bench 1g org.cloudtalk.hadoop.yarn.NodeOrderBench "$rounds" "$calls" "$csv" "${sizes[@]}"
