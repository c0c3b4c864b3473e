// Recording server for cka-lab's DNS truncation goldens (not shipped): answers like CoreDNS's
// kubernetes plugin (AA, records from a table) and writes through CoreDNS v1.13's ScrubWriter
// logic (request.SizeAndDo + request.Scrub: Truncate to the client's size, compress over 1480).
package main

import (
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/miekg/dns"
)

var zone = map[string][]dns.RR{}

func add(s string) {
	rr, err := dns.NewRR(s)
	if err != nil {
		panic(err)
	}
	k := strings.ToLower(rr.Header().Name) + "/" + dns.TypeToString[rr.Header().Rrtype]
	zone[k] = append(zone[k], rr)
}

// exists: the name owns records of some type (NODATA rather than NXDOMAIN for the others).
func exists(name string) bool {
	for k := range zone {
		if strings.HasPrefix(k, name+"/") {
			return true
		}
	}
	return false
}

func size(w dns.ResponseWriter, r *dns.Msg) int {
	if _, ok := w.RemoteAddr().(*net.TCPAddr); ok {
		return dns.MaxMsgSize
	}
	s := 0
	if o := r.IsEdns0(); o != nil {
		s = int(o.UDPSize())
	}
	if s < dns.MinMsgSize {
		s = dns.MinMsgSize
	}
	return s
}

func handle(w dns.ResponseWriter, r *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(r)
	m.Authoritative = true
	q := r.Question[0]
	name := strings.ToLower(q.Name)
	if rrs, ok := zone[name+"/CNAME"]; ok && q.Qtype != dns.TypeCNAME {
		for _, rr := range rrs {
			c := dns.Copy(rr)
			c.Header().Name = q.Name
			m.Answer = append(m.Answer, c)
			name = strings.ToLower(rr.(*dns.CNAME).Target)
		}
	}
	rrs, ok := zone[name+"/"+dns.TypeToString[q.Qtype]]
	if !ok && len(m.Answer) == 0 && !exists(name) {
		m.Rcode = dns.RcodeNameError
	}
	for _, rr := range rrs {
		c := dns.Copy(rr)
		if len(m.Answer) == 0 {
			c.Header().Name = q.Name
		}
		m.Answer = append(m.Answer, c)
	}
	// request.SizeAndDo: echo the OPT (COOKIE kept, as supportedOptions keeps it)
	if o := r.IsEdns0(); o != nil {
		o2 := dns.Copy(o).(*dns.OPT)
		o2.Hdr.Ttl &= 0xff00
		m.Extra = append(m.Extra, o2)
	}
	before := m.Len()
	// request.Scrub
	m.Truncate(size(w, r))
	if !m.Compress {
		if _, udp := w.RemoteAddr().(*net.UDPAddr); udp && m.Len() > 1480 {
			m.Compress = true
		}
	}
	fmt.Fprintf(os.Stderr, "%s %s %s size=%d before=%d tc=%v answers=%d compress=%v len=%d\n", w.RemoteAddr().Network(), q.Name, dns.TypeToString[q.Qtype], size(w, r), before, m.Truncated, len(m.Answer), m.Compress, m.Len())
	w.WriteMsg(m)
}

func main() {
	for i := 1; i <= 100; i++ {
		add(fmt.Sprintf("big.default.svc.cluster.local. 30 IN A 10.244.%d.%d", 1+i/250, i%250))
	}
	for i := 1; i <= 30; i++ {
		add(fmt.Sprintf("mid.default.svc.cluster.local. 30 IN A 10.244.2.%d", i))
	}
	for i := 1; i <= 40; i++ {
		add(fmt.Sprintf("many.corp.example. 300 IN A 192.0.2.%d", i))
	}
	add("ext.default.svc.cluster.local. 30 IN CNAME many.corp.example.")
	addr := os.Args[1]
	dns.HandleFunc(".", handle)
	go func() { panic((&dns.Server{Addr: addr, Net: "udp"}).ListenAndServe()) }()
	panic((&dns.Server{Addr: addr, Net: "tcp"}).ListenAndServe())
}
