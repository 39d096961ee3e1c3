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
