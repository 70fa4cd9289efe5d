#!/usr/bin/env bash
# Clean-build wall times, from a fresh copy of the repository in a temporary folder (nothing
# is reused: each figure has its own empty scratch folder):
#   (a) swift build --target RemodelExample    the package's example target, which uses the build plugin
#   (b) the outside package of IntegrationTests (depends on remodel by path, uses the plugin)
#   (c) swift run remodel validate              what the README's quick start does first
# and, for (a), how many modules were compiled for the host (the plugin's tool) and in all.
#
# Usage: Benchmarks/clean-build.sh [REVISION | --worktree]...
#   REVISION     a commit, branch or tag: measured on a clone checked out there
#   --worktree   the working tree as it is, uncommitted changes included (the default)
# Several arguments measure each in turn (e.g. `HEAD --worktree` for before/after); run it on
# a quiet machine: the figures are wall times.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/remodel-clean-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- --worktree

now() { date +%s.%N; }
# Runs the command quietly (its log kept for a failure) and prints its wall time in seconds.
timed() {
    local log=$1; shift
    local start end
    start=$(now)
    if ! "$@" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "FAIL: $*" >&2
        exit 1
    fi
    end=$(now)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }'
}
# The modules compiled into `scratch`: for the host (`*-tool.build`, the plugin's tool) and in all.
modules() {
    local scratch=$1 host=0 all=0 folder
    shopt -s nullglob
    for folder in "$scratch"/debug/*.build; do
        [ -n "$(find "$folder" -name '*.o' -print -quit)" ] || continue
        all=$((all + 1))
        case $folder in *-tool.build) host=$((host + 1)) ;; esac
    done
    echo "$host host / $all"
}

# A copy of the repository at `revision` (or the working tree) in `dest`, without build folders.
copy() {
    local revision=$1 dest=$2
    if [ "$revision" = --worktree ]; then
        mkdir -p "$dest"
        # Tracked and untracked files that git does not ignore, as they are on disk (a tracked
        # file deleted in the working tree is left out), without build folders (.build-*).
        (cd "$repo" && git ls-files -z --cached --others --exclude-standard \
            | while IFS= read -r -d '' file; do
                case $file in .build*/*) continue ;; esac
                if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
            done \
            | tar --null -T - -cf -) | tar -xf - -C "$dest"
    else
        git clone --quiet --no-checkout "$repo" "$dest"
        git -C "$dest" checkout --quiet --detach "$revision"
    fi
}

printf '%-14s %12s %22s %14s %22s\n' revision "(a) example" "(a) modules compiled" "(b) outside" "(c) run validate"
for revision in "$@"; do
    [ "$revision" = --worktree ] || git -C "$repo" rev-parse --verify --quiet "$revision^{commit}" >/dev/null || { echo "FAIL: unknown revision '$revision'" >&2; exit 1; }
    run=$work/$(printf '%s' "$revision" | tr -c 'A-Za-z0-9._-' '_')
    clone=$run/remodel
    copy "$revision" "$clone"
    label=$revision
    [ "$revision" = --worktree ] || label=$(git -C "$clone" rev-parse --short HEAD)

    a=$(cd "$clone" && timed "$run/a.log" swift build --target RemodelExample --scratch-path "$run/a")
    compiled=$(modules "$run/a")

    # As IntegrationTests/run.sh does: a copy of the outside package, pointed at this clone.
    pkg=$run/OutsidePackage
    cp -R "$clone/IntegrationTests/OutsidePackage" "$pkg"
    sed -i.bak "s|path: \"../..\"|path: \"$clone\"|" "$pkg/Package.swift" && rm -f "$pkg/Package.swift.bak"
    grep -q "path: \"$clone\"" "$pkg/Package.swift" || { echo "FAIL: could not point the outside package at $clone" >&2; exit 1; }
    b=$(timed "$run/b.log" swift build --package-path "$pkg" --scratch-path "$run/b")

    c=$(cd "$clone" && timed "$run/c.log" swift run --scratch-path "$run/c" remodel validate)

    printf '%-14s %11ss %22s %13ss %21ss\n' "$label" "$a" "$compiled" "$b" "$c"
    rm -rf "$run"
done
