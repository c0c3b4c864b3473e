#!/bin/sh
# Records how real DNS clients meet a truncated answer (the TC bit), for the goldens under
# src/sim/dns/clients/testdata/tc/. Needs root and Debian bookworm's packages:
#   apt-get install -y bind9-dnsutils busybox golang-go golang-github-miekg-dns-dev
# The server (main.go) answers like CoreDNS's kubernetes plugin and writes through CoreDNS v1.13's
# ScrubWriter logic, with miekg/dns 1.1.50's Msg.Truncate. It listens on 10.96.0.10:53 (UDP and TCP)
# inside a network namespace whose /etc/resolv.conf is a pod's (ip netns exec bind-mounts
# /etc/netns/NAME/resolv.conf), so the clients print what they print in a pod.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../src/sim/dns/clients/testdata/tc
build=$(mktemp -d)
cp "$here/main.go" "$build/"
(cd "$build" && GOPATH=/usr/share/gocode GO111MODULE=off go build -o server .)
ns=cka-tc
ip netns del $ns 2>/dev/null || true
ip netns add $ns
ip -n $ns link set lo up
ip -n $ns addr add 10.96.0.10/32 dev lo
mkdir -p /etc/netns/$ns
printf 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n' >/etc/netns/$ns/resolv.conf
ip netns exec $ns "$build/server" 10.96.0.10:53 2>"$build/server.log" &
srv=$!
sleep 1
run() { name=$1; shift; ip netns exec $ns "$@" >"$out/$name.txt" 2>&1 || echo "exit $?" >>"$out/$name.txt"; }
run dig-big dig big.default.svc.cluster.local
run dig-big-ignore dig +ignore big.default.svc.cluster.local
run dig-big-tcp dig +tcp big.default.svc.cluster.local
run dig-mid-noedns dig +noedns mid.default.svc.cluster.local
run dig-mid-short-noedns dig +short +noedns mid.default.svc.cluster.local
run dig-mid dig mid.default.svc.cluster.local
run host-mid host mid.default.svc.cluster.local
run host-t-a-mid host -t A mid.default.svc.cluster.local
run host-v-a-mid host -v -t A mid.default.svc.cluster.local
run nslookup-mid nslookup mid.default.svc.cluster.local
run busybox-nslookup-mid busybox nslookup mid.default.svc.cluster.local
run getent-ahostsv4-mid getent ahostsv4 mid.default.svc.cluster.local
run getent-hosts-big getent hosts big.default.svc.cluster.local
# TCP to the server dropped (as when the kube-dns Service lost its TCP port): each client's words
# and exit status after a truncated answer, and with TCP from the start
ip netns exec $ns iptables -A INPUT -p tcp --dport 53 -j DROP
run nslookup-mid-tcp-dropped nslookup mid.default.svc.cluster.local
run nslookup-vc-mid-tcp-dropped nslookup -vc mid.default.svc.cluster.local
run dig-mid-noedns-tcp-dropped dig +noedns mid.default.svc.cluster.local
run dig-tcp-mid-tcp-dropped dig +tcp mid.default.svc.cluster.local
run host-mid-tcp-dropped host mid.default.svc.cluster.local
kill $srv
cp "$build/server.log" "$out/server-log.txt"
ip netns del $ns
rm -rf /etc/netns/$ns "$build"
