//go:build unix

package watch

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Listener is the watch socket: here a Unix socket only its owner may open.
type Listener struct {
	net.Listener
	path string
	uid  int
}

// Listen opens the watch socket at path, mode 0600. A socket left behind
// by a blockmate that died is replaced; a live one, or a file that is not a
// socket, is not.
func Listen(path string) (*Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s exists and is not a socket; choose another path for --watch-socket", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("another blockmate is already watched at %s; choose another path for --watch-socket", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("cannot replace the stale socket %s: %w", path, err)
		}
	}
	// The socket is created owner-only from its first instant: no moment
	// exists in which another user could connect before the chmod.
	old := unix.Umask(0o177)
	ln, err := net.Listen("unix", path)
	unix.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("cannot open the watch socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("cannot make the watch socket %s private: %w", path, err)
	}
	return &Listener{Listener: ln, path: path, uid: os.Getuid()}, nil
}

// Path is where the socket is.
func (l *Listener) Path() string { return l.path }

// checkPeer refuses a console run by another user, where the system says
// who is on the other end (Linux, macOS); elsewhere the file mode alone
// keeps others out.
func (l *Listener) checkPeer(c net.Conn) error {
	uid, err := peerUID(c)
	if err != nil {
		return fmt.Errorf("cannot tell who opened the watch socket: %w", err)
	}
	if uid >= 0 && uid != l.uid {
		return fmt.Errorf("user %d opened the watch socket, which belongs to user %d", uid, l.uid)
	}
	return nil
}

// tokenOK: on Unix the socket's owner check is the proof, and no token is
// sent.
func (l *Listener) tokenOK(token string) bool { return token == "" }

// Dial connects to the watch socket at path.
func Dial(path string) (net.Conn, string, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, "", fmt.Errorf("nothing is at %s: start the sidecar or MCP server with --watch-socket %s first", path, path)
	case errors.Is(err, os.ErrPermission):
		return nil, "", fmt.Errorf("%s belongs to another user; attach as the user who started blockmate", path)
	case err != nil:
		return nil, "", err
	case fi.Mode()&os.ModeSocket == 0:
		return nil, "", fmt.Errorf("%s is not a watch socket (it is a regular file or folder); give the path passed to --watch-socket", path)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil, "", fmt.Errorf("%s belongs to another user; attach as the user who started blockmate", path)
		}
		return nil, "", fmt.Errorf("nothing answers at %s (%v): the blockmate that opened it has ended; start it again", path, err)
	}
	return c, "", nil
}
