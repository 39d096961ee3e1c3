package lan

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/ipv4"

	"github.com/blockmate/blockmate/api"
)

// ListenConfig says where discovery listens. The zero value listens the way
// the game does: on every up, multicast-capable interface.
type ListenConfig struct {
	// Interfaces lists the interfaces to join the announcement group (and
	// browse mDNS) on; nil means every interface that is up and can multicast.
	Interfaces func() ([]net.Interface, error)
	// LocalAddrs lists this machine's addresses, to tell worlds announced by
	// this computer (is_local_machine); nil means net.InterfaceAddrs.
	LocalAddrs func() ([]net.Addr, error)
	// Port is the announcement port; 0 means GroupPort (4445).
	Port int
	// NoMDNS turns the mDNS browse off.
	NoMDNS bool
	// Enter runs fn where discovery's sockets must be created; nil runs it
	// directly. Tests pass a function that enters a network namespace.
	Enter func(fn func() error) error
	// Log receives what a person debugging discovery wants to see; nil
	// discards it.
	Log *slog.Logger
}

func (c ListenConfig) enter(fn func() error) error {
	if c.Enter == nil {
		return fn()
	}
	return c.Enter(fn)
}

func (c ListenConfig) log() *slog.Logger {
	if c.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Log
}

func (c ListenConfig) port() int {
	if c.Port == 0 {
		return GroupPort
	}
	return c.Port
}

// MulticastInterfaces lists the interfaces that are up and can multicast:
// the ones the game announces on.
func MulticastInterfaces() ([]net.Interface, error) {
	all, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	var out []net.Interface
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp != 0 && ifi.Flags&net.FlagMulticast != 0 {
			out = append(out, ifi)
		}
	}
	return out, nil
}

func (c ListenConfig) interfaces() ([]net.Interface, error) {
	if c.Interfaces != nil {
		return c.Interfaces()
	}
	return MulticastInterfaces()
}

// Sighting is one report of a world: an announcement datagram or an mDNS
// answer.
type Sighting struct {
	// Host is where to connect: the host the announcement names, else
	// 127.0.0.1 for worlds this machine announces (the game listens on every
	// address, and loopback never meets a firewall), else the sender.
	Host string
	Port int
	// MOTD is plain text; untrusted.
	MOTD string
	// IsLocalMachine is true when this computer sent the announcement.
	IsLocalMachine bool
	// From is the sender's address (for announcements) or the advertised
	// address (for mDNS).
	From   net.IP
	Source api.Source
}

// Key identifies a world for deduplication: host and port.
func (s Sighting) Key() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// localAddrs is a snapshot of this machine's addresses.
type localAddrs struct {
	ips []net.IP
}

func (c ListenConfig) localAddrs() localAddrs {
	list := c.LocalAddrs
	if list == nil {
		list = net.InterfaceAddrs
	}
	addrs, err := list()
	if err != nil {
		c.log().Debug("cannot list this machine's addresses; only loopback counts as local", "err", err)
	}
	var l localAddrs
	for _, a := range addrs {
		switch v := a.(type) {
		case *net.IPNet:
			l.ips = append(l.ips, v.IP)
		case *net.IPAddr:
			l.ips = append(l.ips, v.IP)
		}
	}
	return l
}

func (l localAddrs) has(ip net.IP) bool {
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	for _, a := range l.ips {
		if a.Equal(ip) {
			return true
		}
	}
	return false
}

// localAddrsTTL is how long a listener trusts its list of this machine's
// addresses.
const localAddrsTTL = 30 * time.Second

// Listener receives the game's LAN announcements.
type Listener struct {
	cfg   ListenConfig
	conn  net.PacketConn
	pc    *ipv4.PacketConn
	group net.IP
	// local is this machine's addresses as of localAt; a listener that runs
	// for hours (the console's) refreshes it, since addresses change.
	local   localAddrs
	localAt time.Time
	// Joined names the interfaces the group was joined on.
	Joined []string

	closeOnce sync.Once
}

// ErrNoInterface is wrapped when no interface could join the group.
var ErrNoInterface = errors.New("no network interface could join the LAN announcement group")

// Listen opens the announcement port (shared with the game and other
// listeners) and joins 224.0.2.60 on every configured interface. It fails
// only when the port cannot be opened or no interface joins.
func Listen(cfg ListenConfig) (*Listener, error) {
	l := &Listener{cfg: cfg, group: net.ParseIP(GroupIPv4).To4()}
	err := cfg.enter(func() error {
		ifaces, err := cfg.interfaces()
		if err != nil {
			return fmt.Errorf("cannot list network interfaces: %w", err)
		}
		if len(ifaces) == 0 {
			return fmt.Errorf("%w: no interface is up and multicast-capable", ErrNoInterface)
		}
		lc := net.ListenConfig{Control: reusePort}
		conn, err := lc.ListenPacket(context.Background(), "udp4", net.JoinHostPort("0.0.0.0", strconv.Itoa(cfg.port())))
		if err != nil {
			return fmt.Errorf("cannot open UDP port %d for LAN announcements: %w", cfg.port(), err)
		}
		pc := ipv4.NewPacketConn(conn)
		var failures []string
		for i := range ifaces {
			ifi := ifaces[i]
			if err := pc.JoinGroup(&ifi, &net.UDPAddr{IP: l.group}); err != nil {
				failures = append(failures, fmt.Sprintf("%s: %v", ifi.Name, err))
				continue
			}
			l.Joined = append(l.Joined, ifi.Name)
		}
		if len(l.Joined) == 0 {
			conn.Close()
			return fmt.Errorf("%w (%s)", ErrNoInterface, strings.Join(failures, "; "))
		}
		if len(failures) > 0 {
			cfg.log().Debug("some interfaces could not join the LAN announcement group", "failures", failures)
		}
		// The destination address lets the listener ignore unicast datagrams
		// sent to the port; where the platform cannot say, everything is read.
		_ = pc.SetControlMessage(ipv4.FlagDst, true)
		l.conn, l.pc = conn, pc
		l.local, l.localAt = cfg.localAddrs(), time.Now()
		return nil
	})
	if err != nil {
		return nil, err
	}
	cfg.log().Debug("listening for LAN announcements", "port", cfg.port(), "interfaces", l.Joined)
	return l, nil
}

// Close stops the listener; Run returns.
func (l *Listener) Close() error {
	var err error
	l.closeOnce.Do(func() { err = l.conn.Close() })
	return err
}

// Run reads announcements until ctx ends or the listener is closed, calling
// found for each valid one. Datagrams that are not announcements are
// skipped. found runs on Run's goroutine and must not block for long.
func (l *Listener) Run(ctx context.Context, found func(Sighting)) error {
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	buf := make([]byte, MaxDatagram+1)
	for {
		n, cm, src, err := l.pc.ReadFrom(buf)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("reading LAN announcements: %w", err)
		}
		if cm != nil && cm.Dst != nil && !cm.Dst.Equal(l.group) {
			continue
		}
		udp, ok := src.(*net.UDPAddr)
		if !ok {
			continue
		}
		s, err := l.sighting(buf[:n], udp.IP)
		if err != nil {
			l.cfg.log().Debug("ignoring a datagram on the LAN announcement port", "from", src.String(), "err", err)
			continue
		}
		found(s)
	}
}

// sighting turns a datagram from sender into a Sighting.
func (l *Listener) sighting(b []byte, sender net.IP) (Sighting, error) {
	a, err := ParseAnnouncement(b)
	if err != nil {
		return Sighting{}, err
	}
	if time.Since(l.localAt) > localAddrsTTL {
		_ = l.cfg.enter(func() error { l.local = l.cfg.localAddrs(); return nil })
		l.localAt = time.Now()
	}
	// Only this machine can send with an unspecified source address (on
	// loopback, before a source is chosen).
	local := sender.IsUnspecified() || l.local.has(sender)
	s := Sighting{Port: a.Port, MOTD: a.MOTD, From: sender, Source: api.FromAnnouncement, IsLocalMachine: local}
	switch {
	case a.Host != "":
		s.Host = a.Host
	case s.IsLocalMachine:
		s.Host = "127.0.0.1"
	default:
		s.Host = sender.String()
	}
	return s, nil
}
