package tools

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// blockedPrefixes are ranges netip has no predicate for that web_fetch
// must not reach either: CGNAT (a provider's inside), "this network",
// reserved and broadcast, benchmarking, IETF protocol assignments, the
// 6to4 relay anycast; in IPv6, the whole reserved ::/8 (IPv4-compatible
// ::a.b.c.d, SIIT ::ffff:0:a.b.c.d and every other spelling there; the
// mapped ::ffff:a.b.c.d is unmapped first, and NAT64's 64:ff9b::/96,
// inside it, is judged by the IPv4 address it embeds), local-use NAT64, discard-only,
// IETF protocol assignments (Teredo, ORCHID, benchmarking), documentation,
// SRv6 and site-local.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.88.99.0/24"),
	netip.MustParsePrefix("::/8"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001::/23"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("3fff::/20"),
	netip.MustParsePrefix("5f00::/16"),
	netip.MustParsePrefix("fec0::/10"),
}

// nat64 embeds an IPv4 address in its last four bytes; 6to4 in bytes
// two to five. Either can spell a private IPv4 address in IPv6, and so
// can an ISATAP interface identifier (…:0:5efe:a.b.c.d or …:200:5efe:…)
// under any prefix.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// privateAddr reports whether addr is loopback, private, link-local,
// CGNAT, multicast, unspecified, an IPv6 ULA or another range that is not
// the public internet, however it is spelled (IPv4-mapped or -compatible,
// NAT64, 6to4, ISATAP).
func privateAddr(addr netip.Addr) bool {
	addr = addr.Unmap().WithZone("")
	switch {
	case !addr.IsValid(), addr.IsLoopback(), addr.IsPrivate(), addr.IsUnspecified(),
		addr.IsLinkLocalUnicast(), addr.IsLinkLocalMulticast(), addr.IsInterfaceLocalMulticast(), addr.IsMulticast():
		return true
	}
	b := addr.As16()
	if nat64.Contains(addr) {
		return privateAddr(netip.AddrFrom4([4]byte(b[12:16])))
	}
	for _, p := range blockedPrefixes {
		if p.Contains(addr) {
			return true
		}
	}
	if addr.Is4() {
		return false
	}
	switch {
	case sixTo4.Contains(addr):
		return privateAddr(netip.AddrFrom4([4]byte(b[2:6])))
	case (b[8]|0x02) == 0x02 && b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe:
		return privateAddr(netip.AddrFrom4([4]byte(b[12:16])))
	}
	return false
}

// fetchGuard decides at dial time, on the address actually connected to,
// so a name that resolves (or re-resolves, or redirects) to a private
// address is refused however the URL spelled it.
type fetchGuard struct {
	allowPrivate bool
	// exempt lets tests serve from one loopback address while the guard
	// still refuses every other.
	exempt netip.Prefix
}

// check refuses a private address unless allowed.
func (g fetchGuard) check(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("web_fetch: unexpected dial address %q", address)
	}
	ip := ap.Addr().Unmap()
	if g.allowPrivate || (g.exempt.IsValid() && g.exempt.Contains(ip)) || !privateAddr(ip) {
		return nil
	}
	return fmt.Errorf("web_fetch refuses %s: a loopback, private or local address (set allow_private = true under [web_fetch] in your user config to allow it)", ip)
}

// Network bounds of one fetch.
const (
	fetchDialTimeout   = 10 * time.Second
	fetchHeaderTimeout = 20 * time.Second
	maxFetchRedirects  = 5
)

// client builds the HTTP client of one fetch: no proxy (a proxy would be
// the only address checked), no cookies, no credentials, every connection
// checked by the guard, at most maxFetchRedirects redirects over http(s).
func (g fetchGuard) client() *http.Client {
	dialer := &net.Dialer{
		Timeout: fetchDialTimeout,
		Control: func(_, address string, _ syscall.RawConn) error { return g.check(address) },
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    fetchDialTimeout,
		ResponseHeaderTimeout:  fetchHeaderTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      true,
		ForceAttemptHTTP2:      true,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxFetchRedirects {
				return fmt.Errorf("web_fetch: more than %d redirects", maxFetchRedirects)
			}
			if err := checkFetchURL(req.URL.String()); err != nil {
				return err
			}
			if !strings.EqualFold(req.URL.Hostname(), via[0].URL.Hostname()) {
				// Another host is another call: the permission rules name
				// hosts (web_fetch(domain:…)), so one they allow must not
				// lead to one they do not. Run tells the model where to.
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}
