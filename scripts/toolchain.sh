# Sourced by the project's commands: puts Node 24 (from the npm registry) first on PATH and
# installs the project's dev dependencies. Nothing else is needed on the machine but Node and npm.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-chat-completions"

ensure_node24() {
	local major
	major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
	if [ "$major" -ge 24 ]; then return; fi
	local arch package dir
	case "$(uname -m)" in
		x86_64) arch=x64 ;;
		aarch64 | arm64) arch=arm64 ;;
		*) echo "No Node 24 package for $(uname -m) on the npm registry; install Node 24 yourself." >&2; exit 1 ;;
	esac
	package="node-linux-$arch"
	dir="$CACHE/node24"
	if [ ! -x "$dir/node_modules/$package/bin/node" ]; then
		echo "Installing Node 24 ($package from the npm registry) into $dir"
		npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --loglevel=error "$package@24"
	fi
	export PATH="$dir/node_modules/$package/bin:$PATH"
	# node-gyp must build native modules against Node 24's headers, not the machine's Node.
	export npm_config_nodedir="$dir/node_modules/$package"
}

ensure_dependencies() {
	# Scripts are skipped: a dev dependency's preinstall (`only-allow pnpm`) would abort the install.
	# `npm install` follows the lock file; `npm ci` refuses it because the registry here lacks the
	# other platforms' optional binaries that the lock file would have to list.
	if [ ! -f "$ROOT/node_modules/.package-lock.json" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
		echo "Installing the project's dev dependencies (npm install, from package-lock.json)"
		(cd "$ROOT" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
	fi
}

ensure_node24
ensure_dependencies
cd "$ROOT"
