#!/usr/bin/env bash
# The Solr plugin's added latency per distributed request (ReplicaAdvisor against a real CloudTalk server on loopback),
# with and without the cache, for 2 and 8 shards. Usage: solr-plugin/bench/added-latency.sh [REQUESTS] [CSV]
set -euo pipefail
cd "$(dirname "$0")/../.."
requests="${1:-20000}"
csv="${2:-benchmarks/results/solr-added-latency.csv}"
mvn -B -ntp -q -pl solr-plugin -am test-compile -Dspotless.skip=true
mvn -B -ntp -q -pl solr-plugin dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/solr-plugin/target/bench.classpath" -Dmdep.excludeGroupIds=org.cloudtalk >/dev/null
cp="solr-plugin/target/test-classes:solr-plugin/target/classes:cloudtalk-server/target/classes"
cp="$cp:cloudtalk-client/target/classes:cloudtalk-lang/target/classes:status-daemon/target/classes"
cp="$cp:$(cat solr-plugin/target/bench.classpath)"
mkdir -p "$(dirname "$csv")"
for shards in 2 8; do
  java -Xmx256m -XX:+UseSerialGC -cp "$cp" org.cloudtalk.solr.bench.AddedLatency "$shards" "$requests" "$csv"
done
