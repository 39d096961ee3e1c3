package gen

// LootCorrection is one place where the block drops blockmate keeps differ
// from what minecraft-data's 1.20 block loot table (the one dataPaths
// names for every 1.21 and 26.1 release) gives, or cover a block that
// table lacks. Every entry is listed in game_gen.go's header.
type LootCorrection struct {
	Block string
	// Like takes the drops of another block of the 1.20 table, with items
	// renamed by Rename.
	Like   string
	Rename map[string]string
	// Chance marks items the block drops only by chance although
	// blocks.json lists them as its drops.
	Chance []string
	// Drops replaces the drops with these items, one each, always.
	Drops []string
	Why   string
}

// LootRenames are the items the 1.20 loot table names by a name the game
// has since changed, applied to every block's drops.
var LootRenames = map[string]string{
	"grass": "short_grass", // renamed in 1.20.3
}

// LootCorrections are the known gaps of the 1.20 loot table for 1.21 and
// later. Blocks the table lacks and no entry names drop what the release's
// blocks.json lists, one each and always: the tuff, copper, resin, pale oak
// and shelf building blocks drop themselves, wall torches, signs, banners
// and heads the item they stand for, technical blocks nothing.
var LootCorrections = []LootCorrection{
	{
		Block: "short_grass", Like: "grass",
		Why: "the 1.20 table calls it grass; 1.20.3 renamed the block and its item short_grass",
	},
	{
		Block: "pale_oak_leaves", Like: "birch_leaves",
		Rename: map[string]string{"birch_leaves": "pale_oak_leaves", "birch_sapling": "pale_oak_sapling"},
		Why:    "pale oak leaves (1.21.4) drop as birch leaves do: the game's block loot gives both createLeavesDrops with the normal sapling chances (no apples)",
	},
	{
		Block: "resin_clump", Drops: []string{"resin_clump"},
		Why: "blocks.json lists air as the drop of a resin clump; the clump drops itself",
	},
}

func lootCorrectionFor(block string) *LootCorrection {
	for i := range LootCorrections {
		if LootCorrections[i].Block == block {
			return &LootCorrections[i]
		}
	}
	return nil
}
