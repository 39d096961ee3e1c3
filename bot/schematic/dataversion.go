package schematic

// dataVersions are the world data versions of the game versions blockmate
// has data for (minecraft-data's protocolVersions.json, dataVersion; a
// test checks every entry there and that no version of mcdata.Game is
// missing). A schematic records the data version of the game that wrote
// it; mcdata does not carry the number, and this is its only use.
var dataVersions = map[string]int{
	"1.21.1":  3955,
	"1.21.3":  4082,
	"1.21.4":  4189,
	"1.21.5":  4325,
	"1.21.6":  4435,
	"1.21.8":  4440,
	"1.21.10": 4556,
	"1.21.11": 4671,
	"26.1":    4786,
	"26.2":    4903,
	"26.3":    5023,
}

// DataVersionOf returns the world data version of a game version
// (GameData.Version), and false for one the table lacks.
func DataVersionOf(version string) (int, bool) {
	v, ok := dataVersions[version]
	return v, ok
}
