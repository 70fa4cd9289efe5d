#!/usr/bin/env bash
# build.sh -- build grdb-observe-benchmark (Sources/ next to this script) in release mode
# against GRDB, exported from a git directory of groue/GRDB.swift.
#
# Usage:  GRDB_GIT=<git dir of groue/GRDB.swift> bash build.sh [BUILD_ROOT]
#
# Variables (argument / environment; defaults in brackets):
#   GRDB_GIT      a git directory holding GRDB's history (a bare mirror is fine). Required.
#   GRDB_REV      the revision to build against [HEAD]
#   BUILD_ROOT    $1, else $GRDB_BENCH_DIR [a new temporary folder, mktemp -d]
#                 Everything is written below it:
#                   GRDB/         GRDB's package, exported from GRDB_REV (Package.swift, GRDB/,
#                                 Sources/ only: tests and docs are not needed), linux.patch applied
#                   GRDB.commit   the commit GRDB/ was exported from (a rerun with the same
#                                 BUILD_ROOT and commit reuses the export and the build)
#                   bench/        copy of this package (Package.swift, Sources/)
#                   bench/.build  SwiftPM's build folder
#   JOBS          parallel build jobs [2]
#
# All output goes to stderr except the last line, on stdout: the path of the built executable.
# The executable is left in BUILD_ROOT (not removed); pass it to
# `remodel-benchmarks observe --grdb <path>`, or run it directly.
#
# linux.patch: GRDB compiles its WAL snapshot code (sqlite3_snapshot_get/open/cmp/free) whenever
# it uses the system SQLite, assuming SQLITE_ENABLE_SNAPSHOT, which Apple's SQLite has and
# Linux distributions' libsqlite3 does not (GRDB issue #1537): GRDB's library compiles, but any
# executable linking it fails with "undefined reference to sqlite3_snapshot_*". The patch adds
# `&& !os(Linux)` to the six `#if` guards of that code, so GRDB falls back to the code it uses
# with custom SQLite builds without snapshots. It is applied only on Linux, and only when the
# exported sources still have an unguarded condition.
# Takes ~2-3 min on a 2-core machine (GRDB's compile dominates).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${GRDB_GIT:?set GRDB_GIT to a git dir of groue/GRDB.swift (e.g. a mirror: git clone --mirror https://github.com/groue/GRDB.swift)}"
GRDB_REV="${GRDB_REV:-HEAD}"
JOBS="${JOBS:-2}"
BUILD_ROOT="${1:-${GRDB_BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/grdb-observe.XXXXXX")}}"
mkdir -p "$BUILD_ROOT"
BUILD_ROOT="$(cd "$BUILD_ROOT" && pwd)"
log() { echo "$@" >&2; }

commit="$(git --git-dir="$GRDB_GIT" rev-parse --verify "$GRDB_REV^{commit}")"
log "BUILD_ROOT=$BUILD_ROOT  GRDB commit=$commit  ($(git --git-dir="$GRDB_GIT" describe --tags "$commit" 2>/dev/null || echo 'no tag'))"

# 1. GRDB's sources: only what its library needs. (Some mirrors lack blobs elsewhere in the
#    tree, e.g. the test fixture Tests/Performance/.../ProfilingDatabase.sqlite; exporting these
#    paths does not need them, though git may still print "error: invalid object ..." for it
#    while exiting 0.) SwiftPM names a path dependency after its folder, so the folder is GRDB
#    (identity "grdb").
src="$BUILD_ROOT/GRDB"
if [ "$(cat "$BUILD_ROOT/GRDB.commit" 2>/dev/null)" != "$commit" ]; then
    rm -rf "$src" "$BUILD_ROOT/GRDB.commit"
    mkdir -p "$src"
    git --git-dir="$GRDB_GIT" archive --format=tar "$commit" -- Package.swift GRDB Sources | tar -x -C "$src"

    # 2. linux.patch, only where needed (see above).
    guard='#if SQLITE_ENABLE_SNAPSHOT || (!GRDBCUSTOMSQLITE && !GRDBCIPHER)'
    if [ "$(uname -s)" = Linux ] && grep -rqxF "$guard" "$src/GRDB"; then
        if ! (cd "$src" && git apply --check "$HERE/linux.patch"); then
            log "linux.patch does not apply to GRDB $commit; the unguarded snapshot code is in:"
            grep -rlxF "$guard" "$src/GRDB" >&2
            exit 1
        fi
        (cd "$src" && git apply "$HERE/linux.patch")
        log "applied linux.patch"
    else
        log "linux.patch not needed"
    fi
    echo "$commit" > "$BUILD_ROOT/GRDB.commit"
fi

# 3. The benchmark package, copied so that nothing is written into the repository.
mkdir -p "$BUILD_ROOT/bench"
rm -rf "$BUILD_ROOT/bench/Sources"
cp "$HERE/Package.swift" "$BUILD_ROOT/bench/"
cp -R "$HERE/Sources" "$BUILD_ROOT/bench/"

export GRDB_PATH="$src"
nice -n 19 swift build -c release --package-path "$BUILD_ROOT/bench" -j "$JOBS" >&2
bin="$(swift build -c release --package-path "$BUILD_ROOT/bench" --show-bin-path)/grdb-observe-benchmark"
test -x "$bin"
echo "$bin"
