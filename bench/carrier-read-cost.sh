#!/usr/bin/env bash
# Cost of the carrier read of each metrics poll (ThreadPoller -> VirtualThreadCarriers: a second
# getThreadInfo, of the ForkJoinPool workers at depth 1) beside the states read before it, on a
# JDK 21 JVM running 1,000 virtual threads a second with 50 and with 1,000 parked platform threads.
#   bench/carrier-read-cost.sh [READS] [REPS]   results to bench/results/carrier-read-cost.txt
#   JAVA21 (default .ci/jdks/jdk21/java-runtime/bin/java), JAVAC (a JDK 21+ javac; default Temurin 25)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
reads=${1:-300} reps=${2:-3}
java21=${JAVA21:-$root/.ci/jdks/jdk21/java-runtime/bin/java}
javac=${JAVAC:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/javac}
work=$(mktemp -d)
"$javac" --release 21 -d "$work" "$root/bench/carrier-read-cost/CarrierReadCost.java"
out="$root/bench/results/carrier-read-cost.txt"
{
  echo "# $(date -u +%FT%TZ) $("$java21" -version 2>&1 | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# rep platform_threads: medians of $reads reads, microseconds"
  for rep in $(seq "$reps"); do
    for platform in 50 1000; do
      echo "$rep $platform $("$java21" -cp "$work" CarrierReadCost "$platform" "$reads")"
    done
  done
} | tee "$out"
