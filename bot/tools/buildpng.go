package tools

import (
	"bytes"
	"image"
	"image/color"
	"image/png"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// planMaxSide is the largest side in blocks a plan's picture draws, and
// planPixels the side in pixels it aims at: a block is 8 pixels in a small
// plan and fewer, down to 2, in a large one, so the picture stays small.
const (
	planMaxSide = 128
	planPixels  = 256
)

// PlanPNG draws a plan from above: for each column of the region, the
// highest block the plan writes there, coloured by what it is (removals
// dark red), on a light grid. People would rather look at a plan than read
// its list. nil when the plan writes nothing.
func PlanPNG(g *mcdata.GameData, p *build.Plan) []byte {
	if len(p.Writes) == 0 {
		return nil
	}
	w, _, l := p.Region.Size()
	if w > planMaxSide || l > planMaxSide || w <= 0 || l <= 0 {
		return nil
	}
	planScale := min(8, max(2, planPixels/max(w, l)))
	img := image.NewRGBA(image.Rect(0, 0, w*planScale, l*planScale))
	bg, grid := color.RGBA{240, 240, 232, 255}, color.RGBA{214, 214, 204, 255}
	for y := 0; y < l*planScale; y++ {
		for x := 0; x < w*planScale; x++ {
			c := bg
			if x%planScale == 0 || y%planScale == 0 {
				c = grid
			}
			img.SetRGBA(x, y, c)
		}
	}
	type top struct {
		y     int
		color color.RGBA
	}
	tops := map[[2]int]top{}
	for _, wr := range p.Writes {
		k := [2]int{wr.Pos.X - p.Region.Min.X, wr.Pos.Z - p.Region.Min.Z}
		if t, ok := tops[k]; ok && t.y > wr.Pos.Y {
			continue
		}
		tops[k] = top{wr.Pos.Y, blockColor(g, wr.AfterID)}
	}
	for k, t := range tops {
		for dy := 1; dy < planScale; dy++ {
			for dx := 1; dx < planScale; dx++ {
				img.SetRGBA(k[0]*planScale+dx, k[1]*planScale+dy, t.color)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil
	}
	return buf.Bytes()
}

// blockColor is a block's colour in the picture: a hue from its name, so
// one block is one colour in every picture, and air (a removal) dark red.
func blockColor(g *mcdata.GameData, s mcdata.StateID) color.RGBA {
	if g.IsAir(s) {
		return color.RGBA{140, 30, 30, 255}
	}
	b := g.BlockOf(s)
	if b == nil {
		return color.RGBA{90, 90, 90, 255}
	}
	var h uint32 = 2166136261
	for i := 0; i < len(b.Name); i++ {
		h = (h ^ uint32(b.Name[i])) * 16777619
	}
	return color.RGBA{uint8(60 + h%150), uint8(60 + (h>>8)%150), uint8(60 + (h>>16)%150), 255}
}
