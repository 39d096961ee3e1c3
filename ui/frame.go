package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// frame draws a pane: a border from style with the title set into its top
// edge, around lines clipped and padded to exactly w×h cells in all, with
// one blank column inside each side. Panes size their lines to w-4.
func frame(style, titleStyle lipgloss.Style, title string, lines []string, w, h int) string {
	if w < 4 || h < 2 {
		return ""
	}
	b := style.GetBorderStyle()
	edge := lipgloss.NewStyle().Foreground(style.GetBorderTopForeground())
	innerW, innerH := w-2, h-2

	label := ""
	if title != "" {
		label = " " + truncate(title, innerW-3) + " "
	}
	fill := innerW - 1 - ansi.StringWidth(label)
	if fill < 0 {
		fill = 0
	}
	var out strings.Builder
	out.WriteString(edge.Render(b.TopLeft + b.Top))
	out.WriteString(titleStyle.Render(label))
	out.WriteString(edge.Render(strings.Repeat(b.Top, fill) + b.TopRight))
	out.WriteByte('\n')
	body := fit(lines, innerW-2, innerH)
	for _, l := range body {
		out.WriteString(edge.Render(b.Left) + " ")
		out.WriteString(l)
		out.WriteString(" " + edge.Render(b.Right))
		out.WriteByte('\n')
	}
	out.WriteString(edge.Render(b.BottomLeft + strings.Repeat(b.Bottom, innerW) + b.BottomRight))
	return out.String()
}

// fit clips every line to w cells, pads it to exactly w, and returns exactly
// h lines.
func fit(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := 0; i < h; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = padRight(l, w)
	}
	return out
}

// padRight clips or pads one line to exactly w cells.
func padRight(l string, w int) string {
	lw := ansi.StringWidth(l)
	if lw > w {
		l = ansi.Truncate(l, w, "…")
		lw = ansi.StringWidth(l)
	}
	if lw < w {
		l += strings.Repeat(" ", w-lw)
	}
	return l
}

// wrapText breaks plain text into lines of at most w cells.
func wrapText(s string, w int) []string {
	if w < 1 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}
