package plan

// Merging steps. Planning item by item gathers logs three times on the way
// to a wooden pickaxe (for its planks, its sticks, the table) and crafts
// planks three times. A step folds into an earlier one of the same kind,
// item and recipe (or blocks and tool) when everything it consumes is made
// only before that earlier step: then doing it all there changes no
// later step's supply, and the plan reads as a player plays it, "gather 3
// oak_log, craft 12 oak_planks".

import "slices"

func merge(steps []Step) []Step {
	steps = hoistGathers(steps)
	var out []Step
	for _, s := range steps {
		at := -1
		for i := range out {
			if same(out[i], s) && madeBefore(out, i, s) {
				at = i
				break
			}
		}
		if at < 0 {
			s.Uses = slices.Clone(s.Uses)
			out = append(out, s)
			continue
		}
		t := &out[at]
		t.Count += s.Count
		t.Crafts += s.Crafts
		for _, u := range s.Uses {
			if j := slices.IndexFunc(t.Uses, func(c ItemCount) bool { return c.Item == u.Item }); j >= 0 {
				t.Uses[j].Count += u.Count
			} else {
				t.Uses = append(t.Uses, u)
			}
		}
	}
	return out
}

// same says whether b does what a does, so that it can fold into a.
func same(a, b Step) bool {
	if a.Kind != b.Kind || a.Item != b.Item {
		return false
	}
	switch a.Kind {
	case Gather:
		return a.Tool == b.Tool && a.ByChance == b.ByChance && slices.Equal(a.From, b.From)
	case Craft:
		return a.Recipe == b.Recipe
	}
	return false
}

// madeBefore says whether every item step s consumes (and the tool it
// needs) is produced only by steps before index i.
func madeBefore(steps []Step, i int, s Step) bool {
	needs := make([]string, 0, len(s.Uses)+1)
	for _, u := range s.Uses {
		needs = append(needs, u.Item)
	}
	if s.Tool != "" {
		needs = append(needs, s.Tool)
	}
	for j := i; j < len(steps); j++ {
		if produces(steps[j]) && slices.Contains(needs, steps[j].Item) {
			return false
		}
	}
	return true
}

func produces(s Step) bool { return s.Kind == Gather || s.Kind == Craft || s.Kind == Smelt }

// hoistGathers moves each gather to just before the first step that
// consumes what it gathers, when its tool is made before that: the bot
// then gathers what a craft needs before crafting from what it carries,
// and the crafts fold into one.
func hoistGathers(steps []Step) []Step {
	out := slices.Clone(steps)
	for j := 0; j < len(out); j++ {
		s := out[j]
		if s.Kind != Gather {
			continue
		}
		first := -1
		for i := 0; i < j; i++ {
			if slices.ContainsFunc(out[i].Uses, func(c ItemCount) bool { return c.Item == s.Item }) ||
				slices.ContainsFunc(out[i].Fuel, func(c ItemCount) bool { return c.Item == s.Item }) {
				first = i
				break
			}
		}
		if first < 0 {
			continue
		}
		at := first
		if s.Tool != "" {
			for i := first; i < j; i++ {
				if produces(out[i]) && out[i].Item == s.Tool {
					at = -1 // the tool is made after the first consumer
				}
			}
		}
		if at < 0 {
			continue
		}
		copy(out[at+1:j+1], out[at:j])
		out[at] = s
	}
	return out
}
