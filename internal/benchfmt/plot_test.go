package benchfmt

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"
)

// The plot tests check what a reader of the figure relies on (names,
// labels, size, validity) rather than pinning bytes that depend on how
// gonum/plot rasterises its fonts.

func plotOf(t *testing.T, format, title string, rs []Result) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Plot(&b, format, title, rs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// svgTexts is every text element of an SVG, which must be well formed.
func svgTexts(t *testing.T, svg []byte) []string {
	t.Helper()
	var texts []string
	d := xml.NewDecoder(bytes.NewReader(svg))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("SVG is not well formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		}
	}
}

func TestPlotSVGNamesSeriesAndAxes(t *testing.T) {
	svg := plotOf(t, PlotSVG, "qrita-bench: cuda <&>", gpuResults())
	texts := svgTexts(t, svg)
	for _, want := range []string{
		"qrita-bench: cuda <&>",    // the title, escaped in the file
		"bf16, k50 p0.9, dist llm", // what every line shares
		// A line per vocab and device (the settings that differ).
		"V=128256 cuda:0", "V=262208 cuda:0", "V=128256 cuda:1", "V=262208 cuda:1",
		"throughput", "rows/s", "batch (rows per call)",
		"call time / floor time", "(d2d-copy)", "1.25x floor: target", "1.25x",
		"1", "64", "1024", // batch ticks
	} {
		if !strings.Contains("\x00"+strings.Join(texts, "\x00")+"\x00", "\x00"+want+"\x00") {
			t.Errorf("SVG lacks the text %q; texts: %q", want, texts)
		}
	}
	if !bytes.Equal(svg, plotOf(t, PlotSVG, "qrita-bench: cuda <&>", gpuResults())) {
		t.Error("the SVG is not a pure function of the results")
	}
}

func TestPlotLegendNamesModesAndDTypes(t *testing.T) {
	var rs []Result
	for _, m := range []struct {
		k int
		p float64
	}{{50, 0.9}, {50, 1}, {0, 0.9}, {0, 1}} {
		for _, dt := range []string{"fp32", "bf16"} {
			for _, b := range []int{1, 4, 16} {
				rs = append(rs, Result{Backend: "cuda", Device: 0, Batch: b, Vocab: 4096, K: m.k, P: m.p, Dist: "llm",
					DType: dt, CallNs: 1000 * float64(b), Floor: FloorCopy, FloorNs: 900 * float64(b)})
			}
		}
	}
	d := collect(rs)
	var labels []string
	for _, s := range d.series {
		labels = append(labels, s.label)
		if len(s.rate) != 3 || len(s.xfloor) != 3 || s.rate[0].X != 1 || s.rate[2].X != 16 {
			t.Errorf("%s: points %v %v", s.label, s.rate, s.xfloor)
		}
	}
	want := []string{"V=4096 bf16 k50 p0.9", "V=4096 bf16 k50", "V=4096 bf16 p0.9", "V=4096 bf16 k0 p1",
		"V=4096 fp32 k50 p0.9", "V=4096 fp32 k50", "V=4096 fp32 p0.9", "V=4096 fp32 k0 p1"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if d.common != "dist llm, cuda:0" {
		t.Errorf("common settings %q", d.common)
	}
	// One vocab: the modes get the colours, the dtypes the dash patterns.
	sts := styles(d.series)
	if sts[0].line.Color == sts[1].line.Color || sts[0].line.Color != sts[4].line.Color ||
		len(sts[0].line.Dashes) == len(sts[4].line.Dashes) {
		t.Errorf("styles %+v", sts)
	}
}

func TestPlotPNGDecodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   []Result
		w, h int
	}{
		// 10 in at 96 dpi; two title lines (18 pt), the gap under them
		// (8 pt) and the margins (2 x 8 pt) over two 4 in panels:
		// 8*72+2*18+8+16 = 636 pt = 848 px.
		{"gpu", gpuResults(), 960, 848},
		// No floor time: one panel, 4*72+2*18+8+16 = 348 pt = 464 px.
		{"no floor", []Result{{Backend: "cpu", Device: -1, Batch: 2, Vocab: 10, K: 5, P: 1, DType: "fp32", CallNs: 100}},
			960, 464},
	} {
		b := plotOf(t, PlotPNG, "title", tc.rs)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := img.Bounds().Size(); got.X != tc.w || got.Y != tc.h {
			t.Errorf("%s: PNG is %v, want %dx%d", tc.name, got, tc.w, tc.h)
		}
		if !bytes.Equal(b, plotOf(t, PlotPNG, "title", tc.rs)) {
			t.Errorf("%s: the PNG is not a pure function of the results", tc.name)
		}
	}
}

func TestPlotWithoutFloorHasOnePanel(t *testing.T) {
	rs := cpuResults()
	for i := range rs {
		rs[i].FloorNs = 0
	}
	texts := strings.Join(svgTexts(t, plotOf(t, PlotSVG, "", rs)), "|")
	if strings.Contains(texts, "floor") || !strings.Contains(texts, "rows/s") {
		t.Errorf("texts %q", texts)
	}
}

func TestPlotGrowsForALongLegend(t *testing.T) {
	if _, h := plotSize(1, 2, 100); h.Points() != 100*entryHeight+24+18+8+16 {
		t.Errorf("height %v for 100 legend entries", h.Points())
	}
}

func TestPlotErrors(t *testing.T) {
	var b bytes.Buffer
	if err := Plot(&b, PlotSVG, "", nil); err == nil || !strings.Contains(err.Error(), "no result") {
		t.Errorf("a plot of nothing: %v", err)
	}
	zero := []Result{{Backend: "cpu", Device: -1, Batch: 4, Vocab: 10, CallNs: 0, FloorNs: 10}}
	if err := Plot(&b, PlotPNG, "", zero); err == nil {
		t.Error("a plot of no positive time must fail")
	}
	if err := Plot(&b, "pdf", "", gpuResults()); err == nil {
		t.Error("unknown format must fail")
	}
	if b.Len() != 0 {
		t.Errorf("failed plots wrote %d bytes", b.Len())
	}
}

func TestPlotFormat(t *testing.T) {
	for path, want := range map[string]string{"a.png": PlotPNG, "dir.x/B.PNG": PlotPNG, "c.svg": PlotSVG, "d.Svg": PlotSVG,
		"e.pdf": "", "png": "", "f.svg.gz": "", "": ""} {
		got, err := PlotFormat(path)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("PlotFormat(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
}

func TestModeName(t *testing.T) {
	for _, tc := range []struct {
		k    int
		p    float64
		want string
	}{{50, 0.9, "k50 p0.9"}, {50, 1, "k50"}, {0, 0.95, "p0.95"}, {0, 1, "k0 p1"}} {
		if got := modeName(tc.k, tc.p); got != tc.want {
			t.Errorf("modeName(%d, %v) = %q, want %q", tc.k, tc.p, got, tc.want)
		}
	}
}

func TestTickLabels(t *testing.T) {
	si, x := logTicks{si: true}, logTicks{suffix: "x"}
	for v, want := range map[float64]string{2e5: "200k", 1e6: "1M", 1.5e9: "1.5G", 50: "50", 0.3 * 10: "3"} {
		if got := si.label(v); got != want {
			t.Errorf("SI label of %v = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{1.25: "1.25x", 0.2: "0.2x", 1000: "1000x", 3 * 0.1: "0.3x"} {
		if got := x.label(v); got != want {
			t.Errorf("label of %v = %q, want %q", v, got, want)
		}
	}
	var labels []string
	for _, tk := range (pow2Ticks{}).Ticks(0.8, 1100) {
		labels = append(labels, tk.Label)
	}
	if strings.Join(labels, ",") != "1,2,4,8,16,32,64,128,256,512,1024" {
		t.Errorf("batch ticks %q", labels)
	}
}

// The id output and ablations measured in one run are lines of their own,
// named after what they measured; plain mask lines keep their names.
func TestPlotSeparatesOutputsAndAblations(t *testing.T) {
	base := Result{Backend: "cuda", Device: 0, Vocab: 128256, K: 50, P: 0.9, Dist: "llm", DType: "fp32",
		CallNs: 1000, Floor: FloorCopy, FloorNs: 500}
	var results []Result
	for _, b := range []int{256, 1024} {
		for _, v := range []struct{ out, abl string }{{"", ""}, {OutIDs, ""}, {OutMask, "no-trunc+binary"}} {
			r := base
			r.Batch, r.Out, r.Ablation = b, v.out, v.abl
			results = append(results, r)
		}
	}
	d := collect(results)
	if len(d.series) != 3 {
		t.Fatalf("%d lines, want 3 (mask, ids, ablated)", len(d.series))
	}
	var labels []string
	for _, s := range d.series {
		labels = append(labels, s.label)
		if len(s.rate) != 2 {
			t.Errorf("line %q has %d points, want 2", s.label, len(s.rate))
		}
	}
	want := []string{"V=128256", "V=128256 ids", "V=128256 no-trunc+binary"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
}
