#!/usr/bin/env bash
# Makes DIR a git work tree with one commit, once (marker: DIR/.git/trawl-bench-done).
# Why: ripgrep applies .gitignore only inside a git work tree, and `git grep` searches tracked files;
# with a commit in place rg, git grep and trawl all see the same ignore rules.
# Fixed author/date so the commit is the same on every machine. Prints and records the time it took
# in "$DIR.git-init-seconds" (next to the corpus).
set -euo pipefail
dir="$1"
if [ -f "$dir/.git/trawl-bench-done" ]; then exit 0; fi
echo "git-init: $dir (git init + add -A + commit)"
start=$(date +%s%N)
rm -rf "$dir/.git"
cd "$dir"
git init -q -b main .
git add -A
export GIT_AUTHOR_NAME=trawl-bench GIT_AUTHOR_EMAIL=bench@trawl.invalid GIT_AUTHOR_DATE='2024-01-01T00:00:00Z'
export GIT_COMMITTER_NAME=trawl-bench GIT_COMMITTER_EMAIL=bench@trawl.invalid GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
git -c commit.gpgsign=false commit -q --no-verify -m "trawl bench corpus"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf '%d.%01d\n' $((ms / 1000)) $((ms % 1000 / 100)) > "$dir.git-init-seconds"
touch .git/trawl-bench-done
echo "git-init: done in $(cat "$dir.git-init-seconds") s ($(git ls-files | wc -l) tracked files)"
