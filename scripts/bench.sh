#!/usr/bin/env bash
# npm run bench: builds dist, then measures the stream assembler against the openai SDK's stream parser
# on the same 10 MB reply (scripts/bench-stream.mts), then the node in n8n's engine against the local
# service, side by side with bare fetch and n8n's request helper alone: per-item time, throughput by
# Concurrency, peak memory for 10,000 items (scripts/bench-node.mts); then the batches, the node at its
# defaults beside n8n's HTTP Request node (scripts/bench/batches.mts). TypeScript sources through tsx.
# Not part of npm test: it prints, it does not assert.
# `npm run bench -- batches [a|b|c|d]...` runs only the batches (from source: no build, no other part).
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
if [[ "${1:-}" != batches ]]; then
	npm run build > /dev/null
	node --expose-gc scripts/bench-stream.mts
	node --expose-gc --import tsx scripts/bench-node.mts
	set -- batches
fi
# The batches evaluate each item's parameters with n8n's VM expression engine, as n8n 2.x does by default
# (each is a process of its own: the engine is chosen when n8n-core starts).
N8N_EXPRESSION_ENGINE=vm node --expose-gc --import tsx scripts/bench-node.mts "$@"
