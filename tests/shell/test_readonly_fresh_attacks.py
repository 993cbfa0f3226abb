"""A second attacker's lines against the read-only list, judged by effect.

Fresh inputs beside :mod:`tests.shell.test_readonly_attacks`: options that write or
run programs, files programs write as a side effect, reads that follow links out of
the project, a hostile repository whose own ``.git/config`` and ``.gitattributes``
name programs, and parser confusions. Every line :func:`check_permission` allows
unasked (no rule) in ``default`` or ``plan`` mode is run by bash in a scratch
project beside an ``outside`` folder, a fake HOME and a loopback server: nothing
may change (a program the hostile configuration names leaves a file ``RAN``), no
connection may reach the server, and no text of an outside file may show in the
output.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookline.agent.permissions import PermissionRules, check_permission
from tests.effects import ConnectionCounter, file_state

#: The text of a file outside the project: the output must never show it.
SECRET = "OUTSIDE-SECRET-7f3a"

#: Lines that write a file, directly or as a side effect.
WRITES = [
    "sort -T . victim",
    "sort --temporary-directory=. victim",
    "sort -S 1 -T sub victim",
    "sort --random-source=victim -R victim",
    "sort --files0-from=list0",
    "sort --debug victim",
    "sort -m victim victim",
    "tree -o/dev/null .",
    "tree --fromfile list",
    "tree -H . --nolinks",
    "find . -maxdepth 1 -printf '%p\\n'",
    "find . -D help",
    "find . -newer victim -fprint /dev/stdout",
    "find -H . -name victim",
    "find . -name victim -prune -o -print",
    "find . -exec\\ touch pwned \\;",
    "find . -ex'ec' touch pwned \\;",
    "find . '-exec' touch pwned ';'",
    'find . "-delete"',
    "find . -name x -o -delete",
    "find . -quit -delete",
    "find . -fprin''t pwned",
    "find . -fls /dev/null -o -fprint pwned",
    "grep -r --include=victim v . --exclude-dir=.git",
    "grep --devices=read v victim",
    "grep -f victim victim",
    "rg --no-config v",
    "rg --pre-glob='*' v",
    "rg --pr=./evil.sh v",
    "rg --pre= v",
    "rg -z v",
    "rg --search-zip v",
    "rg --hostname-bin ./evil.sh v",
    "rg --type-add 'x:*.x' v",
    "rg --generate=man",
    "rg --ignore-file=victim v",
    "file -m victim victim",
    "file --compile -m victim",
    "file -Cm victim",
    "file -z victim",
    "file -Z victim",
    "file --magic-file victim victim",
    "uniq -c victim",
    "uniq victim -- pwned",
    "uniq -- victim pwned",
    "uniq -D victim pwned",
    "uniq --group victim pwned",
    "cat victim | uniq - pwned",
    "uniq -- - pwned < victim",
    "tac -s x victim",
    "od -An -w1 victim",
    "hexdump -C victim",
    "hexdump -e '\"%x\"' victim",
    "strings -a victim",
    "strings -T binary victim",
    "paste -d, victim victim",
    "split victim",
    "csplit victim 1",
    "column -t victim",
    "stat -c %n victim",
    "du -a --files0-from=list0",
    "wc --files0-from=list0",
    "wc -l --files0-from=-  < list0",
    "md5sum victim > /dev/null",
    "md5sum -c sums",
    "sha256sum -c sums",
    "sha1sum --check sums",
    "b2sum -c sums",
    "cksum -c sums",
    "expr length victim",
    "printf '%s' x >&2",
    "printf -v x %s y",
    "printf -vPATH x",
    "printf -- -v x",
    "printf '%(%F)T'",
    "printf %n x",
    "echo -e '\\x41' 2>&-",
    "ls --color=always",
    "ls -w0",
    "ls --hyperlink",
    "ls -R",
    "ls -Rl .",
    "du -sh --apparent-size .",
    "df .",
    "df --output",
    "df --output=source",
    "df -t tmpfs --total",
    "ps -o pid",
    "ps aux",
    "ps -ef --forest",
    "free -h",
    "uptime -p",
    "getconf -a",
    "locale -a",
    "locale -m",
    "nproc --all",
    "id -Gn",
    "uname -n",
    "readlink -f victim",
    "realpath --relative-to=. victim",
    "realpath -e victim",
    "which -a ls",
    "type -a ls",
    "test -e victim",
    "[ -e victim ]",
    "seq -f %g 3",
    "seq -s, 3",
    "sleep 0.01",
    "tsort list",
    "comm victim victim",
    "cmp victim victim",
    "cmp -i 1 victim victim",
    "diff -u victim victim",
    "diff --to-file=victim victim",
    "diff --from-file=victim victim",
    "diff -r sub sub",
    "diff -N victim nonexist",
    "diff --line-format=%L victim victim",
    "cut -d' ' -f1 victim",
    "fmt -w 20 victim",
    "fold -w 3 victim",
    "nl -ba victim",
    "rev victim",
    "tr a-z A-Z < victim",
    "expand victim",
    "unexpand -a victim",
    "jq . data.json",
    "jq -n 'input' data.json",
    "jq -n --rawfile x victim '$x'",
    "jq -n --slurpfile x data.json '$x'",
    "jq -n 'include \"lib\"; 1'",
    "jq -n -L . 'import \"lib\" as l; 1'",
    "jq -n 'import \"data\" as $d; $d'",
    "jq -n '$ENV.HOME'",
    "jq -n 'env'",
    "jq -n 'input_filename'",
    "jq -n '\"x\" | debug'",
    "jq -n 'halt_error'",
    "jq -n '$__prog_args'",
    "jq --seq -n 1",
    "jq -n --arg x y '$x'",
    "jq -n --jsonargs '$ARGS' 1",
    "jq -n --args '$ARGS' a b",
    "jq -n '@sh \"touch pwned\"'",
    "jq -r -n '\"touch pwned\"'",
    "date -r victim",
    "date --reference=victim",
    "date -f list",
    "date --file=list",
    "date -d @0",
    "date -d 'next year'",
    "date -s@0",
    "date -u -s 1",
    "date --set 1",
    "date --s=1",
    "date +%s -s 1",
    "date -- +%s",
    "hostname -F victim",
    "hostname --file victim",
    "hostname -b x",
    "hostname --boot x",
    "hostname -y",
    "hostname --nis",
    "hostname -A",
    "hostname -I",
    "hostname -i",
    "hostname --fqdn",
    "env -0",
    "env --null",
    "env -u PATH",
    "env --",
    "env -C /tmp",
    "printenv PATH HOME",
    "command -v ls",
    "command -V ls",
    "command -p ls",
    "command -- ls",
    "command ls",
    "command touch pwned",
    "command -v touch pwned",
    "command -vp touch pwned",
    "timeout -s KILL 5 ls",
    "timeout --foreground 5 ls",
    "timeout -k 1 5 touch pwned",
    "nice -n -5 ls",
    "nice --adjustment=5 ls",
    "stdbuf -i0 -o0 ls",
    "stdbuf -oL touch pwned",
    "time -p ls",
    "time -f %e ls",
    "/usr/bin/time -f %e ls",
    "/usr/bin/time -a -o pwned ls",
    "/usr/bin/time --ou=pwned ls",
    "/usr/bin/time -ao pwned ls",
    "/usr/bin/time -apo pwned ls",
    "time -- ls",
    "time -o pwned -- ls",
]

#: Git: options that write, run programs, or reach the network.
GIT = [
    "git status --porcelain=v2 --untracked-files=all",
    "git status --ignored",
    "git status -uall",
    "git status --find-renames",
    "git log --show-signature -1",
    "git log --format=%G? -1",
    "git log --pretty=format:%GS -1",
    "git log --format='%GK %GF' -1",
    "git show --show-signature HEAD",
    "git show -s --format=%G? HEAD",
    "git log -1 --format=%GG",
    "git for-each-ref --format='%(signature)'",
    "git branch --format='%(signature:grade)'",
    "git tag --format='%(contents:signature)'",
    "git log -p --textconv -1",
    "git show --textconv HEAD:victim",
    "git cat-file --textconv HEAD:victim",
    "git cat-file --filters HEAD:victim",
    "git cat-file --filters --path=victim HEAD",
    "git cat-file --batch --filters < /dev/null",
    "git cat-file -p HEAD",
    "git grep --textconv v",
    "git grep --no-index v",
    "git grep --untracked v",
    "git grep --recurse-submodules v",
    "git grep -f victim v",
    "git grep --threads=1 v",
    "git grep -Ofalse v",
    "git grep --open-files=x v",
    "git grep --o v",
    "git diff --no-index victim sub/x",
    "git diff --no-index escape/secret victim",
    "git diff --no-index -- victim /dev/null",
    "git diff HEAD~1 --stat",
    "git diff --ext victim",
    "git diff --ext-d HEAD~1",
    "git diff --no-ext-diff --ext-diff HEAD~1",
    "git diff --outp=pwned HEAD~1",
    "git diff -opwned HEAD~1",
    "git diff --output-directory=x",
    "git log --output-directory=x -1",
    "git log -p --output=pwned",
    "git show --o=pwned",
    "git diff --submodule=diff",
    "git diff --color-moved",
    "git diff --check",
    "git diff --word-diff-regex=x",
    "git diff --relative",
    "git diff --find-copies-harder",
    "git log --remerge-diff -1",
    "git log --follow -- victim",
    "git log -L1,1:victim",
    "git log --graph --all",
    "git log --all --source",
    "git log --no-walk --stdin < /dev/null",
    "git log --notes",
    "git log --walk-reflogs",
    "git log -g",
    "git shortlog -sn HEAD",
    "git shortlog -s",
    "git whatchanged -1",
    "git blame -L1,1 victim",
    "git blame --contents victim victim",
    "git blame --contents=escape/secret victim",
    "git blame -S victim victim",
    "git blame --ignore-revs-file=victim victim",
    "git blame --incremental victim",
    "git blame -C -C -C victim",
    "git describe --dirty",
    "git describe --broken",
    "git describe --all",
    "git describe --contains HEAD",
    "git rev-parse --git-dir",
    "git rev-parse --show-toplevel",
    "git rev-parse --git-path hooks",
    "git rev-parse --local-env-vars",
    "git rev-parse --parseopt -- < /dev/null",
    "git rev-parse --sq-quote x",
    "git rev-parse --resolve-git-dir .git",
    "git rev-list --all --objects",
    "git rev-list --count HEAD",
    "git rev-list --disk-usage --all",
    "git rev-list --stdin < /dev/null",
    "git ls-files -s",
    "git ls-files --others",
    "git ls-files --debug",
    "git ls-files --with-tree=HEAD",
    "git ls-files -X victim -o",
    "git ls-files --exclude-from=escape/secret -o",
    "git ls-tree -r HEAD",
    "git merge-base HEAD HEAD~1",
    "git merge-base --fork-point main",
    "git show-ref --head",
    "git show-ref --verify refs/heads/main",
    "git for-each-ref",
    "git for-each-ref --format='%(refname)' --sort=-committerdate",
    "git name-rev HEAD",
    "git name-rev --stdin < /dev/null",
    "git name-rev --annotate-stdin < /dev/null",
    "git count-objects -v",
    "git check-ignore -v victim",
    "git check-ignore --stdin < /dev/null",
    "git check-attr -a victim",
    "git check-attr --source=HEAD -a victim",
    "git reflog show",
    "git reflog",
    "git reflog expire",
    "git reflog --expire=now",
    "git reflog show --expire=now",
    "git stash show -p",
    "git stash list --all",
    "git stash show -p stash@{0}",
    "git stash list; git stash",
    "git worktree list --porcelain",
    "git worktree list && git worktree prune",
    "git version --build-options",
    "git remote -v show",
    "git remote --verbose",
    "git remote -v update",
    "git branch -l 'x'",
    "git branch --list x -d main",
    "git branch --list --edit-description",
    "git branch -l --delete main",
    "git branch -l -D main",
    "git branch --list -m main x",
    "git branch --list --create-reflog x",
    "git branch --list --track x",
    "git branch --list -f x",
    "git branch -ld main",
    "git branch --color=always",
    "git branch --contains HEAD",
    "git branch --sort=-committerdate",
    "git branch --column=always",
    "git tag -l -d v0",
    "git tag -l -a v9 -m x",
    "git tag -l -s v9 -m x",
    "git tag -l -v v0",
    "git tag -l -f v0",
    "git tag --list --delete v0",
    "git tag -n9",
    "git tag -l --sort=version:refname",
    "git blame --output=pwned victim",
    "git blame --out=pwned victim",
    "git rev-list --output=pwned HEAD",
    "git rev-list --all --output pwned",
    "git reflog show --output=pwned",
    "git reflog show -p --ext-diff",
    "git reflog show --format=%G?",
    "git stash list --output=pwned",
    "git stash list --show-signature",
    "git stash show -p --output=pwned stash@{0}",
    "git stash show --output=pwned",
    "git rev-parse --output=pwned HEAD",
    "git ls-files --output=pwned",
    "git cat-file --output=pwned -p HEAD",
    "git name-rev --output=pwned HEAD",
    "git describe --output=pwned",
    "git for-each-ref --output=pwned",
    "git grep --output=pwned v",
    "git check-attr --output=pwned -a victim",
    "git -P log -1",
    "git --no-pager --no-optional-locks status",
    "git -P -P diff",
    "git --no-optional-locks describe --dirty",
    "git --no-pager -c core.pager=x log",
    "git --no-pager --paginate log",
    "git -p log -1",
    "git --paginate status",
    "git --no-replace-objects log",
    "git --literal-pathspecs log",
    "git --bare log",
    "git --namespace=x log",
    "git --super-prefix=x log",
    "git --git-dir .git log",
    "git log --git-dir=.git",
    "git status --porcelain -- escape",
    "git ls-files -- escape",
    "git log -- ../outside",
    "git show HEAD:victim",
    "git show HEAD:escape",
    "git cat-file blob HEAD:escape",
]

#: Reads that may follow a link out of the project, or read a list of files to read.
OUTSIDE = [
    "grep -R OUTSIDE .",
    "grep -rR OUTSIDE .",
    "grep --dereference-recursive OUTSIDE .",
    "grep -r OUTSIDE escape",
    "grep -r OUTSIDE .",
    "grep -r OUTSIDE",
    "grep -R OUTSIDE",
    "grep -R OUTSIDE *",
    "grep OUTSIDE *",
    "grep OUTSIDE */*",
    "grep -h OUTSIDE -- escape/secret",
    "grep OUTSIDE esc?pe/secret",
    "grep OUTSIDE [e]scape/secret",
    "grep OUTSIDE -f escape/secret victim",
    "grep -f escape/secret victim",
    "grep --file=escape/secret victim",
    "grep -r --exclude-from=escape/secret x .",
    "rg -L OUTSIDE",
    "rg --follow OUTSIDE",
    "rg OUTSIDE escape",
    "rg -uuu OUTSIDE",
    "rg --files -L",
    "rg -f escape/secret victim",
    "rg --ignore-file escape/secret x",
    "cat link-secret",
    "cat dangling",
    "cat 0< escape/secret",
    "cat 3< escape/secret",
    "cat 0<link-secret",
    "cat <escape/secret -",
    "wc < /proc/self/root/etc/hostname",
    "cat < ~/keep",
    "cat < ../outside/secret",
    "diff -r . mirror",
    "diff --recursive . mirror",
    "diff -rq . mirror",
    "diff -Nr . mirror",
    "cmp escape/secret mirror/escape/secret",
    "sort --files0-from=list-out",
    "wc --files0-from=list-out",
    "du --files0-from=list-out",
    "md5sum -c sums-out",
    "file -f list-text",
    "tree --fromfile list-text",
    "file -mescape/secret victim",
    "file -m link-secret victim",
    "file -bmlink-secret victim",
    "grep -fescape/secret victim",
    "grep -flink-secret victim",
    "grep -nflink-secret victim",
    "grep -e x -flink-secret victim",
    "git blame -Sescape/secret victim",
    "git blame -Slink-secret victim",
    "git grep -flink-secret v",
    "git diff -Olink-secret HEAD~1",
    "rg -flink-secret victim",
    "date -r escape/secret",
    "date -rescape/secret",
    "date --reference=link-secret",
    "date -r link-secret +%s",
    "find -files0-from list-out",
    "find . -files0-from list-out",
    "sort -Tescape victim",
    "jq -Lescape -n 1",
    "jq -L escape -n 'include \"secret\"; 1'",
    "cat escape/secret",
    "cat ./escape//secret",
    "cat escape/./secret",
    "cat sub/../escape/secret",
    "cat /proc/self/cwd/escape/secret",
    "cat /proc/self/root/etc/hostname",
    "cat /proc/self/environ",
    "cat /proc/1/environ",
    "cat /dev/stdin < escape/secret",
    "cat - < escape/secret",
    "cat < escape/secret",
    "head < link-secret",
    "cat ~/.ssh/id_rsa",
    "cat ~root/.bashrc",
    "cat ~+/escape/secret",
    "cat /etc/passwd",
    "cat //etc/passwd",
    "cat $'escape/secret'",
    'cat "escape"/secret',
    "cat escape\\/secret",
    "cat {escape,x}/secret",
    "cat esc[a]pe/secret",
    "cat escape/secre?",
    "cat [^x]scape/secret",
    "cat es[[:alpha:]]ape/secret",
    "cat esc[[=a=]]pe/secret",
    "head [^a]ink-secret",
    "cat [!x]ink-secret",
    "cat l[^x]nk-secret victim",
    "grep -r OUTSIDE [^x]scape",
    "wc -c [[:lower:]]ink-secret",
    "cat */secret",
    "cat ?scape/*",
    "cat .*/secret",
    "head -c 100 escape/secret",
    "tail -c 100 link-secret",
    "find -L . -name secret",
    "find . -follow -name secret",
    "find -L . -type f -name secret -print",
    "find escape/ -name secret",
    "find . -maxdepth 2 -name secret -printf '%p'",
    "find . -lname '*' -printf '%l\\n'",
    "find -L . -name secret -fprint /dev/stderr",
    "du -L -a .",
    "du -a --dereference .",
    "du -aL .",
    "ls -L escape",
    "ls -RL .",
    "ls -lR --dereference .",
    "ls escape",
    "ls -l escape",
    "ls -d escape",
    "stat -L escape",
    "stat escape",
    "stat -L link-secret",
    "tree -l .",
    "tree --followlinks",
    "tree -l -f .",
    "file -L link-secret",
    "file link-secret",
    "file -f list",
    "file --files-from list",
    "diff -r . escape",
    "diff -r sub escape",
    "diff link-secret victim",
    "diff -r --no-dereference sub sub",
    "cmp link-secret victim",
    "wc -c link-secret",
    "wc --files0-from=list0",
    "du --files0-from=list0",
    "sort --files0-from=list0",
    "md5sum -c sums",
    "sha256sum -c sums --status",
    "md5sum link-secret",
    "strings link-secret",
    "od -c link-secret",
    "nl link-secret",
    "readlink link-secret",
    "readlink -f link-secret",
    "realpath escape",
    "git diff --no-index victim link-secret",
    "git grep --no-index OUTSIDE",
    "git grep --no-index -e OUTSIDE -- escape",
    "git ls-files -o escape",
    "git show HEAD:link-secret",
    "git blame --contents link-secret victim",
    "git log --all -p -- link-secret",
    "jq -R . link-secret",
    "jq -R . escape/secret",
    "jq -n --rawfile s link-secret '$s'",
    "jq -nR 'input' link-secret",
    "sed -n p link-secret",
    "sed -n 1p -- link-secret",
    "sed -s -n 1p victim link-secret",
    "tac link-secret",
    "cut -c1- link-secret",
    "column link-secret",
    "paste link-secret",
    "comm link-secret victim",
    "tsort link-secret",
    "hexdump -C link-secret",
    "expand link-secret",
    "date -f link-secret",
    "date -r link-secret",
    "echo $(<escape/secret)",
    'echo "$(< link-secret)"',
    "cat $(echo escape/secret)",
    "tree escape",
    "tree -a",
    "tree --fromfile list",
]

#: Parser confusions: quoting, escapes, continuations, look-alikes.
PARSER = [
    "ls\u00a0; touch pwned",
    "ls ;\u2028touch pwned",
    "ls \u037e touch pwned",
    "ls\u2024touch pwned",
    "ls \uff1b touch pwned",
    "ls\x00; touch pwned",
    "ls\rtouch pwned",
    "ls\r; touch pwned",
    "ls\x0btouch pwned",
    "ls\x0c; touch pwned",
    "ls #\\\ntouch pwned",
    "ls '#'\ntouch pwned",
    "echo \\#\ntouch pwned",
    "echo ${#}\ntouch pwned",
    "echo $#;touch pwned",
    "echo ${x#'}'}; touch pwned",
    "echo $'\\''; touch pwned",
    "echo '\\''; touch pwned",
    'echo "\\"; touch pwned"',
    'echo "$(echo ")"; touch pwned)"',
    "echo $(( 1 )); touch pwned",
    "echo $(( $(touch pwned) ))",
    "echo $[1+$(touch pwned)]",
    "echo $[ 1 ]",
    "echo ${x:-$(touch pwned)}",
    "echo ${x/$(touch pwned)/}",
    "echo ${x@P}",
    "x='$(touch pwned)'; echo ${x@P}",
    "echo ${!x}",
    "echo ${PS1@P}",
    'echo "${x:=`touch pwned`}"',
    'echo $"$(touch pwned)"',
    "echo <(touch pwned)",
    "echo >(touch pwned)",
    "cat <<EOF\n$(touch pwned)\nEOF",
    "cat <<'EOF'\n$(touch pwned)\nEOF",
    "cat <<EOF\n`touch pwned`\nEOF",
    "cat <<-EOF\n\t$(touch pwned)\n\tEOF",
    "cat <<EOF; touch pwned\nx\nEOF",
    "cat <<EOF\nx\nEOF\ntouch pwned",
    "cat << EOF\nEOF\n touch pwned",
    "cat <<\\EOF\nx\nEOF\ntouch pwned",
    "cat <<EOF\n${x:-$(touch pwned)}\nEOF",
    "cat <<< $(touch pwned)",
    "cat <<< `touch pwned`",
    "ls && (( x = 1 )) && touch pwned",
    "(( $(touch pwned) ))",
    "(( a[$(touch pwned)] ))",
    "[[ -v a[$(touch pwned)] ]]",
    "[[ x -eq a[$(touch pwned)] ]]",
    "test -v 'a[$(touch pwned)]'",
    "[ -v 'a[$(touch pwned)]' ]",
    "test 'a[$(touch pwned)]' -eq 1",
    "[ 'a[$(touch pwned)]' -gt 1 ]",
    "[[ 'a[$(touch pwned)]' -gt 1 ]]",
    "printf %d 'a[$(touch pwned)]'",
    "printf -v 'a[$(touch pwned)]' x",
    "printf '%(%s)T' 'a[$(touch pwned)]'",
    "expr 'a[$(touch pwned)]' + 1",
    "seq 'a[$(touch pwned)]'",
    "declare -i x; x='a[$(touch pwned)]'",
    "echo $((a[$(touch pwned)]))",
    "cd 'a[$(touch pwned)]'",
    "read -t 'a[$(touch pwned)]'",
    "sleep 'a[$(touch pwned)]'",
    "ulimit 'a[$(touch pwned)]'",
    "test -v a[\\$\\(touch\\ pwned\\)]",
    "[ -v 'x[`touch pwned`]' ]",
    "coproc ls",
    "coproc { touch pwned; }",
    "coproc x (touch pwned)",
    "function ls { touch pwned; }; ls",
    "function f { touch pwned; }",
    "ls() (touch pwned); ls",
    "cat() { touch pwned; }; cat victim",
    "shopt -s extglob; ls @(v*)",
    "shopt -s expand_aliases; alias cat='touch pwned'\ncat victim",
    "shopt -s globstar; ls **/secret",
    "shopt -s dotglob; cat */*",
    "set -o noglob; ls",
    "set -x; ls",
    "set -v",
    "set -e",
    "enable -n echo; echo x",
    "enable -f ./x.so x",
    "ls @(victim)",
    "ls !(x)",
    "cat **/secret",
    "ls {victim,sub}",
    "ls {1..3}",
    "echo {a..c}",
    "ls victim{,}",
    "ls -- {,-}exec",
    "echo {touch,pwned}",
    "{echo,x}",
    "{ls,-la}",
    "echo \\{touch,pwned\\}",
    "IFS=, ; ls",
    "ls ${IFS}touch${IFS}pwned",
    "echo ${IFS}",
    "ls $IFS",
    "ls${IFS}victim",
    "BASH_ENV=evil.sh bash -c ls",
    "ENV=evil.sh sh -c ls",
    "PROMPT_COMMAND='touch pwned' ls",
    "PS4='$(touch pwned)' ls",
    "LC_ALL='$(touch pwned)' ls",
    "LANG=`touch pwned` ls",
    "TZ=$(touch pwned) date",
    "TZ=../../../tmp/x date",
    "LC_ALL=C LANG=C ls",
    "COLUMNS=$(touch pwned) ls",
    "NO_COLOR=1 ls",
    "LC_ALL=victim ls",
    "LANGUAGE=x:y ls",
    "TZ=:escape/secret date",
    "LC_ALL=C.UTF-8 sort victim",
    "LC_MESSAGES=/tmp ls",
    "ls -la # $(touch pwned)",
    "ls -la #`touch pwned`",
    "ls -la #; touch pwned",
    "ls x#; touch pwned",
    "ls x\\#; touch pwned",
    "echo a#b",
    "ls &>/dev/null; touch pwned",
    "ls 2>&-; touch pwned",
    "ls >&2",
    "ls 2>&1 >/dev/null",
    "ls <&0",
    "ls 0<&-",
    "ls <> victim",
    "ls 3>&1 1>&2 2>&3",
    "ls 9>&1",
    "ls >/dev/stderr",
    "ls > /dev/null",
    "ls >/dev/fd/2",
    "ls >/dev/fd/1",
    "ls > /proc/self/fd/1",
    "ls 2>/dev/tty",
    "cat </dev/fd/0",
    "cat < /proc/self/fd/0",
    "cat /dev/fd/0 < escape/secret",
    "ls <<< x",
    "ls >| /dev/null",
    "ls &>> /dev/null",
    "ls 2>>/dev/null",
    "ls >/dev/null",
    "ls {fd}>/dev/null",
    "ls {fd}<victim",
    "exec {fd}<victim",
    "ls >& /dev/null",
    "ls 1>&3",
    "ls\\\n -la",
    "l\\\ns",
    "ls \\\n-la; touch pwned",
    "'ls' victim",
    '"ls" victim',
    "l's' victim",
    "\\ls victim",
    "$'ls' victim",
    '$"ls" victim',
    "ls$'\\n'touch pwned",
    "ls $'\\n'touch pwned",
    "ls $'x\\ny'",
    'ls "$(echo)"',
    "ls $(:)",
    "ls ``",
    "ls ''; touch pwned",
    "ls ;; touch pwned",
    "ls & ; touch pwned",
    "ls &; touch pwned",
    "ls |& cat",
    "ls |& touch pwned",
    "ls | cat | touch pwned",
    "ls ! touch pwned",
    "! ls",
    "time ! ls",
    "time -p -- ls",
    "ls &\ntouch pwned",
    "ls\t;\ttouch pwned",
    "wait; touch pwned",
    "ls; exit; touch pwned",
    "exit; touch pwned",
    "return 2>/dev/null; touch pwned",
    "[[ -e victim ]]",
    "[[ $(touch pwned) ]]",
    "[[ -e victim ]] && touch pwned",
    "(( 1 ))",
    "let x=1",
    "let 'a[$(touch pwned)]'",
    "ls " + "a" * 20000,
    "ls " + "x " * 5000 + "; touch pwned",
    "echo " + "$(" * 50 + "touch pwned" + ")" * 50,
    "echo " + "{" * 100 + "}" * 100,
    "ls " + "\\\n" * 200 + "; touch pwned",
]

#: A hostile project: what its own ``.git/config`` names must never run unasked.
HOSTILE = [
    "git status",
    "git status --short",
    "git status --porcelain",
    "git diff",
    "git diff HEAD~1",
    "git diff --stat",
    "git diff --cached",
    "git diff HEAD~1 -- victim",
    "git log -p -1",
    "git log -1",
    "git log --oneline",
    "git log --stat -1",
    "git show HEAD",
    "git show --stat HEAD",
    "git whatchanged -1",
    "git blame victim",
    "git grep v",
    "git grep --cached v",
    "git ls-files",
    "git ls-files -m",
    "git ls-files --others",
    "git describe --always --dirty",
    "git describe --always",
    "git stash list",
    "git stash show -p",
    "git branch",
    "git tag",
    "git rev-parse HEAD",
    "git cat-file -p HEAD:victim",
    "git check-attr -a victim",
    "git remote -v",
    "git shortlog -s HEAD",
    "git log -g",
    "git count-objects",
    "git version",
    "git --no-pager log -1",
    "git -P diff HEAD~1",
    "git cat-file --batch-all-objects --batch",
    "git cat-file --batch-all-objects --batch-check",
    "git rev-list --all --objects",
    "git log --all -p",
]


@pytest.mark.parametrize(
    "line", ["grep -r x .*", "cat .*/outside/secret", "ls .?", "cat .[.]/outside/secret"]
)
def test_a_glob_that_bash_before_5_2_matches_to_dotdot_asks(world: World, line: str) -> None:
    # bash before 5.2 (globskipdots) matches ``.*`` to ``..``; :mod:`glob` never does
    assert not allowed_unasked(line, world.project)


@pytest.mark.parametrize(
    "line",
    [
        "test -r escape/secret",
        "[ -e escape/secret ]",
        "test -f ../outside/secret",
        "[ -s ~/keep ]",
        "test -L link-secret -a -r escape/secret",
        "date -r escape/secret",
    ],
)
def test_what_a_file_outside_is_like_is_not_read_unasked(world: World, line: str) -> None:
    # whether it exists, its size or time: one bit at a time, still a read outside
    assert not allowed_unasked(line, world.project)


#: Lines that would reach the network (a DNS lookup): they must not run unasked.
NETWORK = [
    "hostname -f",
    "hostname --fqdn",
    "hostname -A",
    "hostname --all-fqdns",
    "hostname -d",
    "hostname -i",
    "hostname --ip-address",
    "hostname -I",
    "hostname -s",
    "hostname --long",
    "hostname -y",
]

ATTACKS = list(dict.fromkeys([*WRITES, *GIT, *OUTSIDE, *PARSER]))


#: What the hostile project's configuration runs: it leaves ``RAN`` beside the project.
HOSTILE_CONFIG = """\
[core]
\tfsmonitor = {ran}
\tpager = {ran}
\thooksPath = {hooks}
\tsshCommand = {ran}
[diff]
\texternal = {ran}
[diff "evil"]
\ttextconv = {ran}
\tcommand = {ran}
[filter "evil"]
\tclean = {ran}
\tsmudge = {ran}
\tprocess = {ran}
[pager]
\tlog = {ran}
\tdiff = {ran}
\tstatus = {ran}
[log]
\tshowSignature = true
[gpg]
\tprogram = {ran}
[status]
\tsubmoduleSummary = true
"""


class World:
    """A scratch project (a git repository) beside ``outside`` and HOME."""

    def __init__(self, root: Path, server: ConnectionCounter, *, hostile: str = "") -> None:
        self.root = root
        self.project = root / "project"
        self.outside = root / "outside"
        self.home = root / "home"
        self.server = server
        for folder in (self.project, self.outside, self.home, self.project / "sub"):
            folder.mkdir()
        (self.outside / "secret").write_text(f"{SECRET}\n")
        (self.home / "keep").write_text(f"{SECRET}\n")
        project = self.project
        (project / "victim").write_text("v1\nv2\nv3\n")
        (project / "sub" / "x").write_text("x\n")
        (project / "evil.sh").write_text(f"#!/bin/sh\ntouch {root}/RAN\ncat\n")
        (project / "evil.sh").chmod(0o755)
        (project / "data.json").write_text('{"a": 1}\n')
        (project / "lib.jq").write_text("def f: 1;\n")
        (project / "list").write_text("victim\n")
        (project / "list0").write_text("victim\0")
        (project / "list-out").write_text(f"{self.outside / 'secret'}\0")
        (project / "list-text").write_text(f"{self.outside / 'secret'}\n")
        (project / "sums-out").write_text(f"{'0' * 32}  {self.outside / 'secret'}\n")
        (project / "mirror" / "escape").mkdir(parents=True)
        (project / "mirror" / "escape" / "secret").write_text("mirror\n")
        (project / "sums").write_text(hashlib.md5(b"v1\nv2\nv3\n").hexdigest() + "  victim\n")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "LANG": "C",
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        for args in (
            ["init", "-q", "-b", "main"],
            ["config", "user.email", "t@example.com"],
            ["config", "user.name", "t"],
            ["add", "."],
            ["commit", "-qm", "one"],
            ["tag", "v0"],
        ):
            self.git(*args)
        (project / "victim").write_text("v1\nv2\nchanged\n")
        self.git("commit", "-qam", "two")
        self._signed_commit()
        (project / "victim").write_text("v1\nv2\nstashed\n")
        self.git("stash", "-q")  # one stash entry: ``git stash show`` has a diff to write
        # links out, made after the commits: untracked, as a hostile checkout would hold
        (project / "escape").symlink_to(self.outside)
        (project / "link-secret").symlink_to(self.outside / "secret")
        (project / "dangling").symlink_to(self.outside / "new")
        (project / "victim").write_text("v1\nv2\nchanged\nagain\n")  # a dirty tree
        self.git("status")  # a fresh index: a later status has nothing to refresh
        if hostile:
            getattr(self, f"_plant_{hostile}")()

    def _plant_config(self) -> None:
        self._plant()

    def _signed_commit(self) -> None:
        """A commit with a (bogus) signature: showing it may run gpg."""
        head = self.capture("cat-file", "commit", "HEAD")
        header, _, message = head.partition("\n\n")
        sig = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEz\n -----END PGP SIGNATURE-----"
        body = f"{header}\n{sig}\n\n{message}"
        out = subprocess.run(
            ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
            cwd=self.project,
            env=self.env,
            input=body,
            capture_output=True,
            text=True,
            check=True,
        )
        self.git("update-ref", "HEAD", out.stdout.strip())

    def _plant_bare(self) -> None:
        """The project itself looks like a bare repository: git reads ``./config``."""
        dot = self.project / ".git"
        shutil.rmtree(dot / "hooks")
        for entry in dot.iterdir():
            entry.rename(self.project / entry.name)
        dot.rmdir()
        with (self.project / "config").open("a") as file:
            file.write(HOSTILE_CONFIG.format(ran=self.project / "evil.sh", hooks="/nonexistent"))

    def _plant_gitfile(self) -> None:
        """``.git`` is a file naming a git directory elsewhere, whose config is hostile."""
        dot = self.project / ".git"
        dot.rename(self.outside / "real.git")
        dot.write_text(f"gitdir: {self.outside / 'real.git'}\n")
        with (self.outside / "real.git" / "config").open("a") as file:
            file.write(HOSTILE_CONFIG.format(ran=self.project / "evil.sh", hooks="/nonexistent"))

    def _plant_alternates(self) -> None:
        """Objects of another repository on disk, lent by ``objects/info/alternates``."""
        private = self.outside / "private"
        private.mkdir()
        env = {**self.env, "GIT_DIR": str(private / ".git"), "GIT_WORK_TREE": str(private)}
        (private / "notes").write_text(f"{SECRET}\n")
        who = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
        for args in (["init", "-q"], ["add", "notes"], [*who, "commit", "-qm", "private"]):
            subprocess.run(["git", *args], cwd=private, env=env, check=True)
        info = self.project / ".git" / "objects" / "info"
        info.mkdir(exist_ok=True)
        (info / "alternates").write_text(f"{private / '.git' / 'objects'}\n")

    def _plant(self) -> None:
        ran = self.project / "evil.sh"
        hooks = self.project / ".git" / "hooks"
        config = HOSTILE_CONFIG.format(ran=ran, hooks=hooks)
        with (self.project / ".git" / "config").open("a") as file:
            file.write(config)
        (self.project / ".gitattributes").write_text("* diff=evil filter=evil\n")
        for hook in ("post-index-change", "post-checkout", "reference-transaction"):
            (hooks / hook).write_text(f"#!/bin/sh\ntouch {self.root}/RAN\n")
            (hooks / hook).chmod(0o755)

    def git(self, *args: str) -> None:
        subprocess.run(["git", *args], cwd=self.project, env=self.env, check=True)

    def capture(self, *args: str) -> str:
        out = subprocess.run(
            ["git", *args], cwd=self.project, env=self.env, capture_output=True, text=True
        )
        return out.stdout

    def snapshot(self) -> dict[str, tuple[object, ...]]:
        """Every path under the root: a file's mode, size, mtime and content."""
        seen: dict[str, tuple[object, ...]] = {}
        for folder, dirs, files in os.walk(self.root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                if path == str(self.project / ".git" / "index"):
                    # ``git status`` refreshes the index's stat cache: compare the entries
                    seen[path] = (self.capture("ls-files", "--stage"),)
                    continue
                seen[path] = file_state(path)
            seen[folder] = (os.lstat(folder).st_mode,)
        return seen

    def run(self, line: str) -> str:
        out = subprocess.run(
            ["bash", "-c", line],
            cwd=self.project,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=10,
            check=False,
        )
        return (out.stdout + out.stderr).decode(errors="replace")


def allowed_unasked(line: str, cwd: Path) -> bool:
    """Whether default or plan mode runs ``line`` without asking (no rule)."""
    rules = PermissionRules.from_lists((), (), ())
    for mode in ("default", "plan"):
        check = check_permission(mode, rules, "bash", {"command": line}, str(cwd))
        if check.decision == "allow" and check.rule is None:
            return True
    return False


def judge(world: World, line: str) -> None:
    """Run ``line`` when it runs unasked; it must change nothing and show nothing outside."""
    line = line.replace("{port}", str(world.server.port))
    if not allowed_unasked(line, world.project):
        return
    before = world.snapshot()
    hits = world.server.hits
    output = world.run(line)
    after = world.snapshot()
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"{line!r} runs unasked but changed {changed}"
    assert world.server.hits == hits, f"{line!r} runs unasked but reached the server"
    assert SECRET not in output, f"{line!r} runs unasked but showed a file outside"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("fresh"), ConnectionCounter())


HOSTILE_KINDS = ["config", "bare", "gitfile", "alternates"]


@pytest.fixture(scope="module", params=HOSTILE_KINDS)
def hostile(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> World:
    kind = str(request.param)
    return World(tmp_path_factory.mktemp(f"hostile-{kind}"), ConnectionCounter(), hostile=kind)


def test_the_set_is_large() -> None:
    assert len(ATTACKS) + len(HOSTILE) * len(HOSTILE_KINDS) + len(NETWORK) >= 300


@pytest.mark.parametrize("line", ATTACKS)
def test_an_allowed_line_changes_nothing(world: World, line: str) -> None:
    judge(world, line)


@pytest.mark.parametrize("line", HOSTILE)
def test_a_hostile_repository_runs_nothing(hostile: World, line: str) -> None:
    judge(hostile, line)


@pytest.mark.parametrize("line", NETWORK)
def test_a_lookup_does_not_run_unasked(world: World, line: str) -> None:
    assert not allowed_unasked(line, world.project)


#: Plain reads that must still run unasked in the plain project (and change nothing).
READS = [
    "git status",
    "git log -1 --format=%H",
    "git diff HEAD~1",
    "git show --stat HEAD",
    "git branch --format='%(refname)'",
    "grep -r v .",
    "grep -rn v sub",
    "ls -R",
    "ls -L victim",
    "du -sh .",
    "cat < victim",
    "md5sum victim",
    "diff victim sub/x",
    "find . -name x",
    "wc -l victim",
    "sort victim",
    "ls -a",
]


@pytest.mark.parametrize("line", READS)
def test_a_plain_read_still_runs_unasked(world: World, line: str) -> None:
    assert allowed_unasked(line, world.project), line
    judge(world, line)


@pytest.mark.xfail(
    strict=True,
    reason="a hard link in the project to a file outside reads as a project file: "
    "no path says where its data lives; only the kernel sandbox holds it",
)
def test_a_hard_link_out_is_not_read(world: World) -> None:
    link = world.project / "hard-secret"
    os.link(world.outside / "secret", link)
    try:
        judge(world, "cat hard-secret")
    finally:
        link.unlink()


@pytest.mark.parametrize(
    "line",
    ["cat /proc/self/cwd/victim", "ls /proc/thread-self/cwd/", "cat /dev/fd/0", "cat /dev/stdin"],
)
def test_a_path_of_this_process_is_not_read_unasked(
    world: World, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # checked, ``/proc/self/cwd`` is this process's folder; run, the command's
    monkeypatch.chdir(world.project)
    assert not allowed_unasked(line, world.project / "sub")
