#!/usr/bin/env bash
# npm run bench: builds dist, then measures the stream assembler against the openai SDK's stream parser
# on the same 10 MB reply (scripts/bench-stream.mts), then the node in n8n's engine against the local
# service, side by side with bare fetch and n8n's request helper alone: per-item time, throughput by
# Concurrency, peak memory for 10,000 items (scripts/bench-node.mts); then the batches, the node at its
# defaults beside n8n's HTTP Request node (scripts/bench/batches.mts); then queue mode, real n8n with 4
# workers and 4 executions on one rate-limited key, the node beside the HTTP Request node
# (scripts/bench-queue.mts), then the embeddings, the reranker, images and audio, the AI Agent turn and the remote part named below.
# TypeScript sources through tsx. Not part of npm test: it prints, it does not assert.
# `npm run bench -- batches [a|b|c|d|e|f]...` runs only the batches (from source: no build, no other part; (f)
# runs n8n's AI Agent from n8n's install in the cache, installed first when missing).
# `npm run bench -- queue` runs only queue mode (about 2 minutes, plus about 6 the first time for installing
# n8n into the cache and Redis from Debian).
# `npm run bench -- agent` runs only the AI Agent turn: the Chat Completions Chat Model against n8n's OpenAI Chat
# Model in real n8n (test/e2e/chat-model-bench.test.cts, about 2 minutes).
# `npm run bench -- embeddings` runs only the embeddings: 1,000 chunks into a Simple Vector Store with the
# Chat Completions Embeddings node beside n8n's Embeddings OpenAI node (scripts/bench-embeddings.mts, n8n's AI
# nodes from n8n's install in the cache).
# `npm run bench -- rerank` runs only the reranker: 100 searches over 50 documents each, the Chat Completions
# Reranker in n8n's engine beside a bare fetch of /rerank (scripts/bench-rerank.mts; n8n's Reranker Cohere has no
# Base URL to point at the local service).
# `npm run bench -- media` runs only images and audio: 50 images with the Chat Completions Media node beside n8n's
# OpenAI node, and the peak memory of a 20 MB recording transcribed (scripts/bench-media.mts).
# `npm run bench -- remote` runs only the remote part (last in the full bench, about 5 minutes): the local service made
# remote by a relay (dev/relay/: 25 ms each way, a round trip per TCP connect, TLS with a CA made for the run by
# scripts/bench/throwaway-ca.sh with Debian's openssl and trusted through NODE_EXTRA_CA_CERTS, then deleted); 128
# items beside the HTTP Request node, Concurrency 1 against the round trip, the first streamed token beside bare fetch
# (scripts/bench-remote.mts), and the AI Agent turn in real n8n (the agent part above, through the relay); each with
# the TCP connections and TLS handshakes (full, resumed) the relay saw.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
all=false
if [[ "${1:-}" != batches && "${1:-}" != queue && "${1:-}" != agent && "${1:-}" != embeddings && "${1:-}" != rerank && "${1:-}" != media && "${1:-}" != remote ]]; then
	npm run build > /dev/null
	node --expose-gc scripts/bench-stream.mts
	node --expose-gc --import tsx scripts/bench-node.mts
	all=true
	set -- batches
fi
# n8n's own install's node_modules, where n8n's AI nodes are (scripts/bench/n8n-install.mts).
n8n_node_modules() {
	dirname "$(dirname "$(dirname "$(realpath "$(bash scripts/n8n/install.sh | tail -n 1)")")")"
}
if [[ "$1" == batches ]]; then
	# Part (f) runs n8n's AI Agent: all parts, or f among them.
	if [[ $# -eq 1 || " ${*:2} " == *" f "* ]]; then
		N8N_NODE_MODULES="$(n8n_node_modules)"
		export N8N_NODE_MODULES
	fi
	# The batches evaluate each item's parameters with n8n's VM expression engine, as n8n 2.x does by default
	# (each is a process of its own: the engine is chosen when n8n-core starts).
	N8N_EXPRESSION_ENGINE=vm node --expose-gc --import tsx scripts/bench-node.mts "$@"
fi
if [[ "$1" == queue || "$all" == true ]]; then
	# Real n8n (installed once into the cache, as for the end-to-end tests), Debian's redis-server and postgresql.
	E2E_N8N_BIN="$(bash scripts/n8n/install.sh | tail -n 1)"
	export E2E_N8N_BIN
	bash scripts/n8n/apt-install.sh redis-server postgresql
	node --import tsx scripts/bench-queue.mts
fi
if [[ "$1" == embeddings || "$all" == true ]]; then
	N8N_NODE_MODULES="$(n8n_node_modules)" node --import tsx scripts/bench-embeddings.mts
fi
if [[ "$1" == rerank || "$all" == true ]]; then
	node --import tsx scripts/bench-rerank.mts
fi
if [[ "$1" == media || "$all" == true ]]; then
	N8N_NODE_MODULES="$(n8n_node_modules)" node --expose-gc --import tsx scripts/bench-media.mts
fi
if [[ "$1" == agent || "$all" == true ]]; then
	# One AI Agent turn with a tool call in real n8n: the Chat Completions Chat Model beside n8n's OpenAI Chat
	# Model on the same local service (a measurement kept with the end-to-end tests, skipped by npm test).
	CHAT_MODEL_BENCH=1 npx jest --selectProjects "real n8n" --testPathPatterns test/e2e/chat-model-bench
fi
if [[ "$1" == remote || "$all" == true ]]; then
	bash scripts/n8n/apt-install.sh openssl
	REMOTE_TLS_DIR="$(mktemp -d)"
	trap 'rm -rf "$REMOTE_TLS_DIR"' EXIT
	bash scripts/bench/throwaway-ca.sh "$REMOTE_TLS_DIR"
	# Read at process start by Node, so by n8n too: the processes that send trust the relay's certificate.
	export REMOTE_TLS_DIR NODE_EXTRA_CA_CERTS="$REMOTE_TLS_DIR/ca.pem"
	node --import tsx scripts/bench-remote.mts
	CHAT_MODEL_BENCH=1 CHAT_MODEL_BENCH_REMOTE=1 npx jest --selectProjects "real n8n" --testPathPatterns test/e2e/chat-model-bench
fi
