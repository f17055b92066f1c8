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
mvn -B -ntp -q -pl hadoop-plugins -am test-compile dependency:build-classpath -Dspotless.check.skip \
  -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/hadoop-plugins/target/bench.classpath"
cp="hadoop-plugins/target/test-classes:hadoop-plugins/target/classes:$(cat hadoop-plugins/target/bench.classpath)"
exec java -Xmx1g -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=error \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED \
  -cp "$cp" org.cloudtalk.hadoop.yarn.NodeOrderBench "$rounds" "$calls" "$csv" "${sizes[@]}"
