#!/usr/bin/env bash
# Installs a pinned n8n into the cache, once per version: later runs find the version's marker file and skip it.
# Usage: bash scripts/n8n/install.sh [version] [--rebuild]   (prints the n8n binary's path last)
# version: e.g. 1.123.81; the default is in scripts/n8n/paths.sh.
# --rebuild: an install found in the cache gets its native module compiled again, as on a fresh machine
# (npm test does it, so that a machine whose cache holds n8n still proves the build step).
source "$(dirname "${BASH_SOURCE[0]}")/../toolchain.sh"
version=""
rebuild=false
for arg in "$@"; do
	if [ "$arg" = "--rebuild" ]; then rebuild=true; else version="$arg"; fi
done
source "$ROOT/scripts/n8n/paths.sh" "$version"

if [ "$(cat "$N8N_DIR/installed" 2>/dev/null)" = "$N8N_VERSION" ] && [ -x "$N8N_BIN" ]; then
	echo "n8n $N8N_VERSION: already installed in $N8N_DIR" >&2
	if [ "$rebuild" = true ]; then bash "$ROOT/scripts/n8n/sqlite3.sh" "$N8N_DIR"; fi
	echo "$N8N_BIN"
	exit 0
fi

started=$SECONDS
echo "Installing n8n $N8N_VERSION into $N8N_DIR (once; about 10 minutes and 3 GB)" >&2
rm -rf "$N8N_DIR"
mkdir -p "$N8N_DIR"
# Overrides of dependencies this registry cannot serve as n8n asks: in 2.x, linkedom 0.18.15 depends on a
# package the registry lacks (0.18.14 works); 1.x takes xlsx from SheetJS's own host (0.18.5 is on the registry).
case "$N8N_VERSION" in
	1.*) overrides='"xlsx": "0.18.5"' ;;
	*) overrides='"linkedom": "0.18.14"' ;;
esac
cat > "$N8N_DIR/package.json" <<JSON
{
	"private": true,
	"dependencies": { "n8n": "$N8N_VERSION" },
	"overrides": { $overrides }
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
