#!/usr/bin/env bash
# npm run format: Prettier writes the whole tree (.prettierrc.json, .prettierignore); npm test checks it.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
exec npx prettier --write . --log-level warn
