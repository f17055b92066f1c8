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
# One reactor run: the sibling modules resolve to their target/classes, so nothing needs to be installed first. Each
# module writes the file; hadoop-plugins comes last and leaves its own classpath there.
mvn -B -ntp -q -pl hadoop-plugins -am test-compile dependency:build-classpath -Dspotless.check.skip \
  -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/hadoop-plugins/target/bench.classpath"
cp="hadoop-plugins/target/test-classes:hadoop-plugins/target/classes:$(cat hadoop-plugins/target/bench.classpath)"
exec java -Xmx768m -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=error \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  -cp "$cp" org.cloudtalk.hadoop.bench.BlockAllocationBench "$threads" "$per_thread" "$rounds" "$csv" "$deadline_ms" "$datanodes"
