#!/usr/bin/env bash
# Builds the reference documentation with the toolchain's own DocC, and fails on any warning.
#
# Usage: Docs/build.sh [--output DIR] [--scratch-path DIR]
#
#   --output DIR        where the documentation goes (default: .build/docs)
#   --scratch-path DIR  the build folder of the symbol graphs, apart from other builds so that
#                       neither rebuilds the other (default: .build/docs-build)
#   (relative folders are taken from the repository's root, where the script runs)
#
# What it does:
#   1. builds RemodelStore, RemodelMigrate and RemodelExample (whose models the build plugin
#      generates from Schemas/) with `swift build`, the compiler writing each module's symbol
#      graph (-emit-symbol-graph): RemodelStore's includes RemodelLayout, which it re-exports,
#      and RemodelMigrate's RemodelPlanning;
#   2. converts each catalog with `docc convert --warnings-as-errors`, a library's after those
#      its articles link to (links into another archive start with a slash:
#      ``/RemodelStore/OpenOptions``):
#        Sources/RemodelStore/RemodelStore.docc      the store
#        Sources/RemodelMigrate/RemodelMigrate.docc  in-app migrations
#        Sources/RemodelExample/RemodelExample.docc  the generated API, on the example's models
#        Docs/Guides.docc                            the manual: guides and reference articles
#   3. merges the four archives into DIR/Remodel.doccarchive (`docc merge`), a static site.
#
# Exit status: 0 built without warnings; 1 the build or DocC failed or warned; 64 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
output=.build/docs
scratch=.build/docs-build
while [ $# -gt 0 ]; do
    case "$1" in
        --output) [ $# -ge 2 ] || { echo "Error: --output needs a folder" >&2; exit 64; }; output=$2; shift 2 ;;
        --scratch-path) [ $# -ge 2 ] || { echo "Error: --scratch-path needs a folder" >&2; exit 64; }; scratch=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "Error: unknown argument '$1' (usage: Docs/build.sh [--output DIR] [--scratch-path DIR]; --help says more)" >&2; exit 64 ;;
    esac
done
# The output folder, resolved (whatever spelling names it), must not be the repository or in
# its sources: only .build/ and places outside the repository are safe to fill.
root=$(pwd -P)
resolved=$(realpath -m -- "$output")
case "$resolved" in
    "$root" | "$root"/Sources | "$root"/Sources/* | "$root"/Docs | "$root"/Docs/* | "$root"/Tests | "$root"/Tests/* | \
        "$root"/Schemas | "$root"/Schemas/* | "$root"/Migrations | "$root"/Migrations/* | "$root"/Examples | "$root"/Examples/*)
        echo "Error: --output $output is in the source tree ($resolved); choose a folder under .build/ or outside the repository" >&2
        exit 64 ;;
esac

started=$(date +%s)
graphs=$scratch/symbol-graphs
mkdir -p "$graphs" "$output"
echo "== symbol graphs (swift build --scratch-path $scratch)"
for target in RemodelExample RemodelMigrate RemodelTesting; do
    if ! swift build --scratch-path "$scratch" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >"$scratch/build-$target.log" 2>&1; then
        cat "$scratch/build-$target.log" >&2
        echo "Error: building $target for its symbol graph failed (above)" >&2
        exit 1
    fi
done

# One folder per module: its own graph and its extensions of other modules' types
# (RemodelStore@Swift.symbols.json: the Swift types it makes storable).
module_graphs() {
    local module=$1 folder=$scratch/symbol-graphs-by-module/$1
    rm -rf "$folder" && mkdir -p "$folder"
    [ -f "$graphs/$module.symbols.json" ] || { echo "Error: no symbol graph for $module in $graphs (the compiler writes it only when it compiles the module): remove $scratch and run again" >&2; exit 1; }
    cp "$graphs/$module.symbols.json" "$folder/"
    find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$folder/" \;
    echo "$folder"
}

# convert NAME CATALOG [--additional-symbol-graph-dir DIR] [--dependency ARCHIVE…]
convert() {
    local name=$1 catalog=$2 log=$scratch/docc-$1.log
    shift 2
    echo "== $name ($catalog)"
    rm -rf "$output/$name.doccarchive"
    if ! docc convert "$catalog" "$@" \
        --fallback-display-name "$name" --fallback-bundle-identifier "remodel.$name" \
        --enable-experimental-external-link-support \
        --output-path "$output/$name.doccarchive" --warnings-as-errors >"$log" 2>&1 \
        || grep -q "warning:" "$log"; then
        cat "$log" >&2
        echo "Error: DocC failed or warned on $catalog (above): fix the catalog or the doc comments it names" >&2
        exit 1
    fi
}

store_graphs=$(module_graphs RemodelStore)
migrate_graphs=$(module_graphs RemodelMigrate)
example_graphs=$(module_graphs RemodelExample)
testing_graphs=$(module_graphs RemodelTesting)
convert RemodelStore Sources/RemodelStore/RemodelStore.docc --additional-symbol-graph-dir "$store_graphs"
convert RemodelMigrate Sources/RemodelMigrate/RemodelMigrate.docc --additional-symbol-graph-dir "$migrate_graphs" \
    --dependency "$output/RemodelStore.doccarchive"
convert RemodelExample Sources/RemodelExample/RemodelExample.docc --additional-symbol-graph-dir "$example_graphs" \
    --dependency "$output/RemodelStore.doccarchive" --dependency "$output/RemodelMigrate.doccarchive"
convert RemodelTesting Sources/RemodelTesting/RemodelTesting.docc --additional-symbol-graph-dir "$testing_graphs" \
    --dependency "$output/RemodelStore.doccarchive" --dependency "$output/RemodelMigrate.doccarchive"
convert Guides Docs/Guides.docc \
    --dependency "$output/RemodelStore.doccarchive" --dependency "$output/RemodelMigrate.doccarchive" \
    --dependency "$output/RemodelExample.doccarchive" --dependency "$output/RemodelTesting.doccarchive"

echo "== merge"
rm -rf "$output/Remodel.doccarchive"
docc merge "$output/Guides.doccarchive" "$output/RemodelStore.doccarchive" "$output/RemodelMigrate.doccarchive" \
    "$output/RemodelExample.doccarchive" "$output/RemodelTesting.doccarchive" --synthesized-landing-page-name Remodel --output-path "$output/Remodel.doccarchive" >"$scratch/docc-merge.log" 2>&1 \
    || { cat "$scratch/docc-merge.log" >&2; echo "Error: docc merge failed (above)" >&2; exit 1; }

echo "documentation built without warnings in $(($(date +%s) - started)) s: $output/Remodel.doccarchive"
echo "view it with: python3 -m http.server --directory $output/Remodel.doccarchive 8000, then http://localhost:8000/documentation/"
