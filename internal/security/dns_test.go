package security_test

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"strings"
	"testing"
)

// useZone points the process's resolver (net.DefaultResolver, which the
// in-process API uses) at a name server that knows only zone, for the rest
// of t: a test can make a name resolve to a private address without the
// network. Not for parallel tests.
func useZone(t *testing.T, zone map[string][]netip.Addr) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if resp := answerDNS(buf[:n], zone); resp != nil {
				pc.WriteTo(resp, from)
			}
		}
	}()
	saved := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
	t.Cleanup(func() {
		net.DefaultResolver = saved
		pc.Close()
	})
}

// DNS wire constants (RFC 1035 section 4.1, RFC 3596 for AAAA).
const (
	dnsTypeA     = 1
	dnsTypeAAAA  = 28
	dnsClassIN   = 1
	dnsResponse  = 0x8180 // QR, RD, RA, NOERROR
	dnsNXDomain  = 3
	dnsHeaderLen = 12
)

// answerDNS answers a one-question query from zone: the name's A or AAAA
// records, or NXDOMAIN for a name not in zone. A malformed query gets no
// answer. The standard library has no DNS message packer and this is the
// whole of what the test needs, so it is written out rather than adding
// golang.org/x/net to the module for it.
func answerDNS(q []byte, zone map[string][]netip.Addr) []byte {
	if len(q) < dnsHeaderLen {
		return nil
	}
	i := dnsHeaderLen
	var labels []string
	for i < len(q) && q[i] != 0 {
		l := int(q[i])
		if l > 63 || i+1+l >= len(q) {
			return nil
		}
		labels = append(labels, string(q[i+1:i+1+l]))
		i += 1 + l
	}
	if i+5 > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[i+1:])
	questionEnd := i + 5
	addrs, known := zone[strings.ToLower(strings.Join(labels, "."))]

	resp := append([]byte(nil), q[:questionEnd]...)
	flags := uint16(dnsResponse)
	if !known {
		flags |= dnsNXDomain
	}
	binary.BigEndian.PutUint16(resp[2:], flags)
	binary.BigEndian.PutUint16(resp[4:], 1) // the question
	binary.BigEndian.PutUint16(resp[8:], 0)
	binary.BigEndian.PutUint16(resp[10:], 0) // the query's EDNS record is not echoed
	answers := 0
	for _, a := range addrs {
		if (qtype == dnsTypeA && a.Is4()) || (qtype == dnsTypeAAAA && a.Is6()) {
			ip := a.AsSlice()
			resp = append(resp, 0xc0, dnsHeaderLen) // the name: a pointer to the question's
			resp = binary.BigEndian.AppendUint16(resp, qtype)
			resp = binary.BigEndian.AppendUint16(resp, dnsClassIN)
			resp = binary.BigEndian.AppendUint32(resp, 60) // TTL
			resp = binary.BigEndian.AppendUint16(resp, uint16(len(ip)))
			resp = append(resp, ip...)
			answers++
		}
	}
	binary.BigEndian.PutUint16(resp[6:], uint16(answers))
	return resp
}
