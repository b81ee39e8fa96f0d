#!/usr/bin/env bash
# Compiles the sqlite3 module of an n8n install (installed with --ignore-scripts) against the headers of
# the Node that runs n8n, offline, and moves it into place once it loads.
# Usage: bash scripts/n8n/sqlite3.sh <n8n install dir>   (run under the project's Node 24: toolchain.sh)
#
# node-gyp is started directly, not through `npm rebuild`, so that it can be given command-line flags,
# which every node-gyp version reads (n8n 2.41.1 brings 8.4.1, which reads neither
# `npm_package_config_node_gyp_nodedir` nor, through npm 11, `npm_config_nodedir` without a warning):
#   --nodedir   Node 24's own headers (the npm registry's node-linux-* package has them): nothing to fetch;
#   --devdir    a fresh, empty header cache: a machine's ~/.cache/node-gyp cannot help or hide anything;
#   --dist-url  a closed local port: a node-gyp that tried to download headers fails at once, on every
#               machine alike, instead of only on one without a warm cache.
# sqlite3's own install script first asks prebuild-install for a download, which cannot work here: skipped.
# The build runs in a copy of the module's source; the installed module is replaced only by a build
# that loads and opens a database, so a failed build leaves the install as it was.
set -euo pipefail
n8n_dir="$(cd "$1" && pwd)"
installed="$n8n_dir/node_modules/sqlite3"
node_home="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
if [ ! -f "$node_home/include/node/node.h" ]; then
	echo "Node $(node -v) at $node_home has no headers (include/node/node.h): use the project's Node 24 (scripts/toolchain.sh)" >&2
	exit 1
fi
gyp="$(cd "$installed" && node -p 'require.resolve("node-gyp/bin/node-gyp.js")')"

# The copy stays inside node_modules, where its own dependencies (node-addon-api, bindings) resolve.
work="$(mktemp -d "$n8n_dir/node_modules/.sqlite3-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/headers"
cp -R "$installed" "$work/sqlite3"
rm -rf "$work/sqlite3/build"

started=$SECONDS
echo "sqlite3: compiling with node-gyp $(node -p "require('$(dirname "$(dirname "$gyp")")/package.json').version") against Node $(node -v)'s headers, offline" >&2
(
	cd "$work/sqlite3"
	node "$gyp" rebuild --release --jobs=max --nodedir="$node_home" --devdir="$work/headers" \
		--dist-url=http://127.0.0.1:9 --loglevel=warn > "$work/build.log" 2>&1
) || {
	tail -n 40 "$work/build.log" >&2
	echo "sqlite3: the build failed (log above)" >&2
	exit 1
}
(cd "$work" && node -e 'new (require("./sqlite3").Database)(":memory:").close()')

rm -rf "$installed/build.new"
mv "$work/sqlite3/build" "$installed/build.new"
rm -rf "$installed/build"
mv "$installed/build.new" "$installed/build"
echo "sqlite3: built and loaded in $((SECONDS - started)) s" >&2
