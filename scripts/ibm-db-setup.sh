#!/usr/bin/env bash
# Builds the optional Node driver `ibm_db` into .cache/ibm_db/ without IBM's download site
# (recipe from the project's environment notes): the IBM CLI driver ("clidriver") comes from the
# PyPI wheel `ibm-db`, the npm package is installed with --ignore-scripts and its native binding is
# compiled with node-gyp against that clidriver.
#
# Idempotent: a finished build is detected and reused. Re-run with --force to rebuild.
# Afterwards:   export INSERTLINT_IBM_DB_PATH=<repo>/.cache/ibm_db/node_modules/ibm_db
# (`source .cache/ibm_db/env.sh` sets it, and LD_LIBRARY_PATH for other tools; the binding itself is
# linked with an rpath to the clidriver, so Node needs no LD_LIBRARY_PATH.)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${INSERTLINT_IBM_DB_CACHE:-$ROOT/.cache/ibm_db}"
PY_WHEEL_VERSION="${IBM_DB_WHEEL_VERSION:-3.3.0}"
NPM_VERSION="${IBM_DB_NPM_VERSION:-}"   # empty: the registry's latest
MARKER="$CACHE/.built"

if [[ "${1:-}" == "--force" ]]; then rm -f "$MARKER"; fi
if [[ -f "$MARKER" && -d "$CACHE/clidriver/lib" && -d "$CACHE/node_modules/ibm_db/build/Release" ]]; then
  echo "ibm_db already built in $CACHE ($(cat "$MARKER"))"
  exit 0
fi

for tool in python3 node npm; do
  command -v "$tool" >/dev/null || { echo "ibm-db-setup: '$tool' is required but not on PATH" >&2; exit 1; }
done
mkdir -p "$CACHE/wheel" "$CACHE/bin"

# 1. The clidriver and the wheel's vendored shared libraries (libxml2, krb5, openssl…).
if ! ls "$CACHE"/wheel/ibm_db-*.whl >/dev/null 2>&1; then
  echo "== downloading the ibm-db $PY_WHEEL_VERSION wheel from PyPI"
  python3 -m pip download --quiet --no-deps --only-binary=:all: "ibm-db==$PY_WHEEL_VERSION" -d "$CACHE/wheel"
fi
WHEEL="$(ls "$CACHE"/wheel/ibm_db-*.whl | head -n 1)"
if [[ ! -d "$CACHE/clidriver/lib" ]]; then
  echo "== unpacking clidriver from $(basename "$WHEEL")"
  rm -rf "$CACHE/unpack" && mkdir -p "$CACHE/unpack"
  # python3's zipfile rather than unzip, which a fresh machine may lack.
  python3 - "$WHEEL" "$CACHE/unpack" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in wheel.namelist():
        if name.startswith(('clidriver/', 'ibm_db.libs/')):
            wheel.extract(name, sys.argv[2])
PY
  rm -rf "$CACHE/clidriver" "$CACHE/ibm_db.libs"
  mv "$CACHE/unpack/clidriver" "$CACHE/clidriver"
  if [[ -d "$CACHE/unpack/ibm_db.libs" ]]; then mv "$CACHE/unpack/ibm_db.libs" "$CACHE/ibm_db.libs"; else mkdir -p "$CACHE/ibm_db.libs"; fi
  rm -rf "$CACHE/unpack"
fi

# 2. The npm package, without its install script (which would download from IBM and GitHub).
if [[ ! -f "$CACHE/node_modules/ibm_db/package.json" ]]; then
  echo "== installing the npm package ibm_db${NPM_VERSION:+@$NPM_VERSION} (scripts off)"
  [[ -f "$CACHE/package.json" ]] || echo '{ "name": "insertlint-ibm-db-cache", "private": true }' > "$CACHE/package.json"
  # The project serialises npm runs with this lock (several engineers share one machine).
  LOCK=()
  if command -v flock >/dev/null; then LOCK=(flock /tmp/insertlint-npm.lock); fi
  "${LOCK[@]}" npm install --prefix "$CACHE" --ignore-scripts --no-audit --no-fund "ibm_db${NPM_VERSION:+@$NPM_VERSION}"
fi

# 3. The native binding, compiled against the clidriver. npm ships node-gyp but does not put it on PATH.
NPM_DIR="$(dirname "$(readlink -f "$(command -v npm)")")/.."
GYP_JS="$NPM_DIR/node_modules/node-gyp/bin/node-gyp.js"
[[ -f "$GYP_JS" ]] || { echo "ibm-db-setup: node-gyp not found at $GYP_JS" >&2; exit 1; }
printf '#!/bin/sh\nexec node "%s" "$@"\n' "$GYP_JS" > "$CACHE/bin/node-gyp"
chmod +x "$CACHE/bin/node-gyp"
NODEDIR="${npm_config_nodedir:-}"
if [[ -z "$NODEDIR" ]]; then
  for candidate in /usr /usr/local "$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"; do
    if [[ -f "$candidate/include/node/node.h" ]]; then NODEDIR="$candidate"; break; fi
  done
fi
[[ -n "$NODEDIR" ]] || { echo "ibm-db-setup: Node headers (include/node/node.h) not found; set npm_config_nodedir" >&2; exit 1; }
echo "== building the binding (node-gyp, headers from $NODEDIR)"
(
  cd "$CACHE/node_modules/ibm_db"
  rm -rf build
  # The rpath lets the binding find libdb2.so.1 without LD_LIBRARY_PATH; libdb2 itself finds the
  # wheel's vendored libraries through its own rpath ($ORIGIN/../../ibm_db.libs).
  IBM_DB_HOME="$CACHE/clidriver" npm_config_nodedir="$NODEDIR" PATH="$CACHE/bin:$PATH" \
    LDFLAGS="-Wl,-rpath,$CACHE/clidriver/lib ${LDFLAGS:-}" \
    node installer/driverInstall.js
)
ls "$CACHE"/node_modules/ibm_db/build/Release/*.node >/dev/null

cat > "$CACHE/env.sh" <<ENV
export INSERTLINT_IBM_DB_PATH="$CACHE/node_modules/ibm_db"
export LD_LIBRARY_PATH="$CACHE/clidriver/lib:$CACHE/ibm_db.libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
ENV
echo "wheel $PY_WHEEL_VERSION, npm $(node -p "require('$CACHE/node_modules/ibm_db/package.json').version")" > "$MARKER"
echo "ibm_db built in $CACHE; 'source $CACHE/env.sh' to use it"
