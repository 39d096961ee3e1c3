package lan

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/mdns"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/untrusted"
)

// MDNSService is the service type Minecraft servers advertise themselves
// under (Avahi/Bonjour service files, server plugins).
const MDNSService = "_minecraft._tcp"

// BrowseMDNS asks the local network for MDNSService on each configured
// interface for window (or until ctx ends), calling found for each complete
// answer (address, port and TXT). found is called from one goroutine at a
// time, and never after BrowseMDNS returns, which it does as soon as ctx
// ends. It fails only when no interface could send the query.
func BrowseMDNS(ctx context.Context, cfg ListenConfig, window time.Duration, found func(Sighting)) error {
	var (
		ifaces []net.Interface
		local  localAddrs
	)
	if err := cfg.enter(func() error {
		var err error
		ifaces, err = cfg.interfaces()
		local = cfg.localAddrs()
		return err
	}); err != nil {
		return fmt.Errorf("cannot list network interfaces for mDNS: %w", err)
	}
	if len(ifaces) == 0 {
		return errors.New("no network interface is up and multicast-capable for mDNS")
	}
	logger := log.New(slogWriter{cfg.log()}, "", 0)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		// returned is set when BrowseMDNS returns; found is never called
		// after that, even by a query still winding down.
		returned bool
	)
	deliver := func(s Sighting) {
		mu.Lock()
		defer mu.Unlock()
		if !returned {
			found(s)
		}
	}
	defer func() {
		mu.Lock()
		returned = true
		mu.Unlock()
	}()
	for i := range ifaces {
		ifi := ifaces[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The mdns package sends entries without blocking, so the
			// buffer is all a query that outlives this function needs.
			entries := make(chan *mdns.ServiceEntry, 64)
			errc := make(chan error, 1)
			go func() {
				err := cfg.enter(func() error {
					return mdns.QueryContext(ctx, &mdns.QueryParam{
						Service:             MDNSService,
						Domain:              "local",
						Timeout:             window,
						Interface:           &ifi,
						Entries:             entries,
						WantUnicastResponse: true,
						DisableIPv6:         true,
						Logger:              logger,
					})
				})
				close(entries)
				errc <- err
			}()
			for {
				select {
				case e, ok := <-entries:
					if !ok {
						if err := <-errc; err != nil && ctx.Err() == nil {
							mu.Lock()
							errs = append(errs, fmt.Errorf("%s: %w", ifi.Name, err))
							mu.Unlock()
						}
						return
					}
					if s, ok := mdnsSighting(e, local); ok {
						deliver(s)
					}
				case <-ctx.Done():
					// QueryContext closes its sockets when ctx ends but
					// still waits out its Timeout (hashicorp/mdns v1.0.7);
					// a stopped browse returns now and leaves it to finish.
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) == len(ifaces) {
		msgs := make([]string, len(errs))
		for i, err := range errs {
			msgs[i] = err.Error()
		}
		return fmt.Errorf("no interface could send the mDNS query (%s)", strings.Join(msgs, "; "))
	}
	return nil
}

// mdnsSighting turns an mDNS answer into a Sighting. The MOTD is the TXT
// "motd=" field when there is one, else the instance name.
func mdnsSighting(e *mdns.ServiceEntry, local localAddrs) (Sighting, bool) {
	if e == nil || e.Port < 1 || e.Port > 65535 {
		return Sighting{}, false
	}
	var ip net.IP
	host := ""
	switch {
	case e.AddrV4 != nil:
		ip, host = e.AddrV4, e.AddrV4.String()
	case e.AddrV6IPAddr != nil:
		ip, host = e.AddrV6IPAddr.IP, e.AddrV6IPAddr.String()
	default:
		return Sighting{}, false
	}
	motd := ""
	for _, f := range e.InfoFields {
		if v, ok := strings.CutPrefix(unescapeDNS(f), "motd="); ok {
			motd = v
			break
		}
	}
	if motd == "" {
		motd = instanceName(e.Name)
	}
	return Sighting{
		Host: host, Port: e.Port, MOTD: untrusted.Short(motd, ping.MaxMOTD),
		IsLocalMachine: local.has(ip), From: ip, Source: api.FromMDNS,
	}, true
}

// instanceName takes "My\ World._minecraft._tcp.local." to "My World".
func instanceName(fqdn string) string {
	name, _, _ := strings.Cut(fqdn, "."+MDNSService+".")
	return unescapeDNS(name)
}

// unescapeDNS undoes the DNS presentation format the mdns package hands
// names and TXT strings over in: "\DDD" is a byte in decimal, "\X" is X.
// So "\194\167a" is "§a" again.
func unescapeDNS(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		if i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
			v := int(s[i+1]-'0')*100 + int(s[i+2]-'0')*10 + int(s[i+3]-'0')
			if v <= 255 {
				b = append(b, byte(v))
				i += 3
				continue
			}
		}
		b = append(b, s[i+1])
		i++
	}
	return string(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// slogWriter sends the mdns package's log lines to slog at debug level: its
// complaints (an interface without IPv6, a packet it cannot parse) are not
// news to a player.
type slogWriter struct{ log *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.log.Debug("mdns: " + strings.TrimSpace(string(p)))
	return len(p), nil
}
