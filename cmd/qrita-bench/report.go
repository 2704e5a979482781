package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// result is one timed implementation.
type result struct {
	name   string
	median time.Duration // per call
}

// printTable writes one line per result: median time per call, rows per
// second, the ratio to the read-once time and the speedup over the
// reference. floor and ref are the read-once and reference medians.
func printTable(w io.Writer, batch int, results []result, floor, ref time.Duration) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "implementation\tmedian/call\trows/s\tx read-once\tspeedup vs reference\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%.2f\t%.1f\t\n", r.name, r.median.Round(time.Microsecond),
			float64(batch)/r.median.Seconds(), ratio(r.median, floor), ratio(ref, r.median))
	}
	return tw.Flush()
}

func ratio(a, b time.Duration) float64 { return a.Seconds() / b.Seconds() }
