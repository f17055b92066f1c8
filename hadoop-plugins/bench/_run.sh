# Shared by the benchmark scripts here: run_bench HEAP CLASS ARGS... builds hadoop-plugins' test classes and runs
# CLASS from them with a bounded heap. Sourced, not executed; the caller is at the tree's root.

run_bench() {
  local heap="$1" class="$2"
  shift 2
  # One reactor run: the sibling modules resolve to their target/classes, so nothing needs to be installed first.
  # Each module writes the file; hadoop-plugins comes last and leaves its own classpath there.
  mvn -B -ntp -q -pl hadoop-plugins -am test-compile dependency:build-classpath -Dspotless.check.skip \
    -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/hadoop-plugins/target/bench.classpath"
  local cp="hadoop-plugins/target/test-classes:hadoop-plugins/target/classes:$(cat hadoop-plugins/target/bench.classpath)"
  exec java -Xmx"$heap" -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=error \
    --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    -cp "$cp" "$class" "$@"
}
