package api

// LANWorld is a world found on the local network, as mc_discover_lan lists
// it and mc_lan_world_found carries it: the one definition of that shape,
// which lan fills and the console decodes. The motd and the version name
// came from the network (other people wrote them).
type LANWorld struct {
	Host           string `json:"host"`
	Port           int    `json:"port"`
	MOTD           string `json:"motd"`
	IsLocalMachine bool   `json:"is_local_machine"`
	Version        string `json:"version,omitempty"`
	Protocol       int    `json:"protocol,omitempty"`
	PlayersOnline  *int   `json:"players_online,omitempty"`
	PlayersMax     *int   `json:"players_max,omitempty"`
	Compatible     *bool  `json:"compatible,omitempty"`
	// Source says how it was found ("announcement" or "mdns").
	Source Source `json:"source"`
	// PingError is why the status ping failed, when it did.
	PingError string `json:"ping_error,omitempty"`
	// NextStep, for a world the bot cannot join, says what the player can
	// do instead (make a world in a version blockmate joins); absent for
	// a joinable world and one that did not answer (PingError says why).
	NextStep string `json:"next_step,omitempty"`
	// Untrusted is always true: the motd is text someone else wrote. It is
	// in the payload itself for a reader that sees it without the catalog.
	Untrusted bool `json:"untrusted"`
}

// Source is how a LAN world was found.
type Source string

// The ways of finding a world.
const (
	FromAnnouncement Source = "announcement"
	FromMDNS         Source = "mdns"
)

// Joinable reports whether the bot can try to join: the world answered its
// status ping (no PingError) with a supported version, or was not pinged
// and there is no status to say otherwise. A world that did not answer is
// not joinable: mc_join pings first and would fail the same way.
func (w LANWorld) Joinable() bool {
	return w.PingError == "" && (w.Compatible == nil || *w.Compatible)
}
