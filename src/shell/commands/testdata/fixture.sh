# Creates the files the GNU transcript cases run against (sourced by record.sh; mirrored by
# gnu.test.ts in a Vfs). Keep the two in sync.
mkdir -p d/sub
printf 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n' > n.txt
printf 'alpha\nbeta two\n' > m.txt
printf 'b 2\na 10\nc 1\nb 2\n' > s.txt
printf 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n' > passwd
printf 'NAME READY STATUS RESTARTS AGE\nweb-1 1/1 Running 0 5m\nweb-2 0/1 CrashLoopBackOff 7 5m\ndb-0 1/1 Running 2 1h\n' > pods.txt
printf 'x\n' > d/x
printf 'hello world\n' > d/sub/y
printf 'no newline' > nonl.txt
printf '%s\n' '{"items":[{"metadata":{"name":"a","labels":{"app":"web"}},"status":{"phase":"Running"}},{"metadata":{"name":"b"},"status":{"phase":"Pending"}}]}' > p.json
