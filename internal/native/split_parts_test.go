//go:build (cuda || hip) && cgo

package native_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/qrita-project/qrita/internal/native"
)

// The launch policy's parts a row, on the host (no device): every shape
// gets a part count the split kernel can take, and the shapes PERFLOG
// runs 49 and 163 measured get theirs. A division by zero here once
// killed the process (run 163's first build, rows under 2048 entries).
func TestSplitPartsPolicy(t *testing.T) {
	const minPart, maxParts = 2048, 32 // cuda/policy.cuh kMinSliceEntries, kMaxSlices
	for _, dev := range []struct {
		sms    int
		blocks int64
	}{{132, 264}, {78, 156}, {1, 2}, {256, 256}} {
		for _, elem := range []int{2, 4} {
			for batch := int64(1); batch <= 300; batch++ {
				for vocab := int64(1); vocab <= 270000; vocab += 997 {
					parts, err := native.SplitParts(dev.sms, dev.blocks, elem, batch, vocab)
					require.NoError(t, err)
					where := fmt.Sprintf("%d SMs, %d-byte elements, %d x %d", dev.sms, elem, batch, vocab)
					if parts == 1 {
						continue
					}
					require.GreaterOrEqual(t, parts, 2, where)
					require.LessOrEqual(t, parts, maxParts, where)
					require.GreaterOrEqual(t, vocab/int64(parts), int64(minPart), where)
					require.LessOrEqual(t, batch*int64(parts), dev.blocks, "%s: every part resident", where)
				}
			}
		}
	}
	// On 132 SMs (an H100 or H200), two split blocks each: one block an SM
	// while a part takes at most two trips of 512 threads x 4 vectors of
	// its element type, else twice the parts.
	for _, c := range []struct {
		elem         int
		batch, vocab int64
		parts        int
	}{
		{4, 1, 128256, 32}, {2, 1, 262208, 32},
		{4, 8, 128256, 16}, {4, 8, 201088, 16}, {2, 8, 201088, 16}, {2, 8, 262208, 16}, {4, 8, 262208, 32},
		{4, 16, 128256, 8}, {2, 32, 128256, 4}, {4, 32, 128256, 8}, {4, 64, 128256, 4},
		{4, 8, 1000, 1}, {4, 130, 16384, 2}, {2, 64, 32768, 2}, {4, 64, 32768, 4}, {4, 133, 128256, 1},
	} {
		parts, err := native.SplitParts(132, 264, c.elem, c.batch, c.vocab)
		require.NoError(t, err)
		require.Equal(t, c.parts, parts, "%d-byte elements, %d x %d", c.elem, c.batch, c.vocab)
	}
	for _, bad := range [][5]int64{{0, 264, 4, 1, 100}, {132, 0, 4, 1, 100}, {132, 264, 3, 1, 100},
		{132, 264, 4, 0, 100}, {132, 264, 4, 1, 0}} {
		_, err := native.SplitParts(int(bad[0]), bad[1], int(bad[2]), bad[3], bad[4])
		var ne *native.Error
		require.ErrorAs(t, err, &ne, "%v", bad)
		require.Equal(t, native.InvalidArg, ne.Code)
	}
}
