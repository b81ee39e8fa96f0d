#!/usr/bin/env bash
# Installs the Debian packages given as arguments when they are missing (the end-to-end tests need
# chromium and redis-server); prints what it does and how long it took.
set -euo pipefail
missing=()
for package in "$@"; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi

if ! command -v apt-get > /dev/null; then
	echo "Missing ${missing[*]}, and this machine has no apt-get: install them with the system's package manager." >&2
	exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
started=$SECONDS
echo "Installing Debian packages: ${missing[*]} (apt-get)" >&2
"${sudo[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
echo "Installed ${missing[*]} in $((SECONDS - started)) s" >&2
