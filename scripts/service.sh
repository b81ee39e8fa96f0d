#!/usr/bin/env bash
# npm run service: the local Chat Completions service on http://127.0.0.1:8787/v1 (options: see dev/service/main.mts).
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
exec node dev/service/main.mts "$@"
