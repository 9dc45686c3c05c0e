package app

import (
	"net"
	"strconv"

	"lanchat/backend/discovery"
)

// joinAddresses sorts this machine's interface addresses into the URLs
// others on the network can join at (reach) and those they cannot because
// the server is bound elsewhere (unreachable: listed so the host sees why,
// e.g. with --addr 127.0.0.1:PORT), from discovery.LANIPs.
func joinAddresses(addrs []net.Addr, bound *net.TCPAddr, scheme string) (reach, unreachable []string) {
	for _, ip := range discovery.LANIPs(addrs) {
		u := scheme + net.JoinHostPort(ip.String(), strconv.Itoa(bound.Port))
		if bound.IP.IsUnspecified() || bound.IP.Equal(ip) {
			reach = append(reach, u)
		} else {
			unreachable = append(unreachable, u)
		}
	}
	return reach, unreachable
}

func interfaceAddrs() []net.Addr {
	addrs, _ := net.InterfaceAddrs()
	return addrs
}
