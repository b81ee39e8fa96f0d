#!/usr/bin/env bash
# The README's "Test" command (npm test): type-check, lint (strict), Prettier, build, scan, and every test: jest's
# "integration" project (the nodes in n8n-core's execution engine) and its "real n8n" project (test/e2e: the packed package in n8n 2.x,
# installed into the cache on first use with Chromium and Redis from Debian; see jest.config.cjs).
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"

step() { printf '\n== %s\n' "$1"; }

# The real-n8n tests need n8n with its native module compiled against Node 24: installed on a fresh
# machine, compiled again on one whose cache already holds n8n, so that every run proves the build step a
# fresh machine runs (offline, in a fresh node-gyp cache: scripts/n8n/sqlite3.sh). It runs in the
# background, beside the checks below (the compiler uses one core, lint and tsc the other).
n8n_log="$(mktemp)"
bash scripts/n8n/install.sh --rebuild > /dev/null 2> "$n8n_log" &
n8n_pid=$!
n8n_started=$SECONDS

step "n8n-node lint (strict mode)"
npx n8n-node lint

step "Prettier: the whole tree formatted (npm run format writes it)"
npx prettier --check . --log-level warn
echo "formatted"

step "Build"
npm run build > /dev/null
echo "built dist/"

step "Type-check (node, tests and dev tools)"
npx tsc -p tsconfig.dev.json
echo "no type errors"

# npm ci refuses a lock file that misses a package npm would resolve on any platform. unrs-resolver (a
# dependency of the linters and jest) is pinned to 1.12.2 in devDependencies: the registry here has
# every platform's binding of 1.12.2 but only Linux's of 1.13.0, so a lock made with 1.13.0 is incomplete.
step "Lock file: npm ci accepts it"
lock_dir="$(mktemp -d)"
cp package.json package-lock.json "$lock_dir"
(cd "$lock_dir" && npm ci --dry-run --ignore-scripts --no-audit --no-fund --loglevel=error > /dev/null)
rm -rf "$lock_dir"
echo "package-lock.json is complete"

step "Scanner on source and packed package, runtime dependencies, load check"
node scripts/check-package.mts

step "n8n installed, its native module compiled offline"
n8n_status=0
wait "$n8n_pid" || n8n_status=$?
cat "$n8n_log"
rm -f "$n8n_log"
if [ "$n8n_status" -ne 0 ]; then exit "$n8n_status"; fi
echo "n8n ready: $((SECONDS - n8n_started)) s after it started in the background"

step "Tests (jest: integration, then real n8n)"
# n8n 1.x (npm run test:n8n1) is left out: a second n8n install (about 7 minutes and 2 GB the first time).
FUZZ_INPUTS=100000 npx jest --ci --selectProjects integration "real n8n" "$@"
