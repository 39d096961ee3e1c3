package conn

import (
	"bytes"
	"io"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// BenchmarkReadChunks reads the chunk packets a peer sent at 26.1
// (testdata/chunks, compressed again), whole and cut at their terrain's
// end as the world feature has them cut: the cost of a column arriving,
// most of an idle bot's CPU at view distance 10.
func BenchmarkReadChunks(b *testing.B) {
	capt := peertest.LoadChunkCaptures(b, "26.1")
	var stream []byte
	total := 0
	for _, ch := range capt.Chunks {
		stream = append(stream, frame(int32(len(ch.Packet)), deflate(ch.Packet))...)
		total += len(ch.Packet)
	}
	format := codec.For(int32(capt.Protocol)).ChunkFormat
	for _, cut := range []bool{false, true} {
		name := "whole"
		if cut {
			name = "cut"
		}
		b.Run(name, func(b *testing.B) {
			src := bytes.NewReader(stream)
			fr := newFrameReader(src, 0)
			if cut {
				fr.cutFor = func(int32) Cut { return format.TerrainEnd }
			}
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				src.Reset(stream)
				fr.br.Reset(src)
				for {
					if _, _, _, err := fr.next(256); err != nil {
						if err != io.EOF {
							b.Fatal(err)
						}
						break
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(capt.Chunks))/1000, "µs/column")
		})
	}
}
