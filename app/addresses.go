package app

import (
	"net"
	"slices"
	"strconv"
)

// lanHosts are the HOST:PORTs others on the network can join at: one per
// non-loopback interface address, IPv4 first. Link-local IPv6 addresses
// are left out: browsers cannot open them without a zone.
func lanHosts(addrs []net.Addr, port int) []string {
	var v4, v6 []string
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok || ipnet.IP.IsLoopback() || ipnet.IP.IsLinkLocalUnicast() || ipnet.IP.IsLinkLocalMulticast() {
			continue
		}
		u := net.JoinHostPort(ipnet.IP.String(), strconv.Itoa(port))
		if ipnet.IP.To4() != nil {
			v4 = append(v4, u)
		} else {
			v6 = append(v6, u)
		}
	}
	return slices.Concat(v4, v6)
}

func interfaceAddrs() []net.Addr {
	addrs, _ := net.InterfaceAddrs()
	return addrs
}
