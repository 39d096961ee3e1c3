//go:build windows

package watch

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// Listener is the watch socket: on Windows a loopback TCP port. Its
// address and a random token are written to the file at path (in the
// user's profile, protected by its folder's permissions); a console proves
// it may attach by sending the token.
type Listener struct {
	net.Listener
	path  string
	token string
}

type endpoint struct {
	Addr  string `json:"addr"`
	Token string `json:"token"`
}

// Listen opens a loopback port and writes where it is to path.
func Listen(path string) (*Listener, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot open the watch port: %w", err)
	}
	raw, _ := json.Marshal(endpoint{ln.Addr().String(), token})
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("cannot write the watch file %s: %w", path, err)
	}
	return &Listener{Listener: ln, path: path, token: token}, nil
}

// Close stops listening and removes the file.
func (l *Listener) Close() error {
	err := l.Listener.Close()
	os.Remove(l.path)
	return err
}

// Path is where the watch file is.
func (l *Listener) Path() string { return l.path }

func (l *Listener) checkPeer(net.Conn) error { return nil }

func (l *Listener) tokenOK(token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(l.token)) == 1
}

// Dial reads the watch file at path and connects to the port it names.
func Dial(path string) (net.Conn, string, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", fmt.Errorf("nothing is at %s: start the sidecar or MCP server with --watch-socket %s first", path, path)
	}
	if err != nil {
		return nil, "", err
	}
	var ep endpoint
	if json.Unmarshal(raw, &ep) != nil || ep.Addr == "" {
		return nil, "", fmt.Errorf("%s is not a watch file; give the path passed to --watch-socket", path)
	}
	c, err := net.DialTimeout("tcp", ep.Addr, 5*time.Second)
	if err != nil {
		return nil, "", fmt.Errorf("nothing answers at %s (%v): the blockmate that opened it has ended; start it again", path, err)
	}
	return c, ep.Token, nil
}
