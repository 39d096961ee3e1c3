package api

// The names mc_map's legend gives its classes of terrain, as the console
// reads them back to choose a glyph and a colour: the one list of them
// (bot/worldmap classifies the blocks, and writes these names).
const (
	MapUnknown = "not loaded"
	MapEmpty   = "nothing (void)"
	MapGrass   = "grass"
	MapDirt    = "dirt"
	MapSand    = "sand"
	MapStone   = "stone"
	MapWater   = "water"
	MapLava    = "lava"
	MapLeaves  = "leaves"
	MapWood    = "wood"
	MapSnow    = "snow"
	MapIce     = "ice"
	MapNether  = "nether"
	MapMineral = "ore or mineral block"
	MapPlant   = "plant"
	MapBuilt   = "built"
	MapOther   = "other"
)

// The names the console's map legend gives a build's ghost blocks (mc_map's
// plan): a column the plan will write, and one it has written.
const (
	MapPlanned = "planned"
	MapPlaced  = "built by the plan"
)
