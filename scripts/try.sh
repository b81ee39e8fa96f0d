#!/usr/bin/env bash
# The "Try it" command of docs/development.md (npm run try): installs Node 24 and n8n when missing (cached), installs
# this package into n8n as a community package, starts the local service, imports the credential and the
# example workflows, runs the chat example and prints the reply, then keeps n8n on http://localhost:5678
# running until Ctrl+C. `npm run try -- --exit` stops after printing the reply; `npm run try -- --port 5700`
# runs n8n on port 5700 (its task runner broker on 5701), using the local service of a try already running.
TRY_STARTED_MS="$(date +%s%3N)"
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
N8N_BIN="$(bash scripts/n8n/install.sh)"
export TRY_STARTED_MS N8N_BIN TRY_DIR="$CACHE/try"
exec npx tsx scripts/try.cts "$@"
