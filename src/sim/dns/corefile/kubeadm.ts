/**
 * The Corefiles kubeadm writes (cmd/kubeadm/app/phases/addons/dns/manifests.go CoreDNSConfigMap,
 * DNSDomain cluster.local): the current template with the cache block (seed 000, kubeadm v1.35)
 * and the older plain `cache 30` form the reference's error-table line numbers refer to.
 */
export const DEFAULT_COREFILE_SEED000 = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`;

export const KUBEADM_COREFILE_PLAIN_CACHE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;

/** kubeadm's Corefile for a cluster domain (same template). */
export function kubeadmCorefile(domain = 'cluster.local'): string {
  return DEFAULT_COREFILE_SEED000.replace(/cluster\.local/g, domain);
}
