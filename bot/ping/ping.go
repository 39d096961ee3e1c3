// Package ping asks a Minecraft: Java Edition server for its status: the
// status exchange of the protocol (a handshake with next state 1, the
// status request, the JSON status, then a ping and its pong for latency).
// It is the bot's own transport (bot/conn frames, bot/wire reads and
// writes, bot/codec's handshake), so there is one framing in blockmate;
// the join asks with it before logging in, and LAN discovery (lan) asks
// every world it finds.
package ping

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/conn"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/untrusted"
)

// DefaultTimeout bounds a status ping whose context has no deadline. A
// server on the LAN answers in milliseconds; one that takes seconds is not
// going to be pleasant to join either.
const DefaultTimeout = 3 * time.Second

// maxStatusPacket bounds the status response a server may send. Vanilla caps
// the JSON at 32767 characters (under 100 KiB in UTF-8); modded servers with
// large favicons and mod lists go further, so allow a little over 1 MiB and
// refuse the rest before anything is allocated for it.
const maxStatusPacket = 1<<20 + 1024

// MaxMOTD bounds a MOTD after cleaning, in runes. The game shows two short
// lines; anything longer is someone padding a packet. LAN announcements
// are cut to the same length.
const MaxMOTD = 256

// maxVersionName bounds the version name kept from a status response.
const maxVersionName = 64

// Status is what a server says about itself in the status ping.
type Status struct {
	// Version is the game version's name as the server reports it ("1.21.4").
	Version string
	// Protocol is the protocol version number (769 for 1.21.4).
	Protocol int
	// MOTD is the message of the day as plain text: formatting codes and
	// control characters stripped. Other people write it: untrusted.
	MOTD          string
	PlayersOnline int
	PlayersMax    int
	// Latency is the ping/pong round trip (or, when a server does not answer
	// the ping, the status request's).
	Latency time.Duration
	// Compatible says whether the bot can join this protocol version.
	Compatible bool
}

// Error says why a status ping failed, in a sentence the caller can act
// on. Kind separates the cases a planner treats differently.
type Error struct {
	Addr string
	Kind ErrorKind
	Err  error
}

// ErrorKind classifies ping failures.
type ErrorKind int

const (
	// Unreachable: the computer was reached but nothing accepted the
	// connection on that port (refused): a wrong port, or a closed world.
	Unreachable ErrorKind = iota
	// TimedOut: the server did not answer in time.
	TimedOut
	// NotMinecraft: something answered, but not with a status response.
	NotMinecraft
	// Cancelled: the caller's context ended first.
	Cancelled
	// UnknownHost: the host name does not resolve to an address.
	UnknownHost
	// NoRoute: the address cannot be reached from this computer (no route
	// to the host or its network).
	NoRoute
)

func (e *Error) Error() string {
	switch e.Kind {
	case TimedOut:
		return fmt.Sprintf("%s did not answer the status ping in time: check the host and port, and that no firewall on the player's computer blocks Java", e.Addr)
	case NotMinecraft:
		return fmt.Sprintf("something answered at %s, but not like a Minecraft: Java Edition server (%v): check the port number", e.Addr, e.Err)
	case Cancelled:
		return fmt.Sprintf("the status ping of %s was cancelled before it finished", e.Addr)
	case UnknownHost:
		return fmt.Sprintf("no computer is called %q (%v): check the host's spelling, or give its IP address; the player's own computer is 127.0.0.1", e.host(), shortNetErr(e.Err))
	case NoRoute:
		return fmt.Sprintf("%s cannot be reached from this computer (%v): check the host's address, and that both computers are on the same network", e.Addr, shortNetErr(e.Err))
	default:
		return fmt.Sprintf("nothing answers at %s (%v): check the port from the game's chat line after Open to LAN, and that the world is still open", e.Addr, shortNetErr(e.Err))
	}
}

func (e *Error) Unwrap() error { return e.Err }

// host is the host part of Addr.
func (e *Error) host() string {
	if h, _, err := net.SplitHostPort(e.Addr); err == nil {
		return h
	}
	return e.Addr
}

// dialKind classifies a failed dial: a name that does not resolve and an
// address with no route are host problems, anything else (a refusal) is
// the port's.
func dialKind(err error) ErrorKind {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return UnknownHost
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return NoRoute
	}
	return Unreachable
}

// shortNetErr keeps the part of a dial error a person can read ("connection
// refused") without the Go-internal op and address prefix.
func shortNetErr(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsNotFound {
			return "the name does not resolve"
		}
		return "the name could not be looked up: " + dnsErr.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// Server asks the server at host:port for its status. It honours ctx, and
// bounds itself to DefaultTimeout when ctx has no deadline.
func Server(ctx context.Context, host string, port int) (Status, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	if host == "" || len(host) > 255 {
		return Status{}, &Error{Addr: addr, Kind: Unreachable, Err: errors.New("the host is empty or too long")}
	}
	if port < 1 || port > 65535 {
		return Status{}, &Error{Addr: addr, Kind: Unreachable, Err: fmt.Errorf("port %d is not between 1 and 65535", port)}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	classify := func(err error, dialling bool) error {
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return &Error{Addr: addr, Kind: TimedOut, Err: err}
			}
			return &Error{Addr: addr, Kind: Cancelled, Err: context.Cause(ctx)}
		}
		if dialling {
			return &Error{Addr: addr, Kind: dialKind(err), Err: err}
		}
		return &Error{Addr: addr, Kind: NotMinecraft, Err: err}
	}

	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Status{}, classify(err, true)
	}
	c := conn.New(nc, table, conn.Options{MaxFrame: maxStatusPacket})
	defer c.Close()
	// The context's end (its deadline, or a cancel) closes the socket,
	// which ends a read or write waiting on it.
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()

	st, err := exchange(c, host, port)
	if err != nil {
		return Status{}, classify(err, false)
	}
	return st, nil
}

// table is the packet table the ping speaks: the newest release's (the
// handshake and status packets are the same in every release).
var table = mcdata.For(newest)

// newest is the protocol number sent in the handshake. Servers answer a
// status request whatever the number; sending the newest one the bot
// speaks is what a client of that version would do.
var newest = func() int32 {
	r := mcversion.Supported()
	return int32(r[len(r)-1].Protocol)
}()

// exchange runs the status exchange on an open connection.
func exchange(c *conn.Conn, host string, port int) (Status, error) {
	hs := encode(func(w *wire.Writer) {
		codec.For(newest).WriteHandshake(w, codec.Handshake{Protocol: newest, Host: host, Port: uint16(port), Intent: intentStatus})
	})
	if err := c.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, hs, mcdata.StateStatus); err != nil {
		return Status{}, err
	}
	start := time.Now()
	if err := c.Write(mcdata.ServerboundStatusPingStart, nil); err != nil {
		return Status{}, err
	}
	p, err := c.ReadPacket()
	if err != nil {
		return Status{}, err
	}
	if p.Kind != mcdata.ClientboundStatusServerInfo {
		return Status{}, fmt.Errorf("expected the status response (packet 0x00), got packet 0x%02x", p.ID)
	}
	statusRTT := time.Since(start)
	st, err := DecodeStatus(p.Payload)
	if err != nil {
		return Status{}, err
	}
	st.Latency = statusRTT

	// Ping/pong. A server that closes instead of answering (some proxies do)
	// still gave its status, so a failure here keeps the status round trip.
	token := rand.Int64()
	start = time.Now()
	if err := c.Write(mcdata.ServerboundStatusPing, encode(func(w *wire.Writer) { w.Int64(token) })); err != nil {
		return st, nil
	}
	pong, err := c.ReadPacket()
	if err == nil && pong.Kind == mcdata.ClientboundStatusPing {
		if r := wire.NewReader(pong.Payload); r.Int64() == token && r.Err() == nil && r.Remaining() == 0 {
			st.Latency = time.Since(start)
		}
	}
	return st, nil
}

// intentStatus is the handshake intent of a status ping.
const intentStatus = 1

func encode(build func(w *wire.Writer)) []byte {
	var w wire.Writer
	build(&w)
	return w.Bytes()
}

// statusJSON is the part of the status response blockmate reads.
type statusJSON struct {
	Version struct {
		Name     string `json:"name"`
		Protocol int    `json:"protocol"`
	} `json:"version"`
	Players struct {
		Max    int `json:"max"`
		Online int `json:"online"`
	} `json:"players"`
	Description json.RawMessage `json:"description"`
}

// maxStatusChars bounds the status JSON string, in characters: what fits
// the packet limit.
const maxStatusChars = maxStatusPacket

// DecodeStatus decodes the payload of a status response packet (the JSON
// string after the packet id) into a Status, without Latency. It reads
// bytes a peer sent: every length is checked before use.
func DecodeStatus(payload []byte) (Status, error) {
	r := wire.NewReader(payload)
	text := r.String(maxStatusChars)
	if r.Err() != nil {
		return Status{}, fmt.Errorf("status response: %w", r.Err())
	}
	var sj statusJSON
	if err := json.Unmarshal([]byte(text), &sj); err != nil {
		return Status{}, fmt.Errorf("status response is not the JSON a Minecraft server sends: %v", err)
	}
	if sj.Version.Name == "" && sj.Version.Protocol == 0 {
		return Status{}, errors.New("status response names no version")
	}
	return Status{
		Version:       untrusted.Short(sj.Version.Name, maxVersionName),
		Protocol:      sj.Version.Protocol,
		MOTD:          motd(sj.Description),
		PlayersOnline: sj.Players.Online,
		PlayersMax:    sj.Players.Max,
		Compatible:    mcversion.IsSupported(sj.Version.Protocol),
	}, nil
}

// motd flattens the description, a JSON text component (a string, an
// object with text and extra, or an array), into its plain text with the
// one component renderer (bot/chat), cleaned as untrusted text. A
// description that is not JSON gives no MOTD rather than failing: the MOTD
// is decoration, not a reason to call a server unreachable.
func motd(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return untrusted.Short(chat.Plain(v), MaxMOTD)
}
