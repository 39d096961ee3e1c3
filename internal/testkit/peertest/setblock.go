package peertest

import (
	"fmt"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcversion"
)

// SetBlockArgs turns a block state in the game's notation, e.g.
// "red_bed[part=head,facing=east,occupied=false]", into the block and data
// flying-squid's /setblock takes ("red_bed 14"): the data is the state's
// offset from the block's first state, from the version's generated block
// data. Properties left out take their first matching value.
func SetBlockArgs(version, pattern string) (string, error) {
	r, ok := mcversion.LookupName(version)
	if !ok {
		return "", fmt.Errorf("blockmate does not speak %s", version)
	}
	g := mcdata.Game(int32(r.Protocol))
	if g == nil {
		return "", fmt.Errorf("no block data for %s", version)
	}
	set, err := g.MatchStates(pattern)
	if err != nil {
		return "", err
	}
	b := set.Blocks[0]
	for s := b.MinState; s <= b.MaxState; s++ {
		if set.Has(s) {
			return fmt.Sprintf("%s %d", b.Name, s-b.MinState), nil
		}
	}
	return "", fmt.Errorf("no state of %s matches %s", b.Name, pattern)
}
