#!/usr/bin/env bash
# The README's "Try it" command (npm run try): installs what it needs, builds the node, starts the
# local service and runs the example workflow through n8n's execution engine, printing the reply.
# Arguments: an optional question, and --serve to keep the service running on port 8787.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
npm run build > /dev/null
npx tsx scripts/try.cts "$@"
