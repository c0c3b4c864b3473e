#!/usr/bin/env bash
# Records child-shells.txt: each line of child-shell-cases.txt (or of the cases file named as the
# first argument) run by the real bash 5.2 (and dash as sh) on this machine in an empty scratch directory, stdout and stderr merged, then the exit
# status. Unlike commands/testdata/record.sh nothing is stripped: these are the errors of the
# child shell the case starts (`bash: line 1:`, `NAME: -c: line N:`, dash's `sh: N:`).
# A case may write files (scripts to run or source) in its scratch directory; it is removed after.
# Usage: bash src/shell/testdata/record-child-shells.sh > src/shell/testdata/child-shells.txt
#        bash src/shell/testdata/record-child-shells.sh gnu-toolbox-cases.txt > src/shell/testdata/gnu-toolbox.txt
#        bash src/shell/testdata/record-child-shells.sh ansi-c-cases.txt > src/shell/testdata/ansi-c.txt
#        bash src/shell/testdata/record-child-shells.sh quoting-cases.txt > src/shell/testdata/quoting.txt
#        bash src/shell/testdata/record-child-shells.sh sourced-cases.txt > src/shell/testdata/sourced.txt
#        bash src/shell/testdata/record-child-shells.sh dash-bashisms-cases.txt > src/shell/testdata/dash-bashisms.txt
#        bash src/shell/testdata/record-child-shells.sh ifs-cases.txt > src/shell/testdata/ifs.txt
#        bash src/shell/testdata/record-child-shells.sh bytes-cases.txt > src/shell/testdata/bytes.txt
#        bash src/shell/testdata/record-child-shells.sh byte-tools-cases.txt > src/shell/testdata/byte-tools.txt
#        bash src/shell/testdata/record-child-shells.sh dash-options-cases.txt > src/shell/testdata/dash-options.txt
#        bash src/shell/testdata/record-child-shells.sh bash-unfinished-cases.txt > src/shell/testdata/bash-unfinished.txt
#        bash src/shell/testdata/record-child-shells.sh size-suffix-cases.txt > src/shell/testdata/size-suffix.txt
here=$(cd "$(dirname "$0")" && pwd)
while IFS= read -r c; do
  root=$(mktemp -d /tmp/cka-child-shells.XXXXXX)
  out=$(cd "$root" && env -i HOME=/root PATH=/usr/bin:/bin LC_ALL=C.UTF-8 bash --norc -c "$c" 2>&1 </dev/null; echo "[exit $?]")
  rm -rf "$root"
  printf '$ %s\n%s\n' "$c" "$out"
done < "$here/${1:-child-shell-cases.txt}"
