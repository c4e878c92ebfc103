# Sourced by the bin/ scripts: runs a main class of one module with its jar and target/lib/*.
# Works from any current directory once the README's build command has run.
TRIBUTARY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# run_java <module> <main class> [args...]
run_java() {
  local module="$1" main="$2"
  shift 2
  local target="$TRIBUTARY_HOME/$module/target"
  local jar
  jar="$(ls "$target/$module"-*.jar 2>/dev/null | grep -Ev -- '-(job|tests|sources|javadoc)\.jar$' | head -n 1 || true)"
  if [ -z "$jar" ] || [ ! -d "$target/lib" ]; then
    echo "$module is not built: run 'mvn -B -DskipTests package' in $TRIBUTARY_HOME first" >&2
    exit 2
  fi
  local log_config="$TRIBUTARY_HOME/config/log4j.properties"
  exec "${JAVA:-java}" ${TRIBUTARY_JVM_OPTS:-} -Dlog4j.configuration="file:$log_config" \
    -cp "$jar:$target/lib/*" "$main" "$@"
}
