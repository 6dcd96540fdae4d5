#!/bin/sh
# bait-repo.sh OUT: the spec's bait repository for code in, once.
#
# OUT/home is the user's HOME: a global config with an identity, a
# global ignore file (the XDG default, ~/.config/git/ignore), and, set
# last so that building runs none of them, a core.hooksPath full of
# hooks and a core.fsmonitor program that leave a mark in OUT/marks.
# OUT/repo is the repository: every kind of change code in must carry
# or keep out.  Tests copy it (cp -a) and never change it.
set -eu
out=$1
mkdir -p "$out/home/.config/git" "$out/marks" "$out/repo"
out=$(cd "$out" && pwd)
export HOME="$out/home" GIT_CONFIG_NOSYSTEM=1
unset XDG_CONFIG_HOME GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE \
    GIT_OBJECT_DIRECTORY GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT || true
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" \
    GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

cat > "$HOME/.gitconfig" <<CFG
[user]
	name = Bait User
	email = bait@example.invalid
[init]
	defaultBranch = main
CFG
# Globally ignored: a file the user keeps out of every repository.
printf '*.private\n' > "$HOME/.config/git/ignore"

cd "$out/repo"
git init -q .
printf '#!/bin/sh\necho run\n' > run.sh
chmod +x run.sh
printf '.env\nnode_modules/\n*.log\n' > .gitignore
printf 'one\n' > edited.txt
printf 'bye\n' > gone.txt
printf 'bye too\n' > staged-gone.txt
mkdir -p "dir with space" src
printf 'spaced\n' > "dir with space/file name.txt"
printf 'int main(void) { return 0; }\n' > src/app.c
ln -s run.sh link
git add -A
git commit -q -m "bait: first"

# What must never travel.
printf 'OPENAI_API_KEY=sk-bait-ENV-5ecret\n' > .env
mkdir -p node_modules/pkg logs
printf 'module.exports = "NODE-MODULES-BAIT";\n' > node_modules/pkg/index.js
printf 'GLOBAL-BAIT-private\n' > notes.private
printf 'LOG-BAIT\n' > logs/x.log
mkdir empty

# An untracked repository of its own: it stays out.
mkdir nested
(cd nested && git init -q . && printf 'NESTED-BAIT\n' > n.txt &&
    git add n.txt && git commit -q -m nested)

# What travels: staged, unstaged, both, deleted, untracked.
printf 'new\n' > new.txt
git add new.txt
printf 'two\n' > edited.txt
git add edited.txt
printf 'three\n' > edited.txt
rm gone.txt
git rm -q staged-gone.txt
printf 'int main(void) { return 1; }\n' > src/app.c
printf 'untracked\n' > src/untracked.c
printf 'unicode\n' > "ünïcødé ✓.txt"
printf 'with space\n' > "dir with space/new one.txt"
ln -s new.txt new-link
printf '#!/bin/sh\necho tool\n' > tool.sh
chmod +x tool.sh

# Last: what would start a program of the user's, with a control mark.
# Paths through HOME, so that a copy (cp -a) marks its own folder:
# git expands ~ in core.hooksPath and runs core.fsmonitor with a shell.
mkdir -p "$HOME/hooks"
for h in pre-commit prepare-commit-msg commit-msg post-commit \
    post-checkout post-merge pre-push pre-auto-gc post-rewrite \
    reference-transaction post-index-change pre-rebase push-to-checkout; do
	printf '#!/bin/sh\necho "$0" >> "$HOME/../marks/hook-%s"\nexit 0\n' \
	    "$h" > "$HOME/hooks/$h"
	chmod +x "$HOME/hooks/$h"
done
printf '#!/bin/sh\necho "$@" >> "$HOME/../marks/fsmonitor"\nexit 1\n' \
    > "$HOME/fsmonitor.sh"
chmod +x "$HOME/fsmonitor.sh"
cat >> "$HOME/.gitconfig" <<'CFG'
[core]
	hooksPath = ~/hooks
	fsmonitor = $HOME/fsmonitor.sh
CFG
