#!/usr/bin/env bash
# Records gnu.txt: every case of cases.txt run by the real bash and GNU tools on this machine in
# a fresh copy of fixture.sh's files (HOME=/root, cwd /tmp/cka-gnu/w, stdout and stderr merged,
# bash's non-interactive `-c: line 1:` error prefix removed).
# Usage: bash src/shell/commands/testdata/record.sh > src/shell/commands/testdata/gnu.txt
here=$(cd "$(dirname "$0")" && pwd)
cases=()
buf=''
while IFS= read -r line; do
  if [[ -n $buf ]]; then buf+=$'\n'"$line"; else buf=$line; fi
  # Multi-line cases: heredocs until their terminator, trailing backslash, open double quote.
  if [[ $buf == *'<<'* && $buf != *'<<<'* ]]; then
    last=${buf##*$'\n'}
    if [[ ${last#"${last%%[!$'\t']*}"} != EOF ]]; then continue; fi
  fi
  if [[ $buf == *'\' ]]; then continue; fi
  q=${buf//[^\"]/}; if (( ${#q} % 2 == 1 )); then continue; fi
  cases+=("$buf"); buf=''
done < "$here/cases.txt"
for c in "${cases[@]}"; do
  root=/tmp/cka-gnu; rm -rf "$root"; mkdir -p "$root/w"
  (cd "$root/w" && source "$here/fixture.sh")
  out=$(cd "$root/w" && timeout 5 env -i HOME=/root PATH=/usr/bin:/bin LC_ALL=C.UTF-8 bash --norc -O expand_aliases -c "$c" 2>&1 </dev/null; echo "[exit $?]")
  rm -rf "$root"
  # Interactive bash words errors without the `-c: line N:` part and does not echo the line.
  out=$(printf '%s\n' "$out" | sed -e '/^bash: -c: line [0-9]*: `/d' -e 's/^bash: -c: line [0-9]*: /bash: /' -e 's/^bash: line [0-9]*: /bash: /')
  printf '$ %s\n%s\n' "${c//$'\n'/$'\n> '}" "$out"
done
