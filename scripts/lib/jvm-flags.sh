# Sourced by scripts/*: the JVM flags every JVM running xferbench code needs. The list is
# native/src/main/java/io/xferbench/nativeio/JvmFlags.java; this is its copy for bash, held to it by JvmFlagsTest.
# Needs scripts/lib/java.sh sourced first.

xferbench_jvm_flags=(--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --enable-native-access=ALL-UNNAMED)

# For a JVM that runs JMH: JMH 1.37 uses sun.misc.Unsafe, which JDK 24+ warns about in every JVM (JMH forks inherit
# the host's flags); older JDKs refuse the flag.
xferbench_jmh_jvm_flags=("${xferbench_jvm_flags[@]}")
if [ "$(xferbench_java_feature "$JAVA")" -ge 24 ]; then
  xferbench_jmh_jvm_flags+=(--sun-misc-unsafe-memory-access=allow)
fi
