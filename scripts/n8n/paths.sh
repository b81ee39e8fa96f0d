# Sourced after scripts/toolchain.sh: where a pinned n8n lives in the cache, one directory per version.
# The version is the argument given to `source` (e.g. 1.123.81), else the one the tests run by default.
N8N_VERSION="${1:-2.41.1}"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
N8N_BIN="$N8N_DIR/node_modules/.bin/n8n"
