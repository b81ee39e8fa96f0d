#!/usr/bin/env bash
# The "Test" command of docs/development.md (npm test): type-check, lint (strict), Prettier, build, scan, and every test: jest's
# "integration" project (the nodes in n8n-core's execution engine) and its "real n8n" project (test/e2e: the packed package in n8n 2.x,
# installed into the cache on first use with Chromium and Redis from Debian; see jest.config.cjs).
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"

# Each step is a phase of the table printed at the end, also when a step fails (exit trap): its name and
# seconds. The first phase is the toolchain (Node 24 and the dev dependencies, installed on first use).
phases=()
phase="toolchain"
phase_started=0
phase_end() { phases+=("$(printf '%-26s %5d s' "$phase" $((SECONDS - phase_started)))"); }
step() {
	phase_end
	phase="$1"
	phase_started=$SECONDS
	printf '\n== %s\n' "$2"
}
print_phases() {
	local status=$?
	phase_end
	printf '\n== Time per phase (exit status %d)\n' "$status"
	printf '%s\n' "${phases[@]}"
	if [ -n "${n8n_seconds:-}" ]; then printf '%-26s %5d s\n' "(n8n install, background)" "$n8n_seconds"; fi
	printf '%-26s %5d s\n' "total" "$SECONDS"
	exit "$status"
}
trap print_phases EXIT

# The real-n8n tests need n8n with its native module compiled against Node 24: installed on a fresh
# machine, compiled again on one whose cache already holds n8n, so that every run proves the build step a
# fresh machine runs (offline, in a fresh node-gyp cache: scripts/n8n/sqlite3.sh). It runs in the
# background, beside the checks and the integration tests below (the compiler uses one core).
n8n_log="$(mktemp)"
bash scripts/n8n/install.sh --rebuild > /dev/null 2> "$n8n_log" &
n8n_pid=$!
n8n_started=$SECONDS

step lint "n8n-node lint (strict mode)"
npx n8n-node lint

step Prettier "Prettier: the whole tree formatted (npm run format writes it)"
npx prettier --check . --log-level warn
echo "formatted"

step build "Build"
npm run build > /dev/null
echo "built dist/"

step type-check "Type-check (node, tests and dev tools)"
npx tsc -p tsconfig.dev.json
echo "no type errors"

# npm ci refuses a lock file that misses a package npm would resolve on any platform. unrs-resolver (a
# dependency of the linters and jest) is pinned to 1.12.2 in devDependencies: the registry here has
# every platform's binding of 1.12.2 but only Linux's of 1.13.0, so a lock made with 1.13.0 is incomplete.
step lock "Lock file: npm ci accepts it"
lock_dir="$(mktemp -d)"
cp package.json package-lock.json "$lock_dir"
(cd "$lock_dir" && npm ci --dry-run --ignore-scripts --no-audit --no-fund --loglevel=error > /dev/null)
rm -rf "$lock_dir"
echo "package-lock.json is complete"

step scanner "Scanner on source and packed package, runtime dependencies, load check"
node scripts/check-package.mts

# n8n 1.x (npm run test:n8n1) is left out: a second n8n install (about 7 minutes and 2 GB the first time).
# One jest run per project, each timed; the real-n8n tests run also when an integration test failed, and
# the exit status is the first failure's (n8n's install is waited for between them, so that the integration
# files run beside its compiler). Arguments go to both runs: with --passWithNoTests a path pattern
# may match files of one project only. The integration files wait on the local service and on timers more
# than they compute, so they get a worker per core (jest's default leaves one of two idle): on 2 cores 133 s
# instead of 308 s, with 161 s of CPU. The real-n8n files keep jest's default: each n8n wants a core.
step "jest integration" "Tests: jest's integration project"
integration_status=0
FUZZ_INPUTS=100000 npx jest --ci --passWithNoTests --selectProjects integration --maxWorkers=100% "$@" || integration_status=$?

step "n8n install (wait)" "n8n installed, its native module compiled offline"
n8n_status=0
wait "$n8n_pid" || n8n_status=$?
cat "$n8n_log"
rm -f "$n8n_log"
if [ "$n8n_status" -ne 0 ]; then exit $((integration_status != 0 ? integration_status : n8n_status)); fi
n8n_seconds=$((SECONDS - n8n_started))
echo "n8n ready: $n8n_seconds s after it started in the background"

step "jest real n8n" "Tests: jest's real-n8n project"
real_status=0
npx jest --ci --passWithNoTests --selectProjects "real n8n" "$@" || real_status=$?
if [ "$integration_status" -ne 0 ]; then exit "$integration_status"; fi
exit "$real_status"
