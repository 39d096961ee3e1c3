// Package world decodes chunk data and keeps the blocks of the loaded
// columns: paletted containers as the game packs them (one value; a local
// palette of 4–8 bits for blocks, 1–3 for biomes; global ids of
// ceil(log2(states or biomes)) bits), sections, the chunk data packet body
// (heightmaps, section data, block entities, light skipped), a store with
// block lookups, single and multi block changes, unloads and a
// nearest-first block search. It is pure: no networking, no versions — the
// per-version codec describes the wire layout with a Format and the static
// data (bot/mcdata) gives the number of block states.
//
// Concurrency. The read loop is the writer: it loads, unloads and changes
// blocks; tools and the pathfinder read. Columns and sections are
// immutable once stored. A writer builds the new column (decoding a chunk,
// or copying the one section a block change touches, 2 KiB for a typical
// 16-state section) without any lock, then swaps the column pointer in the
// column table under the store's mutex, held only for that map write;
// writers are serialised among themselves by a second mutex, so a
// read-modify-write never loses a change. A reader holds the read lock
// only to look a column up (BlockAt), or to copy the table of column
// pointers (Snapshot: a few microseconds for a view distance of 10); after
// that it reads the immutable columns with no lock at all, for as long as
// it likes, and never delays the read loop. A snapshot is consistent (all
// columns as of one moment) and simply stops seeing later changes; memory
// of an unloaded column is freed when the last snapshot holding it goes.
// Sections holding one state and one biome (most of the sky) are shared
// between columns, so they cost a pointer, not a section.
package world
