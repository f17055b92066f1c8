# Shared by the launchers in bin/: locate the tree, build what is missing, and run a main class from it.
# Sourced, not executed.

CLOUDTALK_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# ensure_built MODULE: build MODULE (and what it needs) unless its classes and runtime libs are there.
ensure_built() {
  local module="$1"
  if [ ! -d "$CLOUDTALK_HOME/$module/target/classes" ] || [ ! -d "$CLOUDTALK_HOME/$module/target/lib" ]; then
    echo "cloudtalk: building $module (first run)..." >&2
    (cd "$CLOUDTALK_HOME" && mvn -B -q -ntp -DskipTests -Dspotless.skip=true -pl "$module" -am package) >&2 \
      || { echo "cloudtalk: build of $module failed" >&2; exit 70; }
  fi
}

# run_main MODULE CLASS ARGS...: run CLASS from MODULE's build with a bounded heap.
run_main() {
  local module="$1" class="$2"
  shift 2
  ensure_built "$module"
  exec java ${CLOUDTALK_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1} \
    -Dorg.slf4j.simpleLogger.defaultLogLevel="${CLOUDTALK_LOG_LEVEL:-warn}" \
    -cp "$CLOUDTALK_HOME/$module/target/classes:$CLOUDTALK_HOME/$module/target/lib/*" "$class" "$@"
}
