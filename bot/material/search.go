package material

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Search limits (the seed builder's, which a model learns once).
const (
	MaxQuery     = 96
	DefaultLimit = 16
	MaxLimit     = 32
	MaxCursor    = 100
)

// Kinds of material a search returns.
const (
	KindBlock = "block"
	KindItem  = "item"
	KindAll   = "all"
)

// SearchArgs are mc_material_search's arguments.
type SearchArgs struct {
	// Query is matched token by token (whitespace-separated) against ids,
	// case-insensitively: every token must appear. Empty matches all.
	Query string `json:"query,omitempty"`
	// Kind is block (the default), item or all.
	Kind   string `json:"kind,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

// SearchResult is mc_material_search's answer.
type SearchResult struct {
	// Total is how many materials match, over every page.
	Total   int     `json:"total"`
	Results []Entry `json:"results"`
	// NextCursor continues the same search; absent on the last page.
	NextCursor string `json:"next_cursor,omitempty"`
}

// Entry is one material: a name that is a block, an item or both.
type Entry struct {
	ID    string `json:"id"`
	Block bool   `json:"block"`
	Item  bool   `json:"item"`
}

// Search answers mc_material_search. Pages are stable: the order is a pure
// function of the version's data and the query (exact id first, then ids
// where more tokens are whole words, then shorter ids, then by name), and a
// cursor carries the version, kind and query it belongs to, so a cursor
// from another search is refused rather than read wrong.
func Search(g *mcdata.GameData, a SearchArgs) (SearchResult, error) {
	kind := strings.ToLower(strings.TrimSpace(a.Kind))
	if kind == "" {
		kind = KindBlock
	}
	if kind != KindBlock && kind != KindItem && kind != KindAll {
		return SearchResult{}, fmt.Errorf("kind %q is not one of block, item, all; leave it out to search blocks", a.Kind)
	}
	if len(a.Query) > MaxQuery {
		return SearchResult{}, fmt.Errorf("the query is %d characters; at most %d are accepted: search one family, such as \"oak stairs\"", len(a.Query), MaxQuery)
	}
	for _, r := range a.Query {
		if r < ' ' || r == 0x7f {
			return SearchResult{}, fmt.Errorf("the query holds a control character; write words such as \"oak stairs\"")
		}
	}
	limit := a.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 1 || limit > MaxLimit:
		return SearchResult{}, fmt.Errorf("limit %d is outside 1–%d; ask for a page of at most %d and follow next_cursor", a.Limit, MaxLimit, MaxLimit)
	}
	tokens := queryTokens(a.Query)
	norm := strings.Join(tokens, " ")
	offset := 0
	if a.Cursor != "" {
		var err error
		if offset, err = readCursor(a.Cursor, g.Version, kind, norm); err != nil {
			return SearchResult{}, err
		}
	}

	// The catalog is kept in (length, name) order, so ranking is only a
	// bucketing by (exact, whole words): no sort per page.
	joined := strings.Join(tokens, "_")
	buckets := make([][]Entry, len(tokens)+2) // [0] exact, [1+k] k whole words fewer than all
	for _, e := range catalogOf(g).byLength {
		if kind == KindBlock && !e.Block || kind == KindItem && !e.Item {
			continue
		}
		ok, words := true, 0
		for _, t := range tokens {
			if !strings.Contains(e.ID, t) {
				ok = false
				break
			}
			if hasWord(e.ID, t) {
				words++
			}
		}
		switch {
		case !ok:
		case e.ID == joined:
			buckets[0] = append(buckets[0], e)
		default:
			buckets[1+len(tokens)-words] = append(buckets[1+len(tokens)-words], e)
		}
	}
	var hits []Entry
	for _, b := range buckets {
		hits = append(hits, b...)
	}
	out := SearchResult{Total: len(hits), Results: []Entry{}}
	if offset > len(hits) {
		offset = len(hits)
	}
	end := min(offset+limit, len(hits))
	out.Results = append(out.Results, hits[offset:end]...)
	if end < len(hits) {
		out.NextCursor = makeCursor(g.Version, kind, norm, end)
	}
	return out, nil
}

// queryTokens lowers the query and cuts it into words; "minecraft:" and
// the underscores of an id written whole count as word breaks too, so
// "Oak Stairs", "oak_stairs" and "minecraft:oak_stairs" search alike.
func queryTokens(q string) []string {
	q = strings.ToLower(q)
	q = strings.ReplaceAll(q, "minecraft:", " ")
	return strings.FieldsFunc(q, func(r rune) bool { return r == ' ' || r == '\t' || r == '_' || r == ',' })
}

// hasWord says whether t is one of id's underscore-separated words.
func hasWord(id, t string) bool {
	for rest := id; ; {
		w, after, more := strings.Cut(rest, "_")
		if w == t {
			return true
		}
		if !more {
			return false
		}
		rest = after
	}
}

// A cursor is "m1|version|kind|query hash|offset" in unpadded base64url:
// opaque to the caller, and checked against the search it continues.
func makeCursor(version, kind, query string, offset int) string {
	raw := fmt.Sprintf("m1|%s|%s|%08x|%d", version, kind, queryHash(query), offset)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func queryHash(q string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(q))
	return h.Sum32()
}

func readCursor(cursor, version, kind, query string) (int, error) {
	bad := fmt.Errorf("the cursor is not one a material search gave; repeat the search without cursor")
	if len(cursor) > MaxCursor {
		return 0, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, bad
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) != 5 || parts[0] != "m1" {
		return 0, bad
	}
	offset, err := strconv.Atoi(parts[4])
	if err != nil || offset < 0 || offset > 1<<20 {
		return 0, bad
	}
	if parts[1] != version {
		return 0, fmt.Errorf("the cursor belongs to a search of Minecraft %s, and the game is now %s; repeat the search without cursor", parts[1], version)
	}
	if parts[2] != kind || parts[3] != fmt.Sprintf("%08x", queryHash(query)) {
		return 0, fmt.Errorf("the cursor belongs to another query or kind; repeat this search without cursor, or send the cursor with the query and kind it came with")
	}
	return offset, nil
}
