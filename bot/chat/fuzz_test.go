package chat

import (
	"testing"

	"github.com/blockmate/blockmate/bot/wire"
)

func FuzzPlainFromJSON(f *testing.F) {
	f.Add(`{"translate":"chat.type.text","with":["a","b"]}`)
	f.Add(`{"translate":"x","fallback":"%1$s%2$s%%%s","with":[{"text":"y"}]}`)
	f.Add(`["a",{"text":"b","bold":true}]`)
	f.Fuzz(func(t *testing.T, s string) {
		_ = Segments(ParseJSON(s))
	})
}

func FuzzPlainFromNBT(f *testing.F) {
	f.Add([]byte{8, 0, 5, 'h', 'e', 'l', 'l', 'o'})
	f.Add([]byte{10, 8, 0, 4, 't', 'e', 'x', 't', 0, 1, 'x', 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Plain(wire.NewReader(b).NBT())
	})
}
