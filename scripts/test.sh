#!/usr/bin/env bash
# The README's "Test" command (npm test): type-check, lint (strict), build, scan, and every test.
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

step "Tests (jest)"
npx jest --ci "$@"
