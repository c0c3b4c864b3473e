#!/usr/bin/env bash
# Records dash-interactive.txt: the lines of dash-interactive-input.txt typed into an interactive
# dash 0.5.12 run as `sh -i` on a pseudo-terminal (util-linux script), as `kubectl exec -it POD --
# sh` starts it in a Debian-based image: each `# ` prompt, then what the line printed. The input
# is sent after `stty -echo` has run, so the terminal does not echo it;
# carriage returns removed; the shell's exit status last.
# Usage: bash src/shell/commands/pod/testdata/record-dash-interactive.sh > src/shell/commands/pod/testdata/dash-interactive.txt
here=$(cd "$(dirname "$0")" && pwd)
(sleep 1; cat "$here/dash-interactive-input.txt") |
  script -eqc 'stty -echo; cd / && exec env -i PATH=/usr/bin:/bin HOME=/root sh -i' /dev/null | tr -d '\r'
echo "[exit ${PIPESTATUS[1]}]"
