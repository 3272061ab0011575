#!/usr/bin/env bash
# Installs what Playfield needs and is missing: system libraries to build and run (libpq is
# linked even when only SQLite is used; libxml2 reads recipe pages,
# libcurl fetches them for imports by URL); with --cluster also nginx
# and the PostgreSQL server (what `make cluster` starts); with --test those and Chromium, wrk,
# Leaflet (the tile recipe's browser test) and the Python test tools. Installs through apt when
# run as root; otherwise says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
want_cluster=0
[ "${1:-}" = "--test" ] && want_test=1 && want_cluster=1
[ "${1:-}" = "--cluster" ] && want_cluster=1

packages=(pkg-config libsqlite3-dev libpq-dev libpng-dev zlib1g-dev libxml2-dev
  libcurl4-openssl-dev)
if [ "$want_cluster" = 1 ]; then
  packages+=(nginx postgresql)
fi
if [ "$want_test" = 1 ]; then
  packages+=(chromium wrk libjs-leaflet)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "install-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || true
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "install-deps: please install: ${missing[*]}" >&2
    echo "  e.g. sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

if ! command -v swift >/dev/null; then
  echo "install-deps: Swift 6 is needed: https://www.swift.org/install/linux/" >&2
  exit 1
fi

if [ "$want_test" = 1 ]; then
  if [ ! -x .venv/bin/python ] && ! python3 -m venv .venv; then
    # Debian's python3 makes virtual environments only with python3-venv.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
      rm -rf .venv
      python3 -m venv .venv
    else
      echo "install-deps: python3 cannot make a virtual environment; install python3-venv" >&2
      exit 1
    fi
  fi
  .venv/bin/pip install -q --disable-pip-version-check -r Tests/requirements.txt
  # NB: without its dependencies: SB3 needs PyTorch (over 500 MB, its CUDA libraries several
  # GB), which the tests do without; clients/python/tests/test_client_sb3.py loads SB3's
  # torch-free VecEnv module alone.
  .venv/bin/pip install -q --disable-pip-version-check --no-deps stable-baselines3==2.9.2
fi
