# Sourced after scripts/toolchain.sh: where the pinned n8n lives in the cache.
N8N_VERSION=2.41.1
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
N8N_BIN="$N8N_DIR/node_modules/.bin/n8n"
