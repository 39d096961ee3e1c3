//go:build windows

package lan

import "syscall"

// reusePort lets the listener share the announcement port with the game, the
// way the game's own MulticastSocket does: SO_REUSEADDR.
func reusePort(network, address string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(syscall.Handle(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	})
	if err != nil {
		return err
	}
	return serr
}
