package mcdata

import "sort"

// PhysicsRuleBlocks lists the block names the physics table and the
// always-water list name, for the test that they exist.
func PhysicsRuleBlocks() []string {
	names := append([]string(nil), alwaysWater...)
	for n := range blockPhysics {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NotHostileRuleEntities lists the entity names the hostile rule excepts.
func NotHostileRuleEntities() []string {
	var names []string
	for n := range notHostile {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DecodeGameForBenchmark decodes data version i afresh, bypassing the cache.
func DecodeGameForBenchmark(i int) *GameData {
	g, err := decodeGame(&gameVersions[i])
	if err != nil {
		panic(err)
	}
	return g
}
