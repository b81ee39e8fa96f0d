#!/usr/bin/env bash
# npm run bench: builds dist, then measures the stream assembler against the openai SDK's stream parser
# on the same 10 MB reply (scripts/bench-stream.mts). Not part of npm test: it prints, it does not assert.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
npm run build > /dev/null
node --expose-gc scripts/bench-stream.mts
