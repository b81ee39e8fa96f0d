#!/usr/bin/env bash
# npm run test:unit and npm run test:integration: jest alone, under the project's Node 24 and dev dependencies
# (scripts/toolchain.sh); no lint, build, n8n install or Debian packages. Arguments go to jest.
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
exec npx jest "$@"
