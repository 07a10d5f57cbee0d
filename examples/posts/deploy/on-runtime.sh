#!/bin/sh
# `npm run start:bun` and `start:deno`: runs its arguments on Bun or Deno, the one on the PATH, else the one
# `npm run runtimes` installs from npm for this repository's tests; without either, says what to install.
set -eu
name=$1
shift
bin=$(command -v "$name" 2>/dev/null || true)
if [ -z "$bin" ]; then
  case "$(uname -m)" in
    x86_64 | amd64) bun_arch=x64 deno_arch=x64 ;;
    aarch64 | arm64) bun_arch=aarch64 deno_arch=arm64 ;;
    *) bun_arch=none deno_arch=none ;;
  esac
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  here=test/runtimes/node_modules
  for candidate in \
    "$here/@oven/bun-$os-$bun_arch/bin/bun" "$here/@oven/bun-$os-$bun_arch-baseline/bin/bun" \
    "$here/@deno/$os-$deno_arch-glibc/deno" "$here/@deno/$os-$deno_arch/deno"; do
    case "$candidate" in */$name | */bin/$name) [ -x "$candidate" ] && bin=$candidate && break ;; esac
  done
fi
if [ -z "$bin" ]; then
  echo "$name is not installed. Install it (npm install --global $name), or run \`npm run runtimes\`," >&2
  echo "which installs Bun and Deno from npm for this repository's tests; then run this again." >&2
  exit 1
fi
exec "$bin" "$@"
