#!/usr/bin/env bash
# The README's "Test" command (npm test): type-check, lint (strict), build, scan, and every test: jest's
# "engine" project (n8n-core's engine) and its "real n8n" project (test/e2e: the packed package in n8n 2.x,
# installed into the cache on first use with Chromium and Redis from Debian; see jest.config.cjs).
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"

step() { printf '\n== %s\n' "$1"; }

step "n8n-node lint (strict mode)"
npx n8n-node lint

step "Build"
npm run build > /dev/null
echo "built dist/"

step "Type-check (node, tests and dev tools)"
npx tsc -p tsconfig.dev.json
echo "no type errors"

step "Scanner on source and packed package, runtime dependencies, load check"
node scripts/check-package.mts

step "Tests (jest: engine, then real n8n)"
npx jest --ci "$@"
