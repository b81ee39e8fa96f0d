#!/usr/bin/env bash
# npm run build: dist/ as n8n loads it. `n8n-node build` (tsc and the icons), then scripts/bundle.mts
# inlines third-party packages. Runs under the project's Node 24 (scripts/toolchain.sh), so it works
# whatever Node started it.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
npx n8n-node build
node scripts/bundle.mts
