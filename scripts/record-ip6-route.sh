#!/usr/bin/env bash
# Records what iproute2 prints for the IPv6 routing table of a dual-stack Calico node: the state of
# fixture kubeadm-calico-dualstack's cka-cp1 (enp1s0 with fd00:192:168:122::11/64 and a static
# default route, vxlan.calico, vxlan-v6.calico holding its block's first address as a /128, the
# blackhole of its own /122 and the onlink routes to the workers' /122 blocks) rebuilt with veths in
# a network namespace. Needs root and iproute2. Output: src/shell/commands/node/testdata/ip6-route-cp1.txt
set -euo pipefail
ns=cka-ip6-route; peer=cka-ip6-peer
ip netns del $ns 2>/dev/null || true; ip netns del $peer 2>/dev/null || true
ip netns add $ns; ip netns add $peer
trap 'ip netns del $ns; ip netns del $peer' EXIT
i=0
for dev in enp1s0 vxlan.calico vxlan-v6.calico; do
  ip link add $dev netns $ns type veth peer name p$i netns $peer
  ip -n $peer link set p$i up
  i=$((i + 1))
done
ip -n $ns link set lo up
ip -n $ns link set enp1s0 up
ip -n $ns link set vxlan.calico mtu 1450 up
ip -n $ns link set vxlan-v6.calico mtu 1430 up
ip -n $ns addr add 192.168.122.11/24 dev enp1s0
ip -n $ns -6 addr add fd00:192:168:122::11/64 dev enp1s0 nodad
ip -n $ns addr add 10.244.212.128/32 dev vxlan.calico
ip -n $ns -6 addr add fd00:10:244:d4::80/128 dev vxlan-v6.calico nodad
ip -n $ns -6 route add default via fd00:192:168:122::1 dev enp1s0 proto static
ip -n $ns -6 route add blackhole fd00:10:244:d4::80/122 proto 80
ip -n $ns -6 route add fd00:10:244:5f::80/122 via fd00:10:244:5f::80 dev vxlan-v6.calico onlink proto 80
ip -n $ns -6 route add fd00:10:244:3e::80/122 via fd00:10:244:3e::80 dev vxlan-v6.calico onlink proto 80
sleep 1
ip -n $ns -6 route
