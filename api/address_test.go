package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/protocol"
)

func TestSplitHost(t *testing.T) {
	const recover = " — " + PortRecovery
	for _, tc := range []struct {
		host     string
		port     int
		wantHost string
		wantPort int
		err      string
	}{
		{"127.0.0.1", 25565, "127.0.0.1", 25565, ""},
		{"127.0.0.1:25570", 0, "127.0.0.1", 25570, ""},
		{"127.0.0.1:25570", 25570, "127.0.0.1", 25570, ""},
		{" my-pc.local:25570 ", 0, "my-pc.local", 25570, ""},
		{"127.0.0.1:25570", 25571, "", 0, `host "127.0.0.1:25570" says port 25570 but port says 25571: give it once` + recover},
		{"[::1]:25570", 0, "::1", 25570, ""},
		{"[::1]", 25565, "::1", 25565, ""},
		{"::1", 25565, "::1", 25565, ""},
		{"fe80::1%eth0", 25565, "fe80::1%eth0", 25565, ""},
		{"127.0.0.1", 0, "", 0, "invalid or missing port" + recover},
		{"localhost:x", 25565, "", 0, `the port in host "localhost:x" is not a number from 1 to 65535` + recover},
		{"localhost:0", 0, "", 0, `the port in host "localhost:0" is not a number from 1 to 65535` + recover},
		{"[::1]:70000", 0, "", 0, `the port in host "[::1]:70000" is not a number from 1 to 65535` + recover},
		{"[::1", 25565, "", 0, `host "[::1" is not an address: give a name or IP address, with an IPv6 address in brackets, e.g. [::1]:25565`},
		{":25565", 0, "", 0, `host ":25565" names no computer: give a name or IP address, e.g. 127.0.0.1`},
	} {
		h, p, err := SplitHost(tc.host, tc.port)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q %d: err %v, want %q", tc.host, tc.port, err, tc.err)
			}
			continue
		}
		if err != nil || h != tc.wantHost || p != tc.wantPort {
			t.Errorf("%q %d = %q %d %v", tc.host, tc.port, h, p, err)
		}
	}
}

// A caller that words its own sentence (the console) can tell a missing
// port from a wrong one, and both from a wrong host.
func TestSplitHostSaysWhichPartIsWrong(t *testing.T) {
	for _, tc := range []struct {
		host string
		port int
		kind error
	}{
		{"127.0.0.1", 0, ErrNoPort},
		{"::1", 0, ErrNoPort},
		{"127.0.0.1:x", 0, ErrBadPort},
		{"[::1]:0", 0, ErrBadPort},
		{"127.0.0.1:1", 2, ErrBadPort},
		{"[::1", 0, nil},
		{":1", 0, nil},
	} {
		_, _, err := SplitHost(tc.host, tc.port)
		if err == nil {
			t.Errorf("%q %d: no error", tc.host, tc.port)
			continue
		}
		for _, kind := range []error{ErrNoPort, ErrBadPort} {
			if errors.Is(err, kind) != (kind == tc.kind) {
				t.Errorf("%q %d: %v; errors.Is %v = %v", tc.host, tc.port, err, kind, !(kind == tc.kind))
			}
		}
	}
}

// The schema's own refusals of a port (0, 70000, a string, absent when
// required) end with the document's recovery sentence too.
func TestPortArgRefusalsRecover(t *testing.T) {
	schema := protocol.Schema{PortArg("the port").Req()}
	for _, raw := range []string{`0`, `70000`, `"51234"`, `51234.5`, `null`} {
		_, err := schema.Validate("mc_x", map[string]json.RawMessage{"port": json.RawMessage(raw)})
		if err == nil || !strings.HasSuffix(err.Error(), " — "+PortRecovery) {
			t.Errorf("port %s: %v, want a refusal ending with the recovery sentence", raw, err)
		}
	}
}
