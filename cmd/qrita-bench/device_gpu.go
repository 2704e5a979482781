//go:build (cuda || hip) && cgo

package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/qrita-project/qrita/internal/gpubench"
	"github.com/qrita-project/qrita/internal/native"
	"github.com/qrita-project/qrita/sampler"
)

// deviceReport times the shape (and with -sweep anchors the peers' anchor
// shapes) on logits in device memory, against a device-to-device copy of
// the same bytes; see package gpubench for the protocol.
func deviceReport(o options, s *sampler.Sampler, out io.Writer) error {
	nc, err := native.Create(0)
	if err != nil {
		return err
	}
	defer nc.Destroy()
	info, err := nc.Info()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\ndevice: %s (%s, cc %d.%d, %d SMs, %.0f GiB, runtime %d, driver %d)\n", info.Name, native.Vendor,
		info.CCMajor, info.CCMinor, info.Multiprocessors, float64(info.TotalMemory)/(1<<30), info.RuntimeVersion,
		info.DriverVersion)
	fmt.Fprintln(out, "device-memory timing: median of 15 x 20 back-to-back [restore; call], minus the restores")
	specs := []gpubench.Spec{{Batch: o.batch, Vocab: o.vocab, DType: o.dtype, Dist: o.dist, K: int32(o.k), P: float32(o.p), Seed: o.seed}}
	if o.sweep == "anchors" {
		for _, a := range gpubench.AnchorShapes {
			specs = append(specs, gpubench.Spec{Batch: a.Batch, Vocab: a.Vocab, DType: o.dtype, Dist: o.dist,
				K: int32(o.k), P: float32(o.p), Seed: o.seed})
		}
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "batch\tvocab\tdtype\tdist\tk\tp\tcall us\tcopy us\tx copy\trows/s\t")
	for _, spec := range specs {
		r, err := gpubench.Run(s, nc, spec, gpubench.Options{Reps: 15, Inner: 20})
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%d\t%g\t%.2f\t%.2f\t%.2f\t%.3g\t\n", spec.Batch, spec.Vocab, spec.DType,
			spec.Dist, spec.K, spec.P, r.CallUs, r.CopyUs, r.Ratio(), r.RowsPerSec)
	}
	return tw.Flush()
}
