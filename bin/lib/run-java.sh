# Sourced by the bin/ scripts: runs a main class of one module with its jar and target/lib/*.
# Works from any current directory once the README's build command has run.
TRIBUTARY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# module_jar <module> <suffix>: the module's built jar ending in <suffix>.jar ("" = the plain jar).
module_jar() {
  local module="$1" suffix="$2" target="$TRIBUTARY_HOME/$1/target" jar
  if [ -z "$suffix" ]; then
    jar="$(ls "$target/$module"-*.jar 2>/dev/null | grep -Ev -- '-(job|tests|sources|javadoc)\.jar$' | head -n 1 || true)"
  else
    jar="$(ls "$target/$module"-*"$suffix".jar 2>/dev/null | head -n 1 || true)"
  fi
  if [ -z "$jar" ] || [ ! -d "$target/lib" ]; then
    echo "$module is not built: run 'mvn -B -DskipTests package' in $TRIBUTARY_HOME first" >&2
    exit 2
  fi
  echo "$jar"
}

# run_java <module> <main class> [args...]
run_java() {
  local module="$1" main="$2"
  shift 2
  local jar
  jar="$(module_jar "$module" "")" || exit 2
  exec "${JAVA:-java}" ${TRIBUTARY_JVM_OPTS:-} -Dlog4j.configuration="file:$TRIBUTARY_HOME/config/log4j.properties" \
    -cp "$jar:$TRIBUTARY_HOME/$module/target/lib/*" "$main" "$@"
}

# run_job_jar <module> <hadoop conf dir> [args...]: what `hadoop jar <module's job jar> args` does,
# with the module's Hadoop client and <hadoop conf dir>'s *-site.xml first on the class path. The
# job jar, which bundles every library Hadoop lacks under lib/, is what the cluster's tasks get.
run_job_jar() {
  local module="$1" conf_dir="$2"
  shift 2
  local jar
  jar="$(module_jar "$module" "-job")" || exit 2
  exec "${JAVA:-java}" ${TRIBUTARY_JVM_OPTS:-} -Dlog4j.configuration="file:$TRIBUTARY_HOME/config/log4j.properties" \
    -cp "$conf_dir:$TRIBUTARY_HOME/$module/target/lib/*" org.apache.hadoop.util.RunJar "$jar" "$@"
}
