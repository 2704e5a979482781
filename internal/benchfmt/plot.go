package benchfmt

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot formats, chosen by a file name's extension (PlotFormat).
const (
	PlotPNG = "png"
	PlotSVG = "svg"
)

// PlotTarget is the speed target drawn on the floor panel: a call should
// take at most this many times the floor time.
const PlotTarget = 1.25

// Plot geometry. The width is fixed; the height grows only when the legend
// needs more room than the panels. PNGs are drawn at PlotDPI.
const (
	PlotDPI     = 96
	plotWidth   = 10 * vg.Inch
	panelHeight = 4 * vg.Inch // per panel
	entryHeight = 16          // points per legend entry, generous
	titleLine   = 18          // points per line of the title
	titleGap    = 8           // points under the title
	margin      = 8           // points around the figure
)

// plotSize is the figure's size for a title of titleLines lines, panels
// panels and a legend of entries entries: a fixed width, and the title over
// the panels or the legend, whichever is taller. It depends on no font
// metrics, so a PNG's size is known in advance.
func plotSize(titleLines, panels, entries int) (w, h vg.Length) {
	body := max(vg.Length(panels)*panelHeight, vg.Points(float64(entryHeight*entries+24)))
	return plotWidth, vg.Points(float64(titleHeight(titleLines)+2*margin)) + body
}

func titleHeight(lines int) int {
	if lines == 0 {
		return 0
	}
	return titleLine*lines + titleGap
}

// sans is the typeface of every text (gonum/plot's default is a serif).
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// PlotFormat is the plot format a file name asks for: PlotPNG for .png,
// PlotSVG for .svg (any case), an error for anything else.
func PlotFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return PlotPNG, nil
	case ".svg":
		return PlotSVG, nil
	}
	return "", fmt.Errorf("plot %q: the name must end in .png or .svg (the extension picks the format)", path)
}

// seriesKey is what sets one line apart: everything but the batch.
type seriesKey struct {
	device  string // "cpu", or backend:ordinal such as "cuda:0"
	dist    string
	vocab   int
	dtype   string
	k       int
	p       float64
	variant string // the output and ablation when not the defaults ("" for a plain mask)
}

// variantOf names what a result measured besides the plain mask: "ids",
// an ablation such as "no-trunc+binary", or both.
func variantOf(r Result) string {
	var parts []string
	if r.Out != "" && r.Out != OutMask {
		parts = append(parts, r.Out)
	}
	if r.Ablation != "" && r.Ablation != AblationNone {
		parts = append(parts, r.Ablation)
	}
	return strings.Join(parts, " ")
}

func (k seriesKey) mode() string { return modeName(k.k, k.p) }

// modeOrder sorts the k/p settings: both on, top-k alone, top-p alone,
// both off; then by k and p.
func (k seriesKey) modeOrder() string {
	rank := 0
	switch {
	case k.k > 0 && k.p >= 1:
		rank = 1
	case k.k <= 0 && k.p < 1:
		rank = 2
	case k.k <= 0:
		rank = 3
	}
	return fmt.Sprintf("%d %012d %.17g", rank, k.k, k.p)
}

// rest is what the line's glyph tells apart: dtype, distribution, device.
func (k seriesKey) rest() string { return k.dtype + " " + k.dist + " " + k.device + " " + k.variant }

// modeName names a k/p setting: "k50 p0.9", "k50", "p0.9", or "k0 p1"
// when both are off.
func modeName(k int, p float64) string {
	var parts []string
	if k > 0 {
		parts = append(parts, "k"+strconv.Itoa(k))
	}
	if p < 1 {
		parts = append(parts, "p"+fmtP(p))
	}
	if len(parts) == 0 {
		return "k0 p1"
	}
	return strings.Join(parts, " ")
}

func deviceName(r Result) string {
	if r.Device < 0 {
		return r.Backend
	}
	return r.Backend + ":" + strconv.Itoa(r.Device)
}

// series is one line of both panels.
type series struct {
	key    seriesKey
	label  string
	rate   plotter.XYs // batch, rows/s; positive values only, sorted by batch
	xfloor plotter.XYs // batch, call time / floor time; likewise
}

// plotData is what the plot shows, decided before any drawing.
type plotData struct {
	series []series
	common string   // the settings every line shares, for the subtitle
	floors []string // the floor kinds of the ratio panel's points
}

// collect groups results into lines, sorted by device, distribution,
// vocab, dtype and mode. A line's label is its vocab and whatever else
// differs between lines; what they share goes to the subtitle.
func collect(results []Result) plotData {
	byKey := map[seriesKey]*series{}
	var d plotData
	for _, r := range results {
		k := seriesKey{deviceName(r), r.Dist, r.Vocab, r.DType, r.K, r.P, variantOf(r)}
		s := byKey[k]
		if s == nil {
			s = &series{key: k}
			byKey[k] = s
		}
		if v := r.RowsPerSec(); v > 0 && r.Batch > 0 {
			s.rate = append(s.rate, plotter.XY{X: float64(r.Batch), Y: v})
		}
		if v := r.XFloor(); v > 0 && r.Batch > 0 {
			s.xfloor = append(s.xfloor, plotter.XY{X: float64(r.Batch), Y: v})
			if !slices.Contains(d.floors, r.Floor) {
				d.floors = append(d.floors, r.Floor)
			}
		}
	}
	for _, s := range byKey {
		if len(s.rate) == 0 && len(s.xfloor) == 0 {
			continue
		}
		byX := func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) }
		slices.SortFunc(s.rate, byX)
		slices.SortFunc(s.xfloor, byX)
		d.series = append(d.series, *s)
	}
	slices.SortFunc(d.series, func(a, b series) int {
		x, y := a.key, b.key
		return cmp.Or(cmp.Compare(x.device, y.device), cmp.Compare(x.dist, y.dist), cmp.Compare(x.vocab, y.vocab),
			cmp.Compare(x.dtype, y.dtype), cmp.Compare(x.modeOrder(), y.modeOrder()), cmp.Compare(x.variant, y.variant))
	})
	slices.Sort(d.floors)
	if len(d.series) == 0 {
		return d
	}
	// The optional parts of a label, in label order.
	parts := []func(seriesKey) string{
		func(k seriesKey) string { return k.dtype },
		seriesKey.mode,
		func(k seriesKey) string { return "dist " + k.dist },
		func(k seriesKey) string { return k.device },
		func(k seriesKey) string { return k.variant },
	}
	var common []string
	for _, f := range parts {
		if v := f(d.series[0].key); distinct(d.series, f) == 1 && v != "" {
			common = append(common, v)
		}
	}
	d.common = strings.Join(common, ", ")
	for i := range d.series {
		k := d.series[i].key
		label := []string{"V=" + strconv.Itoa(k.vocab)}
		for _, f := range parts {
			if v := f(k); distinct(d.series, f) > 1 && v != "" {
				label = append(label, v)
			}
		}
		d.series[i].label = strings.Join(label, " ")
	}
	return d
}

// distinct counts the values f takes over the lines.
func distinct(ss []series, f func(seriesKey) string) int {
	seen := map[string]bool{}
	for _, s := range ss {
		seen[f(s.key)] = true
	}
	return len(seen)
}

// indexOf numbers the values f takes over the lines, in sorted order, so
// that a value keeps its style whatever else the results hold.
func indexOf(ss []series, f func(seriesKey) string) map[string]int {
	var vals []string
	for _, s := range ss {
		if v := f(s.key); !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	idx := map[string]int{}
	for i, v := range vals {
		idx[v] = i
	}
	return idx
}

var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xff, 0x7f, 0x0e, 0xff},
	{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
	{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
}

var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
	{vg.Points(12), vg.Points(4)},
	{vg.Points(1), vg.Points(3)},
}

var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.SquareGlyph{}}

// lineStyle is a line's look: the first of vocab, mode and the rest
// (dtype, distribution, device) that varies between lines picks the
// colour, the second the dash pattern, the third the marker.
type lineStyle struct {
	line  draw.LineStyle
	glyph draw.GlyphStyle
}

func styles(ss []series) []lineStyle {
	dims := []func(seriesKey) string{
		func(k seriesKey) string { return fmt.Sprintf("%012d", k.vocab) }, // sorts as numbers
		seriesKey.modeOrder,
		seriesKey.rest,
	}
	var varying []map[string]int
	var keys []func(seriesKey) string
	for _, f := range dims {
		if distinct(ss, f) > 1 {
			varying = append(varying, indexOf(ss, f))
			keys = append(keys, f)
		}
	}
	pick := func(dim int, k seriesKey) int {
		if dim >= len(varying) {
			return 0
		}
		return varying[dim][keys[dim](k)]
	}
	out := make([]lineStyle, len(ss))
	for i, s := range ss {
		c := palette[pick(0, s.key)%len(palette)]
		out[i] = lineStyle{
			line: draw.LineStyle{Color: c, Width: vg.Points(1.5), Dashes: dashes[pick(1, s.key)%len(dashes)]},
			glyph: draw.GlyphStyle{Color: c, Radius: vg.Points(2.5),
				Shape: glyphs[pick(2, s.key)%len(glyphs)]},
		}
	}
	return out
}

// Plot writes a figure of the results in format (PlotPNG or PlotSVG), in
// the manner of the paper's Figure 2. The top panel is the throughput
// (rows/s, log scale) against the batch size (log2 scale), one line per
// vocab, dtype and k/p setting (and device and distribution, when they
// vary). The bottom panel is the call time over the floor time of the same
// lines against the same batches, with the target of at most PlotTarget
// times the floor drawn as a dashed line; it is left out when no result
// has a floor time. One legend at the right serves both panels; the
// settings all lines share go under the title. The figure is a pure
// function of its arguments. Results without a positive call time are
// left out; it is an error when none is left.
func Plot(w io.Writer, format, title string, results []Result) (err error) {
	if format != PlotPNG && format != PlotSVG {
		return fmt.Errorf("plot: unknown format %q (png or svg)", format)
	}
	d := collect(results)
	if len(d.series) == 0 {
		return fmt.Errorf("plot: no result with a positive time")
	}
	floorPanel := slices.ContainsFunc(d.series, func(s series) bool { return len(s.xfloor) > 0 })

	style := func(size vg.Length) text.Style {
		return text.Style{Color: color.Black, Font: font.From(sans, size), Handler: plot.DefaultTextHandler,
			XAlign: draw.XCenter, YAlign: draw.YTop}
	}
	var lines []string
	for _, t := range []string{title, d.common} {
		if t != "" {
			lines = append(lines, strings.Split(t, "\n")...)
		}
	}
	head := strings.Join(lines, "\n")
	titleStyle := style(13)

	// The legend: one entry per line, then the reference lines.
	sts := styles(d.series)
	legend := plot.NewLegend()
	legend.TextStyle = style(10)
	legend.TextStyle.XAlign, legend.TextStyle.YAlign = draw.XLeft, draw.YBottom
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(28)
	legend.Padding = vg.Points(3)
	entries := len(d.series)
	for i, s := range d.series {
		legend.Add(s.label, thumb{sts[i]})
	}
	target := draw.LineStyle{Color: color.RGBA{0xd6, 0x27, 0x28, 0xff}, Width: vg.Points(1),
		Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	floorLine := draw.LineStyle{Color: color.Gray{0x60}, Width: vg.Points(1)}
	if floorPanel {
		legend.Add(fmt.Sprintf("%gx floor: target", PlotTarget), thumb{lineStyle{line: target}})
		legend.Add("floor", thumb{lineStyle{line: floorLine}})
		entries += 2
	}

	panels := 1
	if floorPanel {
		panels = 2
	}
	_, height := plotSize(len(lines), panels, entries)

	var cw vg.CanvasWriterTo = vgsvg.New(plotWidth, height)
	if format == PlotPNG {
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, height), vgimg.UseDPI(PlotDPI))}
	}
	// gonum/plot panics on what it cannot draw; the data are checked
	// above, so a panic here is a bug, reported as an error.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plot: %v", r)
		}
	}()

	c := draw.New(cw)
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, vg.Points(margin), -vg.Points(margin), vg.Points(margin), -vg.Points(margin))
	if head != "" {
		c.FillText(titleStyle, vg.Point{X: c.Center().X, Y: c.Max.Y}, head)
	}
	c.Max.Y -= vg.Points(float64(titleHeight(len(lines))))

	// The legend takes what it needs at the right, at most 45% of the width.
	legendW := min(legend.Rectangle(c).Size().X+vg.Points(16), c.Size().X*0.45)
	legendC := draw.Crop(c, c.Size().X-legendW, 0, 0, -vg.Points(18))
	legend.Draw(legendC)
	plotsC := draw.Crop(c, 0, -legendW, 0, 0)

	xs := batchRange(d.series)
	rate := newPanel("throughput", "batch (rows per call)", "rows/s", xs)
	var steps []float64
	rate.Y.Min, rate.Y.Max, steps = logRange(allY(d.series, func(s series) plotter.XYs { return s.rate }), nil)
	rate.Y.Tick.Marker = logTicks{steps: steps, si: true}
	if err := addLines(rate, d.series, sts, func(s series) plotter.XYs { return s.rate }); err != nil {
		return err
	}
	plots := []*plot.Plot{rate}
	if floorPanel {
		// Two short lines: a label taller than the axis shrinks the panel.
		ylabel := "call time / floor time"
		if len(d.floors) == 1 {
			ylabel += "\n(" + d.floors[0] + ")"
		}
		xf := newPanel(fmt.Sprintf("time over the floor (target: at most %gx)", PlotTarget),
			"batch (rows per call)", ylabel, xs)
		ys := allY(d.series, func(s series) plotter.XYs { return s.xfloor })
		xf.Y.Min, xf.Y.Max, steps = logRange(ys, []float64{1, PlotTarget})
		xf.Y.Tick.Marker = logTicks{steps: steps, extra: PlotTarget, suffix: "x"}
		for _, ref := range []struct {
			y  float64
			st draw.LineStyle
		}{{1, floorLine}, {PlotTarget, target}} {
			l, err := plotter.NewLine(plotter.XYs{{X: xs[0], Y: ref.y}, {X: xs[1], Y: ref.y}})
			if err != nil {
				return err
			}
			l.LineStyle = ref.st
			xf.Add(l)
		}
		if err := addLines(xf, d.series, sts, func(s series) plotter.XYs { return s.xfloor }); err != nil {
			return err
		}
		plots = append(plots, xf)
	}
	// One panel over the other, their data areas aligned on the left
	// (the value axes' labels differ in width).
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(14)}
	var left vg.Length
	for i, p := range plots {
		t := tiles.At(plotsC, 0, i)
		left = max(left, p.DataCanvas(t).Min.X-t.Min.X)
	}
	for i, p := range plots {
		t := tiles.At(plotsC, 0, i)
		p.Draw(draw.Crop(t, left-(p.DataCanvas(t).Min.X-t.Min.X), 0, 0, 0))
	}
	_, err = cw.WriteTo(w)
	return err
}

// thumb draws a legend entry: the line and its marker.
type thumb struct{ st lineStyle }

func (t thumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.st.line, c.Min.X, y, c.Max.X, y)
	if t.st.glyph.Shape != nil {
		c.DrawGlyph(t.st.glyph, c.Center())
	}
}

// newPanel is a plot with the axes both panels share: a log2 batch axis
// over xs and a log value axis.
func newPanel(title, xlabel, ylabel string, xs [2]float64) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(4)
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font} {
		*f = font.From(sans, 11)
	}
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = font.From(sans, 10), font.From(sans, 10)
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = pow2Ticks{}
	p.X.Min, p.X.Max = xs[0], xs[1]
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{0xdd}, color.Gray{0xdd}
	grid.Vertical.Width, grid.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	p.Add(grid)
	return p
}

func addLines(p *plot.Plot, ss []series, sts []lineStyle, pts func(series) plotter.XYs) error {
	for i, s := range ss {
		xy := pts(s)
		if len(xy) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.LineStyle, sc.GlyphStyle = sts[i].line, sts[i].glyph
		p.Add(l, sc)
	}
	return nil
}

func allY(ss []series, pts func(series) plotter.XYs) []float64 {
	var ys []float64
	for _, s := range ss {
		for _, p := range pts(s) {
			ys = append(ys, p.Y)
		}
	}
	return ys
}

// batchRange is the batch axis: the powers of two around the batches,
// a quarter octave more on each side.
func batchRange(ss []series) [2]float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range append(slices.Clone(s.rate), s.xfloor...) {
			lo, hi = min(lo, p.X), max(hi, p.X)
		}
	}
	return [2]float64{math.Exp2(math.Floor(math.Log2(lo)) - 0.25), math.Exp2(math.Ceil(math.Log2(hi)) + 0.25)}
}

// logRange is a log axis over the positive values ys and must (which it
// always includes): widened to the labelled ticks around them, plus a
// little. steps are the labelled ticks' mantissas (labelSteps).
func logRange(ys, must []float64) (lo, hi float64, steps []float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, y := range append(slices.Clone(ys), must...) {
		lo, hi = min(lo, y), max(hi, y)
	}
	steps = labelSteps(lo, hi)
	lo, hi = snapDown(lo, steps), snapUp(hi, steps)
	return lo / math.Pow(10, 0.04), hi * math.Pow(10, 0.04), steps
}

// labelSteps are the mantissas of the labelled ticks: 1, 2 and 5 over
// at most three decades, 1 alone beyond.
func labelSteps(lo, hi float64) []float64 {
	if math.Log10(hi)-math.Log10(lo) <= 3 {
		return []float64{1, 2, 5}
	}
	return []float64{1}
}

func snapDown(v float64, steps []float64) float64 {
	e := math.Floor(math.Log10(v))
	for i := len(steps) - 1; i >= 0; i-- {
		if t := steps[i] * math.Pow(10, e); t <= v*(1+1e-9) {
			return t
		}
	}
	return math.Pow(10, e)
}

func snapUp(v float64, steps []float64) float64 {
	e := math.Floor(math.Log10(v))
	for _, m := range append(slices.Clone(steps), 10) {
		if t := m * math.Pow(10, e); t >= v*(1-1e-9) {
			return t
		}
	}
	return math.Pow(10, e+1)
}

// pow2Ticks marks the powers of two, labelled as integers (every other
// one when there are more than a dozen).
type pow2Ticks struct{}

func (pow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	e0, e1 := max(0, int(math.Ceil(math.Log2(lo)))), int(math.Floor(math.Log2(hi)))
	every := 1
	if e1-e0+1 > 12 {
		every = 2
	}
	var ts []plot.Tick
	for e := e0; e <= e1; e++ {
		t := plot.Tick{Value: math.Exp2(float64(e))}
		if (e-e0)%every == 0 {
			t.Label = strconv.FormatInt(1<<e, 10)
		}
		ts = append(ts, t)
	}
	return ts
}

// logTicks marks a log axis: labelled ticks at the mantissas steps (and
// at extra, when set), unlabelled ones at the other integer mantissas.
// A label too close to extra's is left out. Labels are in SI form (200k,
// 1.5M) when si is set, else plain numbers, followed by suffix.
type logTicks struct {
	steps  []float64
	si     bool
	extra  float64
	suffix string
}

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	hasExtra := t.extra >= lo && t.extra <= hi
	// Labels nearer than 5% of the axis would overlap.
	near := func(v float64) bool {
		return hasExtra && math.Abs(math.Log(v/t.extra)) < 0.05*math.Log(hi/lo)
	}
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			tk := plot.Tick{Value: v}
			if slices.Contains(t.steps, float64(m)) && !near(v) {
				tk.Label = t.label(v)
			}
			ts = append(ts, tk)
		}
	}
	if hasExtra {
		ts = append(ts, plot.Tick{Value: t.extra, Label: t.label(t.extra)})
	}
	return ts
}

func (t logTicks) label(v float64) string {
	unit := ""
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if t.si && v >= u.scale {
			v, unit = v/u.scale, u.name
			break
		}
	}
	// Four significant digits, written without an exponent.
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return strconv.FormatFloat(v, 'f', -1, 64) + unit + t.suffix
}
