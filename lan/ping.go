// Package lan finds Minecraft: Java Edition worlds on the local network: the
// game's own "Open to LAN" announcements (UDP multicast 224.0.2.60:4445),
// servers that advertise themselves over mDNS, and the status ping that asks
// any of them for its version, players and MOTD.
package lan

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/blockmate/blockmate/bot/mcversion"
)

// DefaultPingTimeout bounds a status ping whose context has no deadline. A
// server on the LAN answers in milliseconds; one that takes seconds is not
// going to be pleasant to join either.
const DefaultPingTimeout = 3 * time.Second

// maxStatusPacket bounds the status response a server may send. Vanilla caps
// the JSON at 32767 characters (under 100 KiB in UTF-8); modded servers with
// large favicons and mod lists go further, so allow a little over 1 MiB and
// refuse the rest.
const maxStatusPacket = 1<<20 + 1024

// maxVersionName bounds the version name kept from a status response.
const maxVersionName = 64

// ServerStatus is what a server says about itself in the status ping.
type ServerStatus struct {
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

// PingError says why a status ping failed, in a sentence the caller can act
// on. Kind separates the cases a planner treats differently.
type PingError struct {
	Addr string
	Kind PingErrorKind
	Err  error
}

// PingErrorKind classifies ping failures.
type PingErrorKind int

const (
	// Unreachable: the computer was reached but nothing accepted the
	// connection on that port (refused): a wrong port, or a closed world.
	Unreachable PingErrorKind = iota
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

func (e *PingError) Error() string {
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

// host is the host part of Addr.
func (e *PingError) host() string {
	if h, _, err := net.SplitHostPort(e.Addr); err == nil {
		return h
	}
	return e.Addr
}

// dialKind classifies a failed dial: a name that does not resolve and an
// address with no route are host problems, anything else (a refusal) is
// the port's.
func dialKind(err error) PingErrorKind {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return UnknownHost
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return NoRoute
	}
	return Unreachable
}

func (e *PingError) Unwrap() error { return e.Err }

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

// Ping asks the server at host:port for its status: the handshake with next
// state 1, the status request, the JSON status (bounded in size), then a
// ping/pong for latency. It honours ctx, and bounds itself to
// DefaultPingTimeout when ctx has no deadline.
func Ping(ctx context.Context, host string, port int) (ServerStatus, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	if host == "" || len(host) > 255 {
		return ServerStatus{}, &PingError{Addr: addr, Kind: Unreachable, Err: errors.New("the host is empty or too long")}
	}
	if port < 1 || port > 65535 {
		return ServerStatus{}, &PingError{Addr: addr, Kind: Unreachable, Err: fmt.Errorf("port %d is not between 1 and 65535", port)}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultPingTimeout)
		defer cancel()
	}
	classify := func(err error, during netPhase) error {
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return &PingError{Addr: addr, Kind: TimedOut, Err: err}
			}
			return &PingError{Addr: addr, Kind: Cancelled, Err: context.Cause(ctx)}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return &PingError{Addr: addr, Kind: TimedOut, Err: err}
		}
		if during == phaseDial {
			return &PingError{Addr: addr, Kind: dialKind(err), Err: err}
		}
		return &PingError{Addr: addr, Kind: NotMinecraft, Err: err}
	}

	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return ServerStatus{}, classify(err, phaseDial)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	// Cancellation interrupts a blocked read by moving the deadline to the past.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	st, err := status(conn, host, port)
	if err != nil {
		return ServerStatus{}, classify(err, phaseStatus)
	}
	return st, nil
}

// netPhase tells dial failures (unreachable) from failures after connecting
// (the peer is not a Minecraft server).
type netPhase int

const (
	phaseDial netPhase = iota
	phaseStatus
)

// handshakeProtocol is the protocol number sent in the handshake. Servers
// answer a status request whatever the number; sending the newest one the bot
// speaks is what a client of that version would do.
var handshakeProtocol = func() int {
	r := mcversion.Supported()
	return r[len(r)-1].Protocol
}()

// status runs the status exchange on an open connection.
func status(conn net.Conn, host string, port int) (ServerStatus, error) {
	var hs bytes.Buffer
	hs.WriteByte(0x00) // handshake
	hs.Write(appendVarInt(nil, int32(handshakeProtocol)))
	hs.Write(appendString(nil, host))
	hs.Write(binary.BigEndian.AppendUint16(nil, uint16(port)))
	hs.Write(appendVarInt(nil, 1)) // next state: status
	out := appendFrame(nil, hs.Bytes())
	out = appendFrame(out, []byte{0x00}) // status request
	start := time.Now()
	if _, err := conn.Write(out); err != nil {
		return ServerStatus{}, err
	}
	br := &byteReader{r: conn}
	body, err := readFrame(br, maxStatusPacket)
	if err != nil {
		return ServerStatus{}, err
	}
	statusRTT := time.Since(start)
	st, err := DecodeStatusResponse(body)
	if err != nil {
		return ServerStatus{}, err
	}
	st.Latency = statusRTT

	// Ping/pong. A server that closes instead of answering (some proxies do)
	// still gave its status, so a failure here keeps the status round trip.
	token := rand.Int64()
	ping := append([]byte{0x01}, binary.BigEndian.AppendUint64(nil, uint64(token))...)
	start = time.Now()
	if _, err := conn.Write(appendFrame(nil, ping)); err != nil {
		return st, nil
	}
	pong, err := readFrame(br, 64)
	if err == nil && len(pong) == 9 && pong[0] == 0x01 && int64(binary.BigEndian.Uint64(pong[1:])) == token {
		st.Latency = time.Since(start)
	}
	return st, nil
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

// DecodeStatusResponse decodes the body of a status response packet (packet
// id and the JSON string) into a ServerStatus, without Latency. It reads
// bytes a peer sent: every length is checked before use.
func DecodeStatusResponse(body []byte) (ServerStatus, error) {
	id, n, err := readVarInt(body)
	if err != nil {
		return ServerStatus{}, fmt.Errorf("status response: %w", err)
	}
	if id != 0x00 {
		return ServerStatus{}, fmt.Errorf("expected the status response (packet 0x00), got packet 0x%02x", id)
	}
	body = body[n:]
	l, n, err := readVarInt(body)
	if err != nil {
		return ServerStatus{}, fmt.Errorf("status response: %w", err)
	}
	if l < 0 || int(l) > len(body)-n {
		return ServerStatus{}, fmt.Errorf("status response: string length %d does not fit in the %d bytes sent", l, len(body)-n)
	}
	var sj statusJSON
	if err := json.Unmarshal(body[n:n+int(l)], &sj); err != nil {
		return ServerStatus{}, fmt.Errorf("status response is not the JSON a Minecraft server sends: %v", err)
	}
	if sj.Version.Name == "" && sj.Version.Protocol == 0 {
		return ServerStatus{}, errors.New("status response names no version")
	}
	return ServerStatus{
		Version:       truncateRunes(StripFormatting(sj.Version.Name), maxVersionName),
		Protocol:      sj.Version.Protocol,
		MOTD:          plainText(sj.Description),
		PlayersOnline: sj.Players.Online,
		PlayersMax:    sj.Players.Max,
		Compatible:    mcversion.IsSupported(sj.Version.Protocol),
	}, nil
}

// byteReader reads single bytes from a connection without buffering past
// what a frame needs.
type byteReader struct {
	r   io.Reader
	one [1]byte
}

func (b *byteReader) ReadByte() (byte, error) {
	if _, err := io.ReadFull(b.r, b.one[:]); err != nil {
		return 0, err
	}
	return b.one[0], nil
}

func (b *byteReader) Read(p []byte) (int, error) { return b.r.Read(p) }

var errVarIntTooLong = errors.New("a VarInt is longer than 5 bytes")

// readVarIntFrom reads a VarInt (at most 5 bytes) from r.
func readVarIntFrom(r io.ByteReader) (int32, error) {
	var v uint32
	for i := 0; i < 5; i++ {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint32(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			return int32(v), nil
		}
	}
	return 0, errVarIntTooLong
}

// readVarInt decodes a VarInt from the start of b, returning the value and
// the bytes used.
func readVarInt(b []byte) (int32, int, error) {
	var v uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0, io.ErrUnexpectedEOF
		}
		v |= uint32(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return int32(v), i + 1, nil
		}
	}
	return 0, 0, errVarIntTooLong
}

func appendVarInt(b []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

func appendString(b []byte, s string) []byte {
	b = appendVarInt(b, int32(len(s)))
	return append(b, s...)
}

func appendFrame(b, body []byte) []byte {
	b = appendVarInt(b, int32(len(body)))
	return append(b, body...)
}

// readFrame reads one uncompressed packet (length-prefixed) of at most max
// bytes. The buffer grows as bytes arrive, so a peer that announces a large
// length and sends nothing costs nothing.
func readFrame(r *byteReader, max int) ([]byte, error) {
	n, err := readVarIntFrom(r)
	if err != nil {
		return nil, err
	}
	if n <= 0 || int(n) > max {
		return nil, fmt.Errorf("a packet of %d bytes (the limit is %d)", n, max)
	}
	body, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil {
		return nil, err
	}
	if len(body) != int(n) {
		return nil, io.ErrUnexpectedEOF
	}
	return body, nil
}
