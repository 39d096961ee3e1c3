package lan

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/untrusted"
)

// The game announces a world opened to LAN by sending Announcement datagrams
// to this multicast group and port about every 1.5 seconds.
const (
	GroupIPv4 = "224.0.2.60"
	GroupPort = 4445
	// AnnouncePeriod is how often the game announces.
	AnnouncePeriod = 1500 * time.Millisecond
)

// MaxDatagram bounds an announcement. The game's own listener reads into a
// 1024-byte buffer; anything longer was not sent by the game.
const MaxDatagram = 1024

// Announcement is one parsed "Open to LAN" datagram:
// "[MOTD]<text>[/MOTD][AD]<port>[/AD]", where AD may also be "host:port".
type Announcement struct {
	// MOTD is plain text, formatting codes stripped. Other people write it:
	// untrusted.
	MOTD string
	// Host is the host the AD part names, or "" when it names only a port
	// (then the sender's address is the host).
	Host string
	Port int
}

// ErrNotAnnouncement is wrapped by every parse error: the datagram is not a
// LAN world announcement.
var ErrNotAnnouncement = errors.New("not a LAN world announcement")

// FormatAnnouncement renders the datagram the game sends for motd and port
// (used by tests and announcers).
func FormatAnnouncement(motd, ad string) []byte {
	return []byte("[MOTD]" + motd + "[/MOTD][AD]" + ad + "[/AD]")
}

// ParseAnnouncement reads one datagram. A missing MOTD becomes "" (the game
// shows a placeholder too); a missing or malformed AD is an error, because
// without a port there is nothing to join.
func ParseAnnouncement(b []byte) (Announcement, error) {
	if len(b) > MaxDatagram {
		return Announcement{}, fmt.Errorf("%w: %d bytes, more than the %d the game sends", ErrNotAnnouncement, len(b), MaxDatagram)
	}
	s := string(b)
	ad, ok := between(s, "[AD]", "[/AD]")
	if !ok {
		return Announcement{}, fmt.Errorf("%w: no [AD]…[/AD] part", ErrNotAnnouncement)
	}
	host, port, err := parseAD(strings.TrimSpace(ad))
	if err != nil {
		return Announcement{}, fmt.Errorf("%w: %v", ErrNotAnnouncement, err)
	}
	motd, _ := between(s, "[MOTD]", "[/MOTD]")
	return Announcement{MOTD: untrusted.Short(motd, ping.MaxMOTD), Host: host, Port: port}, nil
}

// between returns the text between the first open tag and the close tag
// after it.
func between(s, open, close string) (string, bool) {
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	s = s[i+len(open):]
	j := strings.Index(s, close)
	if j < 0 {
		return "", false
	}
	return s[:j], true
}

// parseAD reads "port", "host:port" or "[v6]:port".
func parseAD(ad string) (string, int, error) {
	portText, host := ad, ""
	if strings.ContainsRune(ad, ':') {
		h, p, err := net.SplitHostPort(ad)
		if err != nil {
			return "", 0, fmt.Errorf("address %q is not host:port", ad)
		}
		host, portText = h, p
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 1 || port > 65535 {
		return "", 0, fmt.Errorf("port %q is not a number between 1 and 65535", portText)
	}
	if host != "" && !validHost(host) {
		return "", 0, fmt.Errorf("host %q is not an IP address or host name", host)
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsUnspecified() || ip.IsMulticast()) {
		// "0.0.0.0:port" names no host: the sender is the host.
		host = ""
	}
	return host, port, nil
}

// validHost accepts IP literals and DNS names (letters, digits, '-', '.'),
// so nothing else a stranger put in a datagram becomes a host to dial.
func validHost(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	if len(h) > 253 || h == "" {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}
