# Shared by the launchers in bin/: locate the tree, build what is missing, and run a main class from it.
# Sourced, not executed.

CLOUDTALK_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# needs_build MODULE ARTIFACT: whether MODULE must be built before ARTIFACT is used: it is missing, or a pom.xml or
# main source file of the tree is newer than the last build — this script's (mark_built) or Maven's that made
# ARTIFACT, whichever is newer. A tree updated by git pull rebuilds; an unchanged one starts at once.
needs_build() {
  local module="$1" artifact="$2"
  local stamp="$CLOUDTALK_HOME/$module/target/.built-by-bin" built="$2"
  [ -f "$stamp" ] && [ "$stamp" -nt "$artifact" ] && built="$stamp"
  [ ! -d "$CLOUDTALK_HOME/$module/target/classes" ] || [ ! -e "$artifact" ] \
    || [ -n "$(cd "$CLOUDTALK_HOME" && find . \( -path ./.git -o -name target \) -prune -o \
      \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$built" -print -quit)" ]
}

mark_built() {
  touch "$CLOUDTALK_HOME/$1/target/.built-by-bin"
}

# ensure_built MODULE [ARTIFACT]: build MODULE (and what it needs) when needs_build says so; ARTIFACT defaults to the
# module's target/lib, rebuilt from scratch so that a jar the module no longer needs leaves the class path.
ensure_built() {
  local module="$1" artifact="${2:-$CLOUDTALK_HOME/$1/target/lib}"
  needs_build "$module" "$artifact" || return 0
  # Launchers started together (three daemons in the background) build one at a time: two builds of one tree at once
  # left half-written classes for the others to start from. Whoever waited finds the build done.
  mkdir -p "$CLOUDTALK_HOME/target"
  {
    flock 9
    if needs_build "$module" "$artifact"; then
      echo "cloudtalk: building $module..." >&2
      [ -d "$artifact" ] && rm -rf "$artifact"
      (cd "$CLOUDTALK_HOME" && mvn -B -q -ntp -DskipTests -Dspotless.skip=true -pl "$module" -am package) >&2 \
        || { echo "cloudtalk: build of $module failed" >&2; exit 70; }
      mark_built "$module"
    fi
  } 9>"$CLOUDTALK_HOME/target/.build.lock"
}

# Logging: $CLOUDTALK_CONF_DIR/simplelogger.properties (default conf/) configures the long-running services;
# CLOUDTALK_LOG_LEVEL (error, warn, info, debug, trace) overrides its default level for one run.
CLOUDTALK_CONF_DIR="${CLOUDTALK_CONF_DIR:-$CLOUDTALK_HOME/conf}"

# run_main MODULE CLASS ARGS...: run CLASS from MODULE's build with a bounded heap. The configuration directory
# comes first on the classpath, so its simplelogger.properties applies.
run_main() {
  local module="$1" class="$2"
  shift 2
  ensure_built "$module"
  local log_level=()
  [ -n "${CLOUDTALK_LOG_LEVEL:-}" ] && log_level=(-Dorg.slf4j.simpleLogger.defaultLogLevel="$CLOUDTALK_LOG_LEVEL")
  exec java ${CLOUDTALK_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1} "${log_level[@]}" \
    -cp "$CLOUDTALK_CONF_DIR:$CLOUDTALK_HOME/$module/target/classes:$CLOUDTALK_HOME/$module/target/lib/*" "$class" "$@"
}

# run_tool MODULE CLASS ARGS...: run_main for a short command whose output is its answer: warnings only, unless
# CLOUDTALK_LOG_LEVEL says otherwise.
run_tool() {
  CLOUDTALK_LOG_LEVEL="${CLOUDTALK_LOG_LEVEL:-warn}" run_main "$@"
}
