#!/bin/sh
# Installs Debian's editors for the end-to-end LSP tests (server/tests/e2e.rs): Neovim (0.7.2 on
# bookworm), and Emacs without X (28.2) with ELPA's eglot (1.9).
# CI calls this before `cargo test -p server`; it needs root (or sudo) and the Debian archive.
set -eu
missing=""
command -v nvim >/dev/null 2>&1 || missing="$missing neovim"
command -v emacs >/dev/null 2>&1 || missing="$missing emacs-nox"
# Debian's site start-up puts ELPA packages on Emacs's load path (`emacs --batch` loads it).
emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1 || missing="$missing elpa-eglot"
if [ -n "$missing" ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    $SUDO apt-get update
    # shellcheck disable=SC2086 # one word per package
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi
nvim --version | head -n 1
emacs --version | head -n 1
emacs --batch --eval "(require 'eglot)" --eval '(princ (format "eglot from %s\n" (locate-library "eglot")))'
