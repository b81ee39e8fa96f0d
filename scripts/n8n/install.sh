#!/usr/bin/env bash
# Installs n8n (pinned) into the cache, once: later runs find the marker file and skip it.
# Usage: bash scripts/n8n/install.sh [--rebuild]   (prints the n8n binary's path last)
# --rebuild: an install found in the cache gets its native module compiled again, as on a fresh machine
# (npm test does it, so that a machine whose cache holds n8n still proves the build step).
source "$(dirname "${BASH_SOURCE[0]}")/../toolchain.sh"
source "$ROOT/scripts/n8n/paths.sh"

if [ "$(cat "$N8N_DIR/installed" 2>/dev/null)" = "$N8N_VERSION" ] && [ -x "$N8N_BIN" ]; then
	echo "n8n $N8N_VERSION: already installed in $N8N_DIR" >&2
	if [ "${1:-}" = "--rebuild" ]; then bash "$ROOT/scripts/n8n/sqlite3.sh" "$N8N_DIR"; fi
	echo "$N8N_BIN"
	exit 0
fi

started=$SECONDS
echo "Installing n8n $N8N_VERSION into $N8N_DIR (once; about 6 minutes and 3 GB)" >&2
rm -rf "$N8N_DIR"
mkdir -p "$N8N_DIR"
# linkedom 0.18.15 depends on a package this registry lacks; 0.18.14 works.
cat > "$N8N_DIR/package.json" <<JSON
{
	"private": true,
	"dependencies": { "n8n": "$N8N_VERSION" },
	"overrides": { "linkedom": "0.18.14" }
}
JSON
cd "$N8N_DIR"
# Install scripts are skipped (one of a Kafka package downloads a binary and aborts the install);
# sqlite3, the only native module n8n needs here, is then compiled against Node 24's headers.
echo "npm install n8n@$N8N_VERSION --ignore-scripts" >&2
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
bash "$ROOT/scripts/n8n/sqlite3.sh" "$N8N_DIR"
echo "$N8N_VERSION" > "$N8N_DIR/installed"
echo "n8n $N8N_VERSION installed in $((SECONDS - started)) s" >&2
echo "$N8N_BIN"
