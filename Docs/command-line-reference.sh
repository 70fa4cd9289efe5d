#!/usr/bin/env bash
# Writes Docs/Guides.docc/CommandLineReference.md from the tool's own help: one section per
# command and subcommand, each `remodel help COMMAND` as the tool prints it. A test
# (CommandLineReferenceTests) fails when the article differs from what this writes.
#
# Usage: Docs/command-line-reference.sh [REMODEL]   (default: the debug build, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
    remodel=$1
else
    swift build --product remodel >/dev/null
    remodel=$(swift build --show-bin-path)/remodel
fi

# The subcommands `remodel help WORDS` lists, one per line.
subcommands() {
    "$remodel" help "$@" | sed -n '/^SUBCOMMANDS:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'
}
# WORDS and every command below it, depth first.
walk() {
    echo "$*"
    local sub
    for sub in $(subcommands "$@"); do walk "$@" "$sub"; done
}

article=Docs/Guides.docc/CommandLineReference.md
{
    cat <<'HEADER'
# Command-line reference

Every `remodel` command, its arguments, options and exit status, as `remodel help` prints them.

## Overview

`--schemas` defaults to `Schemas`; `--migrations` to the `Migrations` folder beside the
schemas (so `--schemas other/Schemas` reads `other/Migrations`, never the working directory's
`Migrations/`). Every command has `--help` (also `remodel help COMMAND`); `remodel --version`
prints the version. Exit status: 0 success, 1 the input is wrong (invalid schema, a history
that cannot run or a schema edited without a new version, out-of-date output, failed
migration — nothing changed), 64 usage error. Diagnostics and progress go to stderr, results
to stdout; `import`, `export` and `migrate` show a progress bar on a terminal, plain lines
otherwise, nothing with `--quiet`.

In an app's package, `swift package remodel COMMAND` runs `validate`, `check`, `diff`,
`diagram`, `generate`, `migration`, `test` and `json-schema` on the package's own `Schemas/` and `Migrations/`
without installing the tool (see <doc:CheckInCI>).

This page is written by `Docs/command-line-reference.sh` from the tool's help.
HEADER
    walk | while read -r words; do
        printf '\n## remodel%s\n\n```\n' "${words:+ $words}"
        # shellcheck disable=SC2086 # the words are command names, split on purpose
        "$remodel" help $words
        printf '```\n'
    done
} >"$article"
echo "wrote $article"
