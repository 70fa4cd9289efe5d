#!/usr/bin/env bash
# Integration test: an outside package that depends on remodel by path and lists RemodelPlugin.
#
# Works on a temporary copy of IntegrationTests/OutsidePackage (the checked-in copy is never
# modified) and checks that
#   1. it builds and its executable round-trips generated models through a store, and the
#      plugin's tool (remodel-generate) is built for the host without the command-line tool, the
#      store or migration execution;
#   2. a rebuild without changes does not run the generator again;
#   3. editing a schema file and rebuilding regenerates;
#   4. a schema error fails the build with the YAML file, line and column;
#   5. the generate-models command plugin writes per-type files, and --check agrees;
#   6. a history that cannot migrate fails the build at the schema line, as `validate` does;
#   7. the app's own remodel (RemodelTool) runs a custom step the plain tool refuses;
#   8. remodel-plugin.yaml with `realm: true` makes the plugin write the Realm file too (compiled
#      out without RealmSwift), and a wrong option fails the build naming the file and line;
#   9. the README's "Adopt it in an app", as written: every file it shows is written into a new
#      package (its URL dependency replaced by the path form the README gives), every command it
#      shows is run there in order, with the build plugin, `swift package remodel` (the command
#      plugin) and `swift run remodel`; each `# prints:` comment is checked, and the CI job's
#      `swift package remodel check --base` runs against the version before the change. The
#      first `swift package remodel check` of the clean package is timed, and its tool is built
#      without RemodelPostgres and the store commands;
#  10. the README's commands on the example (`<!-- readme-repo: run -->`), from this repository.
#
# Usage: IntegrationTests/run.sh            (REMODEL_INTEGRATION_SCRATCH=DIR to keep builds;
#        REMODEL_REPO_SCRATCH=DIR: the repository's own build folder for step 7, default .build)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/remodel-integration.XXXXXX")
scratch=${REMODEL_INTEGRATION_SCRATCH:-$work/build}
repo_scratch=${REMODEL_REPO_SCRATCH:-$repo/.build}
trap 'rm -rf "$work"' EXIT

pkg=$work/OutsidePackage
cp -R "$repo/IntegrationTests/OutsidePackage" "$pkg"
# The checked-in manifest depends on "../.." (the repository); the copy points there directly.
sed -i.bak "s|path: \"../..\"|path: \"$repo\"|" "$pkg/Package.swift" && rm -f "$pkg/Package.swift.bak"
grep -q "path: \"$repo\"" "$pkg/Package.swift" || { echo "FAIL: could not point the copy at $repo" >&2; exit 1; }

step() { printf '\n-- %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
build() { swift build --package-path "$pkg" --scratch-path "$scratch" "$@"; }
generated() { find "$scratch/plugins/outputs" -path '*Zoo*' -name RemodelModels.swift | head -n 1; }
mtime() { local f; f=$(generated); [ -n "$f" ] || fail "no generated RemodelModels.swift under $scratch/plugins/outputs"; date -r "$f" +%s.%N; }

step "1. build and run the outside package"
build 2>&1 | tail -n 3
output=$(swift run --package-path "$pkg" --scratch-path "$scratch" --skip-build Zoo)
echo "$output"
grep -q '^zoo: ok' <<<"$output" || fail "Zoo did not report success"
# SwiftPM 6 builds a plugin's tool and its modules for the host in NAME-tool.build folders.
if [ -d "$scratch/debug/remodel_generate-tool.build" ]; then
    for module in RemodelCommandLine RemodelCheck RemodelMigrate RemodelStore; do
        [ -z "$(find "$scratch/debug/$module-tool.build" -name '*.o' 2>/dev/null | head -n 1)" ] || fail "the plugin's tool was built with $module for the host"
    done
    echo "the plugin's tool was built for the host without RemodelCommandLine, RemodelCheck, RemodelMigrate and RemodelStore"
fi

step "2. rebuild without changes does not regenerate"
before=$(mtime)
sleep 1
build >/dev/null
after=$(mtime)
[ "$before" = "$after" ] || fail "the generated file was rewritten by a build with no changes ($before -> $after)"
echo "generated file untouched"

step "3. editing a schema file regenerates"
grep -q "nickname" "$(generated)" && fail "nickname already generated?"
sed -i.bak '/^      weightKg:/i\      nickname: { type: string, default: "Buddy" }' "$pkg/Schemas/Zoo.yaml" && rm -f "$pkg/Schemas/Zoo.yaml.bak"
grep -q nickname "$pkg/Schemas/Zoo.yaml" || fail "could not edit the schema"
build 2>&1 | tail -n 2
grep -q 'public var nickname: String' "$(generated)" || fail "the edit did not reach the generated code"
[ "$(mtime)" != "$after" ] || fail "the generated file was not rewritten"
swift run --package-path "$pkg" --scratch-path "$scratch" --skip-build Zoo | grep -q '^zoo: ok' || fail "Zoo fails after the edit"
echo "regenerated with the new property"

step "4. a schema error fails the build with the YAML location"
cp "$pkg/Schemas/Zoo.yaml" "$work/Zoo.yaml.good"
sed -i.bak 's|weightKg: { type: double|weightKg: { type: dubble|' "$pkg/Schemas/Zoo.yaml" && rm -f "$pkg/Schemas/Zoo.yaml.bak"
if build >"$work/broken.log" 2>&1; then cat "$work/broken.log"; fail "the build succeeded with a broken schema"; fi
grep -E 'Schemas/Zoo\.yaml:[0-9]+:[0-9]+: error: .*dubble' "$work/broken.log" || { cat "$work/broken.log"; fail "no file:line:col error for the broken schema"; }
cp "$work/Zoo.yaml.good" "$pkg/Schemas/Zoo.yaml"
build >/dev/null 2>&1 || fail "the build does not recover once the schema is fixed"
echo "build failed at the YAML location, and recovered"

step "5. the generate-models command plugin"
swift package --package-path "$pkg" --scratch-path "$scratch" --allow-writing-to-package-directory generate-models --target Zoo --output Generated
ls "$pkg/Generated"
[ -f "$pkg/Generated/Animal.swift" ] && [ -f "$pkg/Generated/Animal+RemodelStore.swift" ] && [ -f "$pkg/Generated/RemodelSchemaManifest.swift" ] || fail "per-type files missing"
swift package --package-path "$pkg" --scratch-path "$scratch" --allow-writing-to-package-directory generate-models --target Zoo --output Generated --check || fail "--check reports fresh output as out of date"
echo "// stale" >> "$pkg/Generated/Animal.swift"
if swift package --package-path "$pkg" --scratch-path "$scratch" --allow-writing-to-package-directory generate-models --target Zoo --output Generated --check >/dev/null 2>&1; then
    fail "--check accepted an edited generated file"
fi

step "6. a history that cannot migrate fails the build, at the schema line"
remodel=$scratch/debug/zoo-remodel
build --product zoo-remodel 2>&1 | tail -n 1
(cd "$pkg" && "$remodel" migration new initial >/dev/null)
sed -i.bak '/^      weightKg:/i\      chipNumber: string' "$pkg/Schemas/Zoo.yaml" && rm -f "$pkg/Schemas/Zoo.yaml.bak"
(cd "$pkg" && "$remodel" migration new chip-numbers >"$work/draft.log" 2>&1) || true
grep -q "Version 2 cannot run yet" "$work/draft.log" || { cat "$work/draft.log"; fail "migration new did not say the draft cannot run"; }
if build >"$work/history.log" 2>&1; then cat "$work/history.log"; fail "the build succeeded with a history that cannot migrate"; fi
grep -E "Schemas/Zoo\.yaml:[0-9]+:[0-9]+: error: migration 2: 'Animal.chipNumber' is new and required but has no default" "$work/history.log" \
    || { cat "$work/history.log"; fail "no file:line:col error for the history"; }
rm -rf "$pkg/Migrations"
cp "$work/Zoo.yaml.good" "$pkg/Schemas/Zoo.yaml"
build >/dev/null 2>&1 || fail "the build does not recover once the history is removed"
echo "build failed at the schema line, and recovered"

step "7. the app's own remodel runs its custom step"
project=$work/custom
mkdir -p "$project/Schemas"
cp "$pkg/Schemas/Zoo.yaml" "$project/Schemas/"
(cd "$project" && "$remodel" migration new initial >/dev/null && "$remodel" migration new title-case >/dev/null)
printf 'description: Animal names in Title Case\nsteps:\n  - custom: { name: titleCaseNames, type: Animal }\n' >"$project/Migrations/0002-title-case.yaml"
printf '{ "Animal": [ { "tag": "a1", "name": "pINGU" } ] }\n' >"$project/zoo.json"
(cd "$project" && "$remodel" import --store zoo.sqlite --version 1 zoo.json >/dev/null)
plain=$(swift build --package-path "$repo" --scratch-path "$repo_scratch" --show-bin-path)/remodel
# Always built (a no-op when up to date): a stale binary would test old code.
swift build --package-path "$repo" --scratch-path "$repo_scratch" --product remodel >/dev/null
if (cd "$project" && "$plain" migrate --store zoo.sqlite >"$work/plain.log" 2>&1); then fail "the plain remodel ran a custom step it does not have"; fi
grep -q "migration-custom-step-unavailable" "$work/plain.log" || { cat "$work/plain.log"; fail "the plain remodel did not name the missing custom step"; }
(cd "$project" && "$remodel" migrate --store zoo.sqlite --no-backup >"$work/custom.log" 2>&1) || { cat "$work/custom.log"; fail "zoo-remodel could not migrate"; }
(cd "$project" && "$remodel" export --store zoo.sqlite) | grep -q '"name": "Pingu"' || fail "the custom step did not run"
echo "zoo-remodel ran titleCaseNames; the plain remodel refused it"

step "8. remodel-plugin.yaml: realm: true"
printf '# Remodel build plugin options\nrealm: true\n' >"$pkg/Sources/Zoo/remodel-plugin.yaml"
build 2>&1 | tail -n 2
realmfile=$(find "$scratch/plugins/outputs" -path '*Zoo*' -name RemodelRealmBridges.swift | head -n 1)
[ -n "$realmfile" ] || fail "no RemodelRealmBridges.swift with realm: true"
head -n 8 "$realmfile" | grep -q '^#if canImport(RealmSwift)$' || fail "the Realm file is not behind #if canImport(RealmSwift)"
grep -q 'public final class RealmAnimal: Object' "$realmfile" || fail "no Realm class in $realmfile"
swift run --package-path "$pkg" --scratch-path "$scratch" --skip-build Zoo | grep -q '^zoo: ok' || fail "Zoo fails with realm: true"
printf 'realm: true\nrealmClassNames: "{name}Object"\n' >"$pkg/Sources/Zoo/remodel-plugin.yaml"
build 2>&1 | tail -n 1
grep -q 'return "AnimalObject"' "$realmfile" || fail "realmClassNames did not reach the Realm file"
printf 'realm: yes\n' >"$pkg/Sources/Zoo/remodel-plugin.yaml"
if build >"$work/options.log" 2>&1; then cat "$work/options.log"; fail "the build succeeded with a wrong option"; fi
grep -q "remodel-plugin.yaml:1:8: error: 'realm' in remodel-plugin.yaml must be true or false, found 'yes'" "$work/options.log" || { cat "$work/options.log"; fail "no located error for the wrong option"; }
printf 'realm: false\n' >"$pkg/Sources/Zoo/remodel-plugin.yaml"
build >/dev/null 2>&1 || fail "the build fails with realm: false"
grep -q 'The Realm side is off' "$realmfile" || fail "realm: false did not turn the Realm side off"
rm "$pkg/Sources/Zoo/remodel-plugin.yaml"
build >/dev/null 2>&1 || fail "the build does not recover once the options file is removed"
echo "realm: true generated the Realm side; a wrong option failed the build at its line"

step "9. the README's app, as written"
app=$work/readme-app
mkdir -p "$app"
# Each block after a `<!-- readme-app: FILE -->` line is written to FILE; each after
# `<!-- readme-app: run -->` is run line by line, in order. The awk script turns them into calls.
awk '
    /^<!-- readme-app: .* -->$/ { target = $3; next }
    /^```/ && target != "" && !inside { inside = 1; if (target != "run") printf "readme_file %s <<'"'"'README_EOF'"'"'\n", target; next }
    /^```$/ && inside { inside = 0; if (target != "run") print "README_EOF"; target = ""; next }
    inside && target == "run" { gsub(/\047/, "\047\\\047\047"); printf "readme_run '"'"'%s'"'"'\n", $0; next }
    inside { print }
' "$repo/README.md" >"$work/readme-app.sh"
marked=$(grep -c '^<!-- readme-app: ' "$repo/README.md")
# Every Swift and YAML block of the README is one of the app's files.
[ "$(grep -c '^```\(swift\|yaml\)$' "$repo/README.md")" = "$(grep -c '^<!-- readme-app: [^r]' "$repo/README.md")" ] || fail "a Swift or YAML block of the README is not marked as a file of its app"
[ "$marked" -ge 10 ] || fail "the README's app has $marked blocks; expected the files and commands of 'Adopt it in an app'"
branched=""
readme_file() {
    local file=$app/$1
    # The first change to a file already written starts the pull request the CI job judges.
    if [ -e "$file" ] && [ -z "$branched" ]; then
        git -C "$app" add -A && git -C "$app" commit -qm "version 1" && git -C "$app" checkout -qb change
        branched=1
    fi
    local content
    content=$(cat)
    # A migration file the README shows in place of a draft: each of its steps was in the draft,
    # commented out, as the question the README says it answers.
    case "$1" in Migrations/*.yaml)
        [ -f "$file" ] || fail "the README shows $1 before a command drafted it"
        local stepline
        while IFS= read -r stepline; do
            case "$stepline" in "  - "*)
                grep -qxF "  # ${stepline#  }" "$file" || { cat "$file"; fail "the draft of $1 does not offer '${stepline#  }'"; } ;;
            esac
        done <<<"$content"
        ;;
    esac
    local existed=""
    [ -e "$file" ] && existed=1
    mkdir -p "$(dirname "$file")"
    printf '%s\n' "$content" >"$file"
    # A changed schema stops the build until a new version records it, as the README says.
    case "$1" in Schemas/*)
        if [ -n "$existed" ]; then
            if (cd "$app" && swift build) >"$work/changed-schema.log" 2>&1; then cat "$work/changed-schema.log"; fail "the app built with a schema no version records"; fi
            grep -q "Schemas/Reminders.yaml:[0-9]*:[0-9]*: error: .*\[schema-not-snapshotted\]" "$work/changed-schema.log" \
                || { cat "$work/changed-schema.log"; fail "the changed schema did not fail the build with schema-not-snapshotted"; }
            grep -q "schema-not-snapshotted" "$repo/README.md" || fail "the README no longer says the build fails until version 2"
            echo "the changed schema fails the build until a version records it"
        fi
        ;;
    esac
    if [ "$1" = Package.swift ]; then
        # The README's path form, pointing at this repository.
        grep -q '^        .package(url: ".*remodel.git", from: ".*")$' "$file" || fail "the README's Package.swift has no .package(url:from:) line for remodel"
        sed -i.bak "s|^        .package(url: \".*remodel.git\", from: \".*\")$|        .package(name: \"remodel\", path: \"$repo\")|" "$file" && rm -f "$file.bak"
        grep -q '.package(name: "remodel", path: "../path/to/remodel")' "$repo/README.md" || fail "the README no longer gives the path form the test uses"
    fi
    if [ "$1" = .github/workflows/remodel.yml ]; then
        local command
        command=$(sed -n 's/^      - run: \(swift package remodel check .*\)$/\1/p' "$file")
        [ -n "$command" ] || fail "the README's CI job does not run swift package remodel check"
        command=${command//'origin/${{ github.base_ref }}'/main}
        echo "+ $command"
        (cd "$app" && eval "$command") >"$work/ci-job.log" 2>&1 || { cat "$work/ci-job.log"; fail "the README's CI job fails on the README's change"; }
        # It judged version 2 against main: without its acceptance, the same job fails on it.
        local migration=$app/Migrations/0002-rename-done.yaml
        cp "$migration" "$work/accepted.yaml"
        sed -i.bak '/^accept:/,$d' "$migration" && rm -f "$migration.bak"
        (cd "$app" && swift package --allow-writing-to-package-directory remodel migration hash >/dev/null 2>&1)
        if (cd "$app" && eval "$command") >"$work/ci-job.log" 2>&1; then cat "$work/ci-job.log"; fail "the CI job passed a breaking change nobody accepted"; fi
        grep -q '^::error file=Migrations/0002-rename-done.yaml,.*title=breaking-api-change::' "$work/ci-job.log" || { cat "$work/ci-job.log"; fail "the CI job did not annotate the unaccepted change"; }
        cp "$work/accepted.yaml" "$migration"
        (cd "$app" && swift package --allow-writing-to-package-directory remodel migration hash >/dev/null 2>&1)
        echo "the CI job passes the accepted change and annotates it when unaccepted"
    fi
}
readme_run() {
    local line=$1 command expected
    command=${line%%#*}
    command=${command%"${command##*[![:space:]]}"}
    [ -n "$command" ] || return 0
    expected=""
    case "$line" in *"# prints: "*) expected=${line##*# prints: } ;; esac
    echo "+ $command"
    local started=$SECONDS
    if ! (cd "$app" && eval "$command") >"$work/readme-step.log" 2>&1; then
        cat "$work/readme-step.log"
        fail "the README's command failed: $command"
    fi
    tail -n 3 "$work/readme-step.log"
    if [ "$command" = "swift package remodel check" ] && [ -z "${first_check:-}" ]; then
        first_check=$((SECONDS - started))
        echo "first swift package remodel check of the clean package: ${first_check} s (resolving, building the tool, checking)"
        # Its tool, remodel-package, was built for the host without the store commands and libpq's loader.
        [ -n "$(find "$app/.build/debug/RemodelFileCommands-tool.build" -name '*.o' 2>/dev/null | head -n 1)" ] || fail "swift package remodel did not build remodel-package"
        for module in RemodelPostgres RemodelCommandLine; do
            [ -z "$(find "$app/.build/debug/$module-tool.build" -name '*.o' 2>/dev/null | head -n 1)" ] || fail "swift package remodel built $module for the host"
        done
    fi
    if [ -n "$expected" ]; then
        grep -qxF "$expected" "$work/readme-step.log" || fail "'$command' did not print '$expected'"
    fi
}
git -C "$app" init -q -b main
printf '.build/\n*.sqlite*\n' >"$app/.gitignore"
# shellcheck disable=SC1090 # written above from the README
. "$work/readme-app.sh"
[ -n "${first_check:-}" ] || fail "the README's app never ran swift package remodel check"
[ -f "$app/Migrations/0002-rename-done.yaml" ] && [ -f "$app/Migrations/snapshots/v2.yaml" ] || fail "the README's app has no version 2"
echo "the README's app built, migrated its store in the app, and passed its CI job"

step "10. the README's commands on the example, in this repository"
# The block after `<!-- readme-repo: run -->`, line by line, from the repository's folder; the
# store it names is removed first (and after), so the commands run as on a fresh clone.
awk '/^<!-- readme-repo: run -->$/ { marked = 1; next } marked && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$repo/README.md" >"$work/readme-repo.txt"
[ "$(grep -c 'swift run remodel' "$work/readme-repo.txt")" -ge 4 ] || fail "the README's example commands are missing (<!-- readme-repo: run -->)"
rm -f "$repo/.build/example.db" "$repo/.build/example.db"*
while IFS= read -r line; do
    command=${line%%#*}
    command=${command%"${command##*[![:space:]]}"}
    [ -n "$command" ] || continue
    echo "+ $command"
    (cd "$repo" && eval "$command") >"$work/readme-repo.log" 2>&1 || { cat "$work/readme-repo.log"; fail "the README's command failed: $command"; }
    tail -n 2 "$work/readme-repo.log"
done <"$work/readme-repo.txt"
grep -q "classDiagram" "$work/readme-repo.log" || fail "remodel diagram did not print a Mermaid class diagram"
(cd "$repo" && swift run remodel status --store .build/example.db 2>/dev/null) | grep -qE "^Schema version: +3$" || fail "the README's example store is not at version 3"
rm -f "$repo/.build/example.db"*
echo "the README's example commands upgrade a version 1 store to version 3"

printf '\nintegration: all checks passed\n'
