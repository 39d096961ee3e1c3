package codec

// Protocol 774 (1.21.11): no change from 773 in any packet the bot reads or
// writes today. Sources: minecraft-data's pc/1.21.9 → pc/1.21.11
// protocol.json diff (no packet id changes) and the decompiled 1.21.11
// game. What did change is read elsewhere or later: item component ids
// move (use_effects, damage_type, attack_range …: issue 10's item
// decoder) and entity metadata gains zombie_nautilus_variant and
// humanoid_arm (the generated table). minecraft-data's enchant_item button
// is an i8 here; the game's is a VarInt (C8).
func init() { define(774, func(*Codec) {}) }
