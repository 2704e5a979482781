package quantiles

import (
	"flag"
	"math"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite cuda/normal_quantiles.cuh")

const headerPath = "../../cuda/normal_quantiles.cuh"

func TestHeaderUpToDate(t *testing.T) {
	want := Header()
	if *update {
		if err := os.WriteFile(headerPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(headerPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run go test ./internal/quantiles -update", headerPath)
	}
}

// Known values of the standard normal upper tail.
func TestZ(t *testing.T) {
	for _, c := range []struct{ q, z float64 }{
		{0.5, 0}, {0.158655254, 1}, {0.022750132, 2}, {0.001349898, 3}, {3.16712418e-05, 4},
	} {
		if got := Z(c.q); math.Abs(got-c.z) > 1e-6 {
			t.Errorf("Z(%g) = %g, want %g", c.q, got, c.z)
		}
	}
}

// Interpolation between table entries stays close to the exact quantile.
func TestLookupAccuracy(t *testing.T) {
	for q := 0.2; q > 1e-7; q *= 0.83 {
		if got, want := Lookup(q), Z(q); math.Abs(got-want) > 0.02 {
			t.Errorf("Lookup(%g) = %g, want %g", q, got, want)
		}
	}
}
