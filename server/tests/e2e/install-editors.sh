#!/bin/sh
# Installs Debian's Neovim (0.7.2 on bookworm) for the end-to-end LSP test (server/tests/e2e.rs).
# CI calls this before `cargo test -p server`; it needs root (or sudo) and the Debian archive.
set -eu
if command -v nvim >/dev/null 2>&1; then
    nvim --version | head -n 1
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends neovim
nvim --version | head -n 1
