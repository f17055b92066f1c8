#!/usr/bin/env bash
# NameNode cost of the CloudTalk placement policy: addBlock latency and throughput, stock vs plugin, in one run.
# Usage: hadoop-plugins/bench/block-allocation.sh [THREADS] [ALLOCATIONS_PER_THREAD] [ROUNDS] [CSV] [DEADLINE_MS]
#        [DATANODES]
set -euo pipefail
cd "$(dirname "$0")/../.."
threads=${1:-8}
per_thread=${2:-1000}
rounds=${3:-3}
csv=${4:-benchmarks/results/hdfs-block-allocation.csv}
deadline_ms=${5:-10}
datanodes=${6:-6}
source hadoop-plugins/bench/_run.sh
run_bench 768m org.cloudtalk.hadoop.bench.BlockAllocationBench "$threads" "$per_thread" "$rounds" "$csv" "$deadline_ms" "$datanodes"
