#!/usr/bin/env bash
# Makes sure Debian's Chromium is there (browser tests; invoice PDFs through Browser Rendering).
# Installs it with apt-get when running as root; otherwise says how.
# Then points wrangler's local Browser Rendering at it: miniflare would download its own Chrome,
# which this machine cannot, so its expected path gets a small wrapper around /usr/bin/chromium.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Chromium fehlt: wird mit apt-get installiert ..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium fehlt. Bitte installieren: sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

# The Chrome version @cloudflare/puppeteer's local mode (miniflare) expects.
CHROME_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/.wrangler/chrome/linux-126.0.6478.182"
WRAPPER="$CHROME_DIR/chrome-linux64/chrome"
if [ ! -f "$CHROME_DIR/.miniflare-install-complete" ] || [ -L "$WRAPPER" ]; then
  mkdir -p "$CHROME_DIR/chrome-linux64"
  rm -f "$WRAPPER" # never write through a symlink to the real binary
  printf '#!/bin/sh\nexec %s --no-sandbox "$@"\n' "$CHROMIUM" > "$WRAPPER"
  chmod +x "$WRAPPER"
  touch "$CHROME_DIR/.miniflare-install-complete"
fi
