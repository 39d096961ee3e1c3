package codec

// Protocol 772 (1.21.7, 1.21.8): no wire change from 771. minecraft-data's
// pc/1.21.6 and pc/1.21.8 protocol.json are byte-identical, and the
// decompiled 1.21.7 game agrees with them on every packet id and every
// layout the bot uses. The file stays so the chain 767 … 775 reads whole.
func init() { define(772, func(*Codec) {}) }
