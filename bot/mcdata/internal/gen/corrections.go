package gen

// Correction is one place where blockmate does not take minecraft-data's
// word. Every correction the generator applies is listed here, with the
// reason, and repeated as a comment in the generated file, so that a reader
// of the tables sees at once where they differ from the source.
type Correction struct {
	// Protocols the correction applies to.
	Protocols []int
	State     string // handshaking, status, login, configuration, play
	Direction string // toClient or toServer
	// Drop removes the packet name from that state and direction.
	Drop string
	Why  string
}

// Corrections is the one list of known mistakes in the pinned
// minecraft-data, checked against the protocol documentation (wiki.vg's
// protocol pages for 1.21, 1.21.2 and 1.21.4).
var Corrections = []Correction{
	{
		Protocols: []int{767, 768, 769}, State: "configuration", Direction: "toServer", Drop: "custom_report_details",
		Why: "Custom Report Details is clientbound only; minecraft-data also lists it as serverbound 0x08 in configuration",
	},
	{
		Protocols: []int{767, 768, 769}, State: "configuration", Direction: "toServer", Drop: "server_links",
		Why: "Server Links is clientbound only; minecraft-data also lists it as serverbound 0x09 in configuration",
	},
}
