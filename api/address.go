package api

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/blockmate/blockmate/protocol"
)

// PortRecovery is the protocol document's recovery sentence for a port that
// is missing or wrong. Every refusal of a port ends with it, whichever tool
// refuses and whether the schema or the tool itself does.
const PortRecovery = "run mc_discover_lan first, or ask the user for the port from Minecraft chat"

// PortArg declares a tool's port argument: 1 to 65535, and a refusal that
// ends with PortRecovery. mc_join and mc_ping_server both take it.
func PortArg(description string) protocol.Arg {
	return protocol.Int("port", description, 1, 65535).Recover(PortRecovery)
}

// ErrNoPort and ErrBadPort say which way SplitHost refused a port (test
// with errors.Is): given nowhere, or not a number from 1 to 65535 (or given
// twice, differently). Any other SplitHost error is about the host. A caller
// that speaks to a person rather than a program (the console) words its own
// sentence from them.
var (
	ErrNoPort  = errors.New("no port")
	ErrBadPort = errors.New("not a port")
)

// portError is a port refusal: its sentence ends with the recovery
// sentence, and it unwraps to ErrNoPort or ErrBadPort.
type portError struct {
	sentence string
	kind     error
}

func (e *portError) Error() string { return e.sentence + " — " + PortRecovery }
func (e *portError) Unwrap() error { return e.kind }

// portRefusal is a port error of kind ending with the recovery sentence.
func portRefusal(kind error, format string, args ...any) error {
	return &portError{fmt.Sprintf(format, args...), kind}
}

// SplitHost is the one rule for where a world is, shared by every tool that
// takes a host and a port. host may carry the port ("127.0.0.1:25570",
// "[::1]:25570") or be a bare host name or IP address (IPv6 with or without
// brackets); port is the port argument, 0 when absent. It returns the host
// without brackets and the one port, or an error saying what to send
// instead. A port given in neither place, or given twice differently, is
// refused.
func SplitHost(host string, port int) (string, int, error) {
	host = strings.TrimSpace(host)
	h, p, hasPort := host, "", false
	switch {
	case strings.HasPrefix(host, "["):
		if strings.HasSuffix(host, "]") {
			h = host[1 : len(host)-1]
			break
		}
		var err error
		if h, p, err = net.SplitHostPort(host); err != nil {
			return "", 0, fmt.Errorf("host %q is not an address: give a name or IP address, with an IPv6 address in brackets, e.g. [::1]:25565", host)
		}
		hasPort = true
	case strings.Count(host, ":") == 1:
		h, p, _ = strings.Cut(host, ":")
		hasPort = true
	}
	if h == "" {
		return "", 0, fmt.Errorf("host %q names no computer: give a name or IP address, e.g. 127.0.0.1", host)
	}
	if !hasPort {
		if port == 0 {
			return "", 0, portRefusal(ErrNoPort, "invalid or missing port")
		}
		return h, port, nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return "", 0, portRefusal(ErrBadPort, "the port in host %q is not a number from 1 to 65535", host)
	}
	if port != 0 && port != n {
		return "", 0, portRefusal(ErrBadPort, "host %q says port %d but port says %d: give it once", host, n, port)
	}
	return h, n, nil
}
