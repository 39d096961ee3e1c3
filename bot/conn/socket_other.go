//go:build !linux

package conn

import "net"

// detach returns the connection as it is: elsewhere than Linux, reads and
// writes go through the runtime's poller (see socket_linux.go), and a
// session reads packets as they come.
func detach(nc net.Conn) socket { return nc }
