//go:build !linux

package conn

import (
	"io"
	"net"
)

// socketIO gives the reader and writer a connection's frames go through:
// elsewhere than Linux, the connection's own (see socket_linux.go).
func socketIO(nc net.Conn) (io.Reader, io.Writer) { return nc, nc }
