package lan

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// statusServer is a minimal status-protocol speaker on a loopback port, for
// unit tests of the client side. The integration test pings flying-squid.
type statusServer struct {
	ln net.Listener
	// handshakes receives the next-state field of each handshake seen.
	handshakes chan int32
}

type serverBehaviour struct {
	statusJSON string
	// raw, when set, is written instead of a status response.
	raw      []byte
	skipPong bool
	silent   bool
}

func startStatusServer(t *testing.T, b serverBehaviour) *statusServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveStatus(t, ln, b)
}

// serveStatus answers status pings on ln until the test ends.
func serveStatus(t *testing.T, ln net.Listener, b serverBehaviour) *statusServer {
	s := &statusServer{ln: ln, handshakes: make(chan int32, 64)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c, b)
		}
	}()
	return s
}

func (s *statusServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *statusServer) serve(c net.Conn, b serverBehaviour) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	br := &byteReader{r: c}
	hs, err := readFrame(br, 1024)
	if err != nil {
		return
	}
	// id, protocol, address, port, next state
	_, n, _ := readVarInt(hs)
	rest := hs[n:]
	_, n, _ = readVarInt(rest)
	rest = rest[n:]
	l, n, _ := readVarInt(rest)
	rest = rest[n+int(l)+2:]
	next, _, _ := readVarInt(rest)
	select {
	case s.handshakes <- next:
	default:
	}
	if _, err := readFrame(br, 16); err != nil {
		return
	}
	if b.silent {
		_, _ = c.Read(make([]byte, 1))
		return
	}
	if b.raw != nil {
		_, _ = c.Write(b.raw)
		return
	}
	body := append([]byte{0x00}, appendString(nil, b.statusJSON)...)
	_, _ = c.Write(appendFrame(nil, body))
	ping, err := readFrame(br, 64)
	if err != nil || b.skipPong {
		return
	}
	_, _ = c.Write(appendFrame(nil, ping))
}

func TestPingReadsStatus(t *testing.T) {
	srv := startStatusServer(t, serverBehaviour{statusJSON: `{"version":{"name":"1.21.4","protocol":769},
		"players":{"max":8,"online":1,"sample":[{"name":"Eduard","id":"00000000-0000-0000-0000-000000000000"}]},
		"description":{"text":"§6Eduard","extra":[{"text":" - ","color":"gray"},{"text":"Survival§r","bold":true}]}}`})
	st, err := Ping(context.Background(), "127.0.0.1", srv.port())
	if err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if next := <-srv.handshakes; next != 1 {
		t.Errorf("handshake next state = %d, want 1 (status)", next)
	}
	want := ServerStatus{Version: "1.21.4", Protocol: 769, MOTD: "Eduard - Survival", PlayersOnline: 1, PlayersMax: 8, Compatible: true}
	got := st
	got.Latency = 0
	if got != want {
		t.Errorf("status = %+v, want %+v", got, want)
	}
	if st.Latency <= 0 {
		t.Errorf("latency = %v, want a measured round trip", st.Latency)
	}
}

func TestPingStringDescriptionAndIncompatibleVersion(t *testing.T) {
	srv := startStatusServer(t, serverBehaviour{statusJSON: `{"version":{"name":"26.3","protocol":777},"players":{"max":20,"online":0},"description":"§aA §lnew§r world\nline two"}`, skipPong: true})
	st, err := Ping(context.Background(), "127.0.0.1", srv.port())
	if err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if st.MOTD != "A new world line two" {
		t.Errorf("MOTD = %q", st.MOTD)
	}
	if st.Compatible || st.Protocol != 777 || st.Version != "26.3" {
		t.Errorf("status = %+v, want an incompatible 26.3 (777)", st)
	}
	if st.Latency <= 0 {
		t.Errorf("without a pong the latency falls back to the status round trip; got %v", st.Latency)
	}
}

func TestPingRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	_, err = Ping(context.Background(), "127.0.0.1", port)
	var pe *PingError
	if !errors.As(err, &pe) || pe.Kind != Unreachable {
		t.Fatalf("err = %v, want an Unreachable PingError", err)
	}
	for _, want := range []string{"nothing answers at 127.0.0.1:", "connection refused", "check the port from the game's chat line"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestPingTimesOut(t *testing.T) {
	srv := startStatusServer(t, serverBehaviour{silent: true})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Ping(ctx, "127.0.0.1", srv.port())
	var pe *PingError
	if !errors.As(err, &pe) || pe.Kind != TimedOut {
		t.Fatalf("err = %v, want TimedOut", err)
	}
	if !strings.Contains(err.Error(), "did not answer the status ping in time") {
		t.Errorf("error sentence: %q", err)
	}
}

func TestPingCancelled(t *testing.T) {
	srv := startStatusServer(t, serverBehaviour{silent: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-srv.handshakes; cancel() }()
	_, err := Ping(ctx, "127.0.0.1", srv.port())
	var pe *PingError
	if !errors.As(err, &pe) || pe.Kind != Cancelled {
		t.Fatalf("err = %v, want Cancelled", err)
	}
}

func TestPingRefusesHugeLength(t *testing.T) {
	// A length prefix of 2^31-1 and nothing after it: the client must refuse
	// it without allocating.
	srv := startStatusServer(t, serverBehaviour{raw: appendVarInt(nil, 1<<31-1)})
	_, err := Ping(context.Background(), "127.0.0.1", srv.port())
	var pe *PingError
	if !errors.As(err, &pe) || pe.Kind != NotMinecraft {
		t.Fatalf("err = %v, want NotMinecraft", err)
	}
	if !strings.Contains(err.Error(), "not like a Minecraft: Java Edition server") || !strings.Contains(err.Error(), "the limit is") {
		t.Errorf("error sentence: %q", err)
	}
}

func TestPingNotMinecraft(t *testing.T) {
	srv := startStatusServer(t, serverBehaviour{raw: []byte("HTTP/1.1 400 Bad Request\r\n\r\n")})
	_, err := Ping(context.Background(), "127.0.0.1", srv.port())
	var pe *PingError
	if !errors.As(err, &pe) || pe.Kind != NotMinecraft {
		t.Fatalf("err = %v, want NotMinecraft", err)
	}
}

func TestPingBadArguments(t *testing.T) {
	for _, tc := range []struct {
		host string
		port int
	}{{"", 25565}, {"127.0.0.1", 0}, {"127.0.0.1", 70000}} {
		if _, err := Ping(context.Background(), tc.host, tc.port); err == nil {
			t.Errorf("Ping(%q, %d) succeeded", tc.host, tc.port)
		}
	}
}

func TestDecodeStatusResponse(t *testing.T) {
	body := func(s string) []byte { return append([]byte{0x00}, appendString(nil, s)...) }
	for _, tc := range []struct {
		name    string
		body    []byte
		wantErr string
		motd    string
	}{
		{"array description", body(`{"version":{"name":"1.21.1","protocol":767},"description":[{"text":"a"},"b",{"extra":["c"]}]}`), "", "abc"},
		{"wrong packet", append([]byte{0x01}, appendString(nil, "{}")...), "expected the status response", ""},
		{"string too long", append([]byte{0x00}, appendVarInt(nil, 100)...), "does not fit", ""},
		{"not json", body("hello"), "not the JSON", ""},
		{"no version", body(`{"description":"x"}`), "names no version", ""},
		{"empty", nil, "status response", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := DecodeStatusResponse(tc.body)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.MOTD != tc.motd {
				t.Errorf("MOTD = %q, want %q", st.MOTD, tc.motd)
			}
		})
	}
}

func TestStripFormatting(t *testing.T) {
	for in, want := range map[string]string{
		"§aHello §lWorld§r":  "Hello World",
		"trailing §":         "trailing",
		"\x1b[31mred\x1b[0m": "red",
		"  two\n  lines  ":   "two lines",
		"bad \xff utf8":      "bad \uFFFD utf8",
		// The bidi controls the issue found kept in MOTDs.
		"\u202eEduard\u200f - \u2066Survival\u2069": "Eduard - Survival",
		strings.Repeat("x", 1000):                   strings.Repeat("x", maxMOTD),
	} {
		if got := StripFormatting(in); got != want {
			t.Errorf("StripFormatting(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzDecodeStatusResponse(f *testing.F) {
	body := func(s string) []byte { return append([]byte{0x00}, appendString(nil, s)...) }
	f.Add(body(`{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":{"text":"§6hi","extra":[{"text":"x"}]}}`))
	f.Add(body(`{"version":{"name":"x","protocol":1},"description":[[[[[["deep"]]]]]]}`))
	f.Add([]byte{0x00, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := DecodeStatusResponse(b)
		if err != nil {
			return
		}
		if len([]rune(st.MOTD)) > maxMOTD || len([]rune(st.Version)) > maxVersionName {
			t.Fatalf("unbounded text: %+v", st)
		}
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzReadFrame(f *testing.F) {
	f.Add(appendFrame(nil, []byte{0x01, 2, 3}))
	f.Add(appendVarInt(nil, 1<<31-1))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		body, err := readFrame(&byteReader{r: strings.NewReader(string(b))}, 1024)
		if err == nil && (len(body) == 0 || len(body) > 1024) {
			t.Fatalf("frame of %d bytes accepted", len(body))
		}
	})
}
