package ping

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/statusserver"
)

func TestPingReadsStatus(t *testing.T) {
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},
		"players":{"max":8,"online":1,"sample":[{"name":"Eduard","id":"00000000-0000-0000-0000-000000000000"}]},
		"description":{"text":"§6Eduard","extra":[{"text":" - ","color":"gray"},{"text":"Survival§r","bold":true}]}}`})
	st, err := Server(context.Background(), "127.0.0.1", srv.Port())
	if err != nil {
		t.Fatalf("Server: %v", err)
	}
	if next := <-srv.Handshakes; next != 1 {
		t.Errorf("handshake next state = %d, want 1 (status)", next)
	}
	want := Status{Version: "1.21.4", Protocol: 769, MOTD: "Eduard - Survival", PlayersOnline: 1, PlayersMax: 8, Compatible: true}
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
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: `{"version":{"name":"26.4","protocol":778},"players":{"max":20,"online":0},"description":"§aA §lnew§r world\nline two"}`, SkipPong: true})
	st, err := Server(context.Background(), "127.0.0.1", srv.Port())
	if err != nil {
		t.Fatalf("Server: %v", err)
	}
	if st.MOTD != "A new world line two" {
		t.Errorf("MOTD = %q", st.MOTD)
	}
	if st.Compatible || st.Protocol != 778 || st.Version != "26.4" {
		t.Errorf("status = %+v, want an incompatible 26.4 (778)", st)
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
	_, err = Server(context.Background(), "127.0.0.1", port)
	var pe *Error
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
	srv := statusserver.Start(t, statusserver.Behaviour{Silent: true})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Server(ctx, "127.0.0.1", srv.Port())
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != TimedOut {
		t.Fatalf("err = %v, want TimedOut", err)
	}
	if !strings.Contains(err.Error(), "did not answer the status ping in time") {
		t.Errorf("error sentence: %q", err)
	}
}

func TestPingCancelled(t *testing.T) {
	srv := statusserver.Start(t, statusserver.Behaviour{Silent: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-srv.Handshakes; cancel() }()
	_, err := Server(ctx, "127.0.0.1", srv.Port())
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != Cancelled {
		t.Fatalf("err = %v, want Cancelled", err)
	}
}

func TestPingRefusesHugeLength(t *testing.T) {
	// A length prefix of 2 MiB (over the status limit) and nothing after
	// it: the client must refuse it without allocating.
	srv := statusserver.Start(t, statusserver.Behaviour{Raw: []byte{0xff, 0xff, 0x7f}}) // 2 MiB, nothing after
	_, err := Server(context.Background(), "127.0.0.1", srv.Port())
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != NotMinecraft {
		t.Fatalf("err = %v, want NotMinecraft", err)
	}
	if !strings.Contains(err.Error(), "not like a Minecraft: Java Edition server") || !strings.Contains(err.Error(), "the limit is") {
		t.Errorf("error sentence: %q", err)
	}
}

func TestPingNotMinecraft(t *testing.T) {
	srv := statusserver.Start(t, statusserver.Behaviour{Raw: []byte("HTTP/1.1 400 Bad Request\r\n\r\n")})
	_, err := Server(context.Background(), "127.0.0.1", srv.Port())
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != NotMinecraft {
		t.Fatalf("err = %v, want NotMinecraft", err)
	}
}

func TestPingBadArguments(t *testing.T) {
	for _, tc := range []struct {
		host string
		port int
	}{{"", 25565}, {"127.0.0.1", 0}, {"127.0.0.1", 70000}} {
		if _, err := Server(context.Background(), tc.host, tc.port); err == nil {
			t.Errorf("Server(%q, %d) succeeded", tc.host, tc.port)
		}
	}
}

func TestDecodeStatus(t *testing.T) {
	str := func(s string) []byte { var w wire.Writer; w.String(s); return w.Bytes() }
	for _, tc := range []struct {
		name    string
		payload []byte
		wantErr string
		motd    string
	}{
		{"array description", str(`{"version":{"name":"1.21.1","protocol":767},"description":[{"text":"a"},"b",{"extra":["c"]}]}`), "", "abc"},
		{"string too long", []byte{100}, "status response", ""},
		{"not json", str("hello"), "not the JSON", ""},
		{"no version", str(`{"description":"x"}`), "names no version", ""},
		{"empty", nil, "status response", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := DecodeStatus(tc.payload)
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

// TestPingWrongPacket: a server that answers the status request with
// another packet is not a Minecraft server, and the sentence says which
// packet came.
func TestPingWrongPacket(t *testing.T) {
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: "{}", WrongID: true})
	_, err := Server(context.Background(), "127.0.0.1", srv.Port())
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != NotMinecraft || !strings.Contains(err.Error(), "expected the status response") {
		t.Fatalf("err = %v, want NotMinecraft naming the packet", err)
	}
}

func FuzzDecodeStatus(f *testing.F) {
	str := func(s string) []byte { var w wire.Writer; w.String(s); return w.Bytes() }
	f.Add(str(`{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":{"text":"§6hi","extra":[{"text":"x"}]}}`))
	f.Add(str(`{"version":{"name":"x","protocol":1},"description":[[[[[["deep"]]]]]]}`))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := DecodeStatus(b)
		if err != nil {
			return
		}
		if len([]rune(st.MOTD)) > MaxMOTD || len([]rune(st.Version)) > maxVersionName {
			t.Fatalf("unbounded text: %+v", st)
		}
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}
