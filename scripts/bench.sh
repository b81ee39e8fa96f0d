#!/usr/bin/env bash
# npm run bench: builds dist, then measures the stream assembler against the openai SDK's stream parser
# on the same 10 MB reply (scripts/bench-stream.mts), then the node in n8n's engine against the local
# service, side by side with bare fetch and n8n's request helper alone: per-item time, throughput by
# Concurrency, peak memory for 10,000 items (scripts/bench-node.mts and scripts/bench/, TypeScript sources
# through tsx). Not part of npm test: it prints, it does not assert.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
npm run build > /dev/null
node --expose-gc scripts/bench-stream.mts
node --expose-gc --import tsx scripts/bench-node.mts
