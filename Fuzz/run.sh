#!/usr/bin/env bash
# Fuzzes Remodel's readers: each target (yaml, migration, json) for SECONDS seconds.
# (Leak detection is off: Swift's lazily made globals live until exit and read as leaks.)
#
#   Fuzz/run.sh [SECONDS] [TARGET…]        default: 600 seconds, every target
#
# REMODEL_FUZZ_PARALLEL=1 runs the targets at the same time (one process each).
# With libFuzzer (the toolchain's -sanitize=fuzzer, with AddressSanitizer), coverage-guided;
# REMODEL_FUZZ_DRIVER=mutation (or a toolchain without libFuzzer) uses remodel-fuzz's own
# seeded mutation driver. Inputs that crash are kept in .build/fuzz-findings/TARGET/; add each
# to Tests/RemodelFuzzTests/Regressions/TARGET/ with its fix. Prints, per target, the inputs
# tried and the crashes found.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(yaml migration json)
findings=.build/fuzz-findings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

driver=${REMODEL_FUZZ_DRIVER:-libfuzzer}
if [ "$driver" = libfuzzer ]; then
    if swift build -c release --product remodel-fuzz --scratch-path .build/fuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DREMODEL_LIBFUZZER -Xswiftc -use-ld=lld >"$work/build.log" 2>&1; then
        binary=.build/fuzz/release/remodel-fuzz
    else
        tail -20 "$work/build.log" >&2
        echo "libFuzzer build failed; using the mutation driver" >&2
        driver=mutation
    fi
fi
if [ "$driver" = mutation ]; then
    swift build -c release --product remodel-fuzz >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; exit 1; }
    binary=.build/release/remodel-fuzz
fi

# A crash's backtrace and LeakSanitizer add nothing here: Swift's lazily made globals live
# until exit and read as leaks.
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0

fuzz_target() {
    local target=$1
    mkdir -p "$findings/$target" "$work/corpus-$target"
    cp Fuzz/corpus/"$target"/* "$work/corpus-$target/"
    local before after status done_runs left crash
    before=$(ls "$findings/$target" | wc -l)
    local log="$findings/$target.log"
    : >"$log"
    local end=$((SECONDS + seconds))
    local runs=0 crashes=0
    # libFuzzer stops at a crash: start it again, with what it learnt, until the time is up.
    while [ $SECONDS -lt $end ]; do
        left=$((end - SECONDS))
        if [ "$driver" = libfuzzer ]; then
            "$binary" "$target" -max_total_time="$left" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -max_len=65536 \
                -dict=Fuzz/remodel.dict -artifact_prefix="$findings/$target/" -print_final_stats=1 \
                "$work/corpus-$target" Fuzz/corpus/"$target" >>"$log" 2>&1
            status=$?
            done_runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
            runs=$((runs + ${done_runs:-0}))
            # Counted once: rename the marker so that the next round's figure is read fresh.
            sed -i 's/stat::number_of_executed_units/stat::counted_executed_units/' "$log"
        else
            crash="$findings/$target/crash-$(date +%s%N)"
            "$binary" "$target" --seconds "$left" --corpus Fuzz/corpus/"$target" --crash "$crash" >>"$log" 2>&1
            status=$?
            done_runs=$(grep -o '^remodel-fuzz [a-z]*: [0-9]* inputs' "$log" | tail -1 | grep -o '[0-9]* inputs' | grep -o '[0-9]*')
            [ $status -eq 0 ] && runs=$((runs + ${done_runs:-0}))
        fi
        [ $status -eq 0 ] && break
        crashes=$((crashes + 1))
        echo "$target: a crash (exit $status), kept in $findings/$target/; see $log" >&2
    done
    after=$(ls "$findings/$target" | wc -l)
    echo "$target: $runs inputs in $seconds s ($driver), $crashes crashes, $((after - before)) inputs kept in $findings/$target/" >"$work/summary-$target"
}

for target in "${targets[@]}"; do
    if [ "${REMODEL_FUZZ_PARALLEL:-0}" = 1 ]; then fuzz_target "$target" & else fuzz_target "$target"; fi
done
wait
for target in "${targets[@]}"; do cat "$work/summary-$target"; done
