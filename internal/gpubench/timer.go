//go:build (cuda || hip) && cgo

package gpubench

import (
	"sort"

	"github.com/qrita-project/qrita/internal/native"
)

// timer measures enqueued work between two device events on one stream,
// launched directly or replayed from a graph (Options.Timing).
type timer struct {
	nc       *native.Ctx
	stream   uintptr
	ev0, ev1 uintptr
	o        Options
}

func newTimer(nc *native.Ctx, stream uintptr, o Options) (*timer, error) {
	t := &timer{nc: nc, stream: stream, o: o}
	var err error
	if t.ev0, err = nc.NewEvent(); err != nil {
		return nil, err
	}
	if t.ev1, err = nc.NewEvent(); err != nil {
		nc.DestroyEvent(t.ev0)
		return nil, err
	}
	return t, nil
}

func (t *timer) close() {
	t.nc.DestroyEvent(t.ev0)
	t.nc.DestroyEvent(t.ev1)
}

// perCall is the median time of one op(i) on the rotation's buffers.
//
// Cold: restore every buffer (untimed), then time op(0..R-1) back to back
// and divide by R. Hot (today's warm protocol): time Inner [restore;
// op(0)] pairs and Inner restores alone, and divide the difference of the
// medians by Inner; the input has just been written, an L2 figure.
func (t *timer) perCall(bufs *rotation, op func(int) error) (float64, error) {
	if t.o.L2 == L2Cold {
		us, err := t.median(bufs.restoreAll, func() error {
			for i := range bufs.count {
				if err := op(i); err != nil {
					return err
				}
			}
			return nil
		})
		return us / float64(bufs.count), err
	}
	inner := t.o.Inner
	both, err := t.median(nil, func() error {
		for range inner {
			if err := bufs.restore(0); err != nil {
				return err
			}
			if err := op(0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	restores, err := t.median(nil, func() error {
		for range inner {
			if err := bufs.restore(0); err != nil {
				return err
			}
		}
		return nil
	})
	return (both - restores) / float64(inner), err
}

// median runs prepare (untimed, may be nil) then body between the events,
// Reps times after Warmup untimed rounds, and returns the median in us.
// The warm-up launches body directly even in graph mode, so a call the
// library does not support fails before any capture begins.
func (t *timer) median(prepare, body func() error) (float64, error) {
	round := func(run func() error, timed bool) (float64, error) {
		if prepare != nil {
			if err := prepare(); err != nil {
				return 0, err
			}
		}
		if timed {
			if err := t.nc.Record(t.ev0, t.stream); err != nil {
				return 0, err
			}
		}
		if err := run(); err != nil {
			return 0, err
		}
		if !timed {
			return 0, t.nc.Sync(t.stream)
		}
		if err := t.nc.Record(t.ev1, t.stream); err != nil {
			return 0, err
		}
		ms, err := t.nc.ElapsedMs(t.ev0, t.ev1)
		return float64(ms) * 1000, err
	}
	for range t.o.Warmup {
		if _, err := round(body, false); err != nil {
			return 0, err
		}
	}
	run := body
	if t.o.Timing == TimingGraph {
		g, err := capture(t.nc, t.stream, body)
		if err != nil {
			return 0, err
		}
		defer t.nc.DestroyGraph(g)
		run = func() error { return t.nc.LaunchGraph(g, t.stream) }
		if _, err := round(run, false); err != nil { // the first replay uploads the graph
			return 0, err
		}
	}
	times := make([]float64, t.o.Reps)
	for i := range times {
		us, err := round(run, true)
		if err != nil {
			return 0, err
		}
		times[i] = us
	}
	return median(times), nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
