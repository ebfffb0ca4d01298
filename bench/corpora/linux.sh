#!/usr/bin/env bash
# Builds $CACHE/linux: the Linux 6.1 kernel source from Debian's linux-source-6.1 package (the tree
# ripgrep's own benchmarks use), then makes it a git work tree. Idempotent: $CACHE/linux.done marks a
# finished build, $CACHE/linux.version (the exact package version) a finished extraction.
# Debian keeps only current point releases on its mirror, so by default this takes whatever
# linux-source-6.1 version apt offers; set TRAWL_LINUX_VERSION=6.1.176-1 to pin one.
set -euo pipefail
CACHE="${TRAWL_BENCH_CACHE:-$HOME/.cache/trawl-bench}"
here="$(cd "$(dirname "$0")" && pwd)"
dest="$CACHE/linux"
if [ -f "$CACHE/linux.done" ]; then
  echo "linux corpus: ready ($dest, $(cat "$CACHE/linux.version"))"
  exit 0
fi
mkdir -p "$CACHE"

if [ ! -f "$CACHE/linux.version" ]; then
  tmp="$(mktemp -d "$CACHE/.linux-tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  cd "$tmp"
  pkg="linux-source-6.1${TRAWL_LINUX_VERSION:+=$TRAWL_LINUX_VERSION}"
  echo "linux corpus: apt-get download $pkg"
  # As root, apt warns that its _apt sandbox user cannot write here: harmless, filtered out.
  apt-get download -q "$pkg" 2>&1 | grep -v 'sandbox' || true
  deb="$(ls linux-source-6.1_*.deb)"
  version="$(dpkg-deb -f "$deb" Version)"
  echo "linux corpus: dpkg -x $deb"
  dpkg -x "$deb" pkg
  echo "linux corpus: extracting linux-source-6.1.tar.xz (about 10 s)"
  tar -xaf pkg/usr/src/linux-source-6.1.tar.xz
  rm -rf "$dest"
  mv linux-source-6.1 "$dest"
  echo "linux-source-6.1 $version" > "$CACHE/linux.version"
  cd "$CACHE"
fi

# Debian appends "ignore everything at the top level" (/* and !/debian/) to the root .gitignore of
# this tarball. In a git work tree that makes rg, git and trawl skip the whole kernel, so cut that
# block (and its comment lines) to get upstream's .gitignore back.
n="$(grep -n '^# Debian packaging' "$dest/.gitignore" | cut -d: -f1 || true)"
if [ -n "$n" ]; then
  echo "linux corpus: removing Debian's top-level ignore block from .gitignore"
  head -n "$((n - 3))" "$dest/.gitignore" > "$dest/.gitignore.new"
  mv "$dest/.gitignore.new" "$dest/.gitignore"
fi

echo "linux corpus: $(find "$dest" -path "$dest/.git" -prune -o -type f -print | wc -l) files," \
  "$(du -sb --exclude=.git "$dest" | cut -f1) bytes"
"$here/git-init.sh" "$dest"
touch "$CACHE/linux.done"
echo "linux corpus: ready ($dest, $(cat "$CACHE/linux.version"))"
