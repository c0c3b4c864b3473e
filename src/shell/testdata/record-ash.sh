#!/usr/bin/env bash
# Records ash-syntax.txt (or the file the cases name): each line of ash-syntax-cases.txt (or of the
# cases file named as the first argument) run by the real BusyBox ash, as a busybox image runs it:
# every applet linked into a scratch bin directory (`busybox --install -s`) that is the whole PATH,
# so `sh` is ash itself, and the case run by `sh -c` in an empty scratch directory, stdout and
# stderr merged, then the exit status. Recorded with Debian's busybox 1:1.35.0-4+deb12u1
# (`apt-get install busybox`); ash's parser and its messages (shell/ash.c) are those of the 1.36.1
# the simulated busybox image claims.
# Usage: bash src/shell/testdata/record-ash.sh > src/shell/testdata/ash-syntax.txt
#        bash src/shell/testdata/record-ash.sh busybox-bytes-cases.txt > src/shell/testdata/busybox-bytes.txt
#        bash src/shell/testdata/record-ash.sh ash-errors-cases.txt > src/shell/testdata/ash-errors.txt
#        bash src/shell/testdata/record-ash.sh busybox-size-suffix-cases.txt > src/shell/testdata/busybox-size-suffix.txt
#        BUSYBOX=/tmp/x/usr/bin/busybox bash src/shell/testdata/record-ash.sh busybox-builtins-cases.txt > src/shell/testdata/busybox-builtins.txt
#        BUSYBOX=/tmp/bb/busybox bash src/shell/testdata/record-ash.sh busybox-toolbox-cases.txt > src/shell/testdata/busybox-toolbox.txt
# busybox-toolbox.txt was recorded with busybox 1.36.1 built from the 1_36_1 tag with `make
# defconfig && make` (the busybox image's configuration; the binary must be named busybox):
# Ubuntu's 1.36.1 lacks find's -delete and top's -m/SMP lines that defconfig turns on.
# BUSYBOX names another busybox binary: busybox-builtins.txt was recorded with Ubuntu 24.04's
# busybox-static 1:1.36.1-6ubuntu3.1 (`apt-get download busybox-static` from noble-updates,
# `dpkg-deb -x`), the version the simulated busybox image claims.
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d /tmp/cka-ash-bin.XXXXXX)
"${BUSYBOX:-busybox}" --install -s "$bin"
while IFS= read -r c; do
  root=$(mktemp -d /tmp/cka-ash.XXXXXX)
  out=$(cd "$root" && env -i HOME=/root PATH="$bin" sh -c "$c" 2>&1 </dev/null; echo "[exit $?]")
  rm -rf "$root"
  printf '$ %s\n%s\n' "$c" "$out"
done < "$here/${1:-ash-syntax-cases.txt}"
rm -rf "$bin"
