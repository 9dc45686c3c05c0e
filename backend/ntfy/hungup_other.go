//go:build !unix

package ntfy

import "net"

// hungUp cannot peek here: the next keepalive's write finds out instead.
func hungUp(net.Conn) bool { return false }
