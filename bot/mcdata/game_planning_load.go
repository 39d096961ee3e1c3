package mcdata

// Decoding the planning parts of game_data.bin. The layouts are written
// next to their encoders in bot/mcdata/internal/gen/planning.go.

import "fmt"

func (g *GameData) readLoot(d *dec) {
	if n := d.uint(); n != len(g.Blocks) && d.err == nil {
		d.fail(fmt.Errorf("loot for %d blocks, the version has %d", n, len(g.Blocks)))
		return
	}
	p := &g.planning
	p.sources = make([][]DropSource, len(g.Items))
	for i := range g.Blocks {
		b := &g.Blocks[i]
		n := d.count(3)
		if n == 0 {
			continue
		}
		b.Loot = make([]BlockDrop, n)
		for j := range b.Loot {
			flags := 0
			b.Loot[j] = BlockDrop{Item: g.itemID(d), Count: d.uint()}
			flags = d.uint()
			b.Loot[j].Chance = flags&1 != 0
			b.Loot[j].Grown = flags&2 != 0
			if d.err != nil {
				return
			}
		}
	}
	// Sure sources before chance ones, each in block id order.
	for _, chance := range []bool{false, true} {
		for i := range g.Blocks {
			b := &g.Blocks[i]
			for _, l := range b.Loot {
				if l.Chance == chance {
					p.sources[l.Item] = append(p.sources[l.Item], DropSource{Block: b, Drop: l})
				}
			}
		}
	}
}

func (g *GameData) readMobLoot(d *dec) {
	n := d.count(2)
	g.planning.mobs = make(map[ItemID][]string)
	for range n {
		name := d.str()
		for _, id := range g.itemIDs(d) {
			g.planning.mobs[id] = append(g.planning.mobs[id], name)
		}
		if d.err != nil {
			return
		}
	}
}

func (g *GameData) readFurnace(d *dec) {
	p := &g.planning
	p.smelting = make([]Smelting, d.count(3))
	p.smeltOf = make([]int32, len(g.Items))
	for i := range p.smeltOf {
		p.smeltOf[i] = -1
	}
	for i := range p.smelting {
		s := Smelting{Input: g.itemID(d), Output: g.itemID(d), Ticks: d.uint()}
		if d.err != nil {
			return
		}
		if i > 0 && s.Output < p.smelting[i-1].Output {
			d.fail(fmt.Errorf("smelting recipes are not sorted by output"))
			return
		}
		if p.smeltOf[s.Input] >= 0 {
			d.fail(fmt.Errorf("item %d smelts into two things", s.Input))
			return
		}
		p.smelting[i] = s
		p.smeltOf[s.Input] = int32(i)
	}
	p.smeltStart = make([]int32, len(g.Items)+1)
	r := 0
	for id := range g.Items {
		p.smeltStart[id] = int32(r)
		for r < len(p.smelting) && p.smelting[r].Output == ItemID(id) {
			r++
		}
	}
	p.smeltStart[len(g.Items)] = int32(r)
	p.fuelTicks = make([]int32, len(g.Items))
	n := d.count(2)
	p.fuels = make([]ItemID, 0, n)
	for range n {
		id := g.itemID(d)
		ticks := d.uint()
		if d.err != nil {
			return
		}
		p.fuelTicks[id] = int32(ticks)
		p.fuels = append(p.fuels, id)
	}
}

func (g *GameData) readTags(d *dec) {
	n := d.count(2)
	g.planning.tags = make(map[string][]ItemID, n)
	for range n {
		name := d.str()
		g.planning.tags[name] = g.itemIDs(d)
		if d.err != nil {
			return
		}
	}
}
