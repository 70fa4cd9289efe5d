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
#      out without RealmSwift), and a wrong option fails the build naming the file and line.
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

printf '\nintegration: all checks passed\n'
