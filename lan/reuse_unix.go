//go:build unix

package lan

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// reusePort lets the listener share the announcement port with the game and
// with other blockmate processes, the way the game's own MulticastSocket
// does: SO_REUSEADDR, and SO_REUSEPORT where it exists.
func reusePort(network, address string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
		if serr == nil {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
		}
	})
	if err != nil {
		return err
	}
	return serr
}
