package benchfmt

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Plot geometry (SVG user units).
const (
	plotW, plotH             = 720, 440
	marginL, marginR         = 80, 190
	marginT, marginB         = 40, 56
	innerW, innerH           = plotW - marginL - marginR, plotH - marginT - marginB
	legendX, legendY, legend = plotW - marginR + 16, marginT + 8, 18
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
	"#bcbd22", "#17becf"}

type series struct {
	label  string
	points [][2]float64 // batch, rows/s; sorted by batch
}

// seriesOf groups results into lines: one per combination of everything
// but the batch. A line's label names its vocab and whatever else differs
// between lines.
func seriesOf(results []Result) []series {
	type key struct {
		backend       string
		device, vocab int
		k             int
		p             float64
		dist, dtype   string
	}
	keyOf := func(r Result) key { return key{r.Backend, r.Device, r.Vocab, r.K, r.P, r.Dist, r.DType} }
	var keys []key
	byKey := map[key]*series{}
	for _, r := range results {
		k := keyOf(r)
		if byKey[k] == nil {
			keys = append(keys, k)
			byKey[k] = &series{}
		}
		if rps := r.RowsPerSec(); rps > 0 {
			byKey[k].points = append(byKey[k].points, [2]float64{float64(r.Batch), rps})
		}
	}
	differ := func(f func(key) string) bool {
		for _, k := range keys[1:] {
			if f(k) != f(keys[0]) {
				return true
			}
		}
		return false
	}
	fields := []func(key) string{
		func(k key) string { return k.backend },
		func(k key) string {
			if k.device < 0 {
				return "cpu"
			}
			return "gpu" + strconv.Itoa(k.device)
		},
		func(k key) string { return "k=" + strconv.Itoa(k.k) },
		func(k key) string { return "p=" + fmtP(k.p) },
		func(k key) string { return k.dist },
		func(k key) string { return k.dtype },
	}
	var out []series
	for _, k := range keys {
		s := byKey[k]
		if len(s.points) == 0 {
			continue
		}
		slices.SortFunc(s.points, func(a, b [2]float64) int { return int(a[0] - b[0]) })
		label := []string{"V=" + strconv.Itoa(k.vocab)}
		for _, f := range fields {
			if differ(f) {
				label = append(label, f(k))
			}
		}
		s.label = strings.Join(label, " ")
		out = append(out, *s)
	}
	return out
}

// SVG writes a self-contained plot of throughput (rows/s, log scale)
// against batch size (log scale), one line per vocab and setting, in the
// manner of the paper's Figure 2.
func SVG(w io.Writer, title string, results []Result) error {
	ss := seriesOf(results)
	if len(ss) == 0 {
		return fmt.Errorf("plot: no result with a positive time")
	}
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	var batches []float64
	for _, s := range ss {
		for _, p := range s.points {
			xlo, xhi = min(xlo, p[0]), max(xhi, p[0])
			ylo, yhi = min(ylo, p[1]), max(yhi, p[1])
			if !slices.Contains(batches, p[0]) {
				batches = append(batches, p[0])
			}
		}
	}
	slices.Sort(batches)
	lx0, lx1 := math.Log2(xlo), math.Log2(xhi)
	if lx1 == lx0 {
		lx0, lx1 = lx0-1, lx1+1
	}
	ly0, ly1 := math.Floor(math.Log10(ylo)), math.Ceil(math.Log10(yhi))
	if ly1 == ly0 {
		ly1++
	}
	px := func(x float64) float64 { return marginL + (math.Log2(x)-lx0)/(lx1-lx0)*innerW }
	py := func(y float64) float64 { return marginT + innerH - (math.Log10(y)-ly0)/(ly1-ly0)*innerH }
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotW, plotH, plotW, plotH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="14" font-weight="bold">%s</text>`+"\n", marginL, html.EscapeString(title))
	// Grid and ticks: a line per decade of rows/s, one per batch size.
	for e := ly0; e <= ly1; e++ {
		y := py(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="#ddd"/>`+"\n", marginL, f(y), marginL+innerW, f(y))
		fmt.Fprintf(&b, `<text x="%d" y="%s" text-anchor="end">1e%d</text>`+"\n", marginL-6, f(y+4), int(e))
	}
	for _, x := range batches {
		xx := px(x)
		fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#eee"/>`+"\n", f(xx), marginT, f(xx), marginT+innerH)
		fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%d</text>`+"\n", f(xx), marginT+innerH+16, int(x))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n", marginL, marginT, innerW, innerH)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">batch (rows per call)</text>`+"\n", marginL+innerW/2, plotH-14)
	fmt.Fprintf(&b, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">rows/s</text>`+"\n", marginT+innerH/2)
	for i, s := range ss {
		c := palette[i%len(palette)]
		pts := make([]string, len(s.points))
		for j, p := range s.points {
			pts[j] = f(px(p[0])) + "," + f(py(p[1]))
		}
		if len(pts) > 1 {
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", c, strings.Join(pts, " "))
		}
		for _, p := range s.points {
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"><title>%s B=%d: %.4g rows/s</title></circle>`+"\n",
				f(px(p[0])), f(py(p[1])), c, html.EscapeString(s.label), int(p[0]), p[1])
		}
		y := legendY + i*legend
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", legendX, y, legendX+20, y, c)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", legendX+26, y+4, html.EscapeString(s.label))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
