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
}

# npm 11 warns on every command about keys of the user's npmrc it does not know (e.g. `nodedir=`, which
# some machines keep there for node-gyp): "Unknown user config", and "Unknown env config" once `npm run`
# has passed them on as npm_config_* variables. The project's npm commands read a copy of the user's
# npmrc without those keys (kept in the cache, made again when the npmrc changes) and do not inherit
# the variables. Only the `npm run` typed by the user still reads the npmrc itself.
# (scripts/n8n/install.sh gives node-gyp its headers in node-gyp's own variable.)
quiet_user_npmrc() {
	local source="${npm_config_userconfig:-$HOME/.npmrc}" copy="$CACHE/npmrc"
	if [ "$source" = "$copy" ] || [ ! -f "$source" ]; then return; fi
	if [ ! -f "$copy" ] || [ "$source" -nt "$copy" ]; then
		local unknown
		unknown="$(npm config get userconfig 2>&1 > /dev/null |
			sed -n 's/^npm warn Unknown user config "\([A-Za-z0-9_-]*\)".*/\1/p' | paste -sd ' ' -)"
		mkdir -p "$CACHE"
		# The copy may hold registry tokens, like the npmrc itself: readable by the user alone.
		(
			umask 077
			{
				echo "; made by scripts/toolchain.sh from $source without the keys npm does not know: $unknown"
				if [ -z "$unknown" ]; then cat "$source"; else
					grep -vE "^[[:space:]]*(${unknown// /|})[[:space:]]*=" "$source" || true
				fi
			} > "$copy.$$"
		)
		mv "$copy.$$" "$copy"
	fi
	local key
	for key in $(sed -n '1s/.*npm does not know: //p' "$copy"); do
		unset "npm_config_${key//-/_}"
	done
	export npm_config_userconfig="$copy"
}

ensure_dependencies() {
	# Only when node_modules is missing or older than the lock file. `npm ci` installs exactly the lock file
	# and never rewrites it (`npm install` may update a locked version and leave package-lock.json modified);
	# it empties node_modules first, so a changed lock file costs a whole install.
	# Scripts are skipped: a dev dependency's preinstall (`only-allow pnpm`) would abort the install.
	if [ ! -f "$ROOT/node_modules/.package-lock.json" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
		echo "Installing the project's dev dependencies (npm ci, from package-lock.json)"
		(cd "$ROOT" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
	fi
}

quiet_user_npmrc
ensure_node24
ensure_dependencies
cd "$ROOT"
