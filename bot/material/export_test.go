package material

// RuleTable is one of the name tables, for the test that its entries name
// real blocks.
type RuleTable struct {
	Name     string
	Names    []string
	Suffixes []string
	// Optional are names that may be missing from the newest version.
	Optional map[string]bool
}

// RuleTables lists every name table of the package.
func RuleTables() []RuleTable {
	out := []RuleTable{
		{Name: "fallers", Names: fallers.names, Suffixes: fallers.suffixes},
		{Name: "blockEntities", Names: blockEntities.names, Suffixes: blockEntities.suffixes},
		{Name: "noItem", Names: noItem},
	}
	var placed []string
	for n := range placedBy {
		placed = append(placed, n)
	}
	out = append(out, RuleTable{Name: "placedBy", Names: placed})
	for _, r := range supportRules {
		out = append(out, RuleTable{Name: "support " + r.support.String(), Names: r.names, Suffixes: r.suffixes})
	}
	return out
}
