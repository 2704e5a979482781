package gpubench

import "testing"

func TestRotation(t *testing.T) {
	const mib = 1 << 20
	const l2 = 50 * mib
	for _, tc := range []struct {
		name  string
		bytes int
		l2    int
		count int
		cold  bool
	}{
		{"1x128256 fp32", 128256 * 4, l2, 300, true},         // 513024 -> stride 513024; 150 MiB / 513024 = 306.6
		{"1x128256 bf16", 128256 * 2, l2, 614, true},         // 256512 -> stride 256512
		{"64x128256 fp32", 64 * 128256 * 4, l2, 5, true},     // 32.8 MB
		{"exactly 3 L2", 3 * l2, l2, 1, true},                // one buffer is already cold
		{"4096x262208 fp32", 4096 * 262208 * 4, l2, 1, true}, // 4.3 GB: above the byte cap, one buffer
		{"tiny", 1000, l2, MaxRotation, false},               // count cap: 1024 x 1024 B, far below 3 x L2
		{"no L2 size", 128256 * 4, 0, MaxRotation, false},    // 3 x 256 MiB needs 1570: the count cap binds
		{"empty", 0, l2, 1, false},
	} {
		count, cold := Rotation(tc.bytes, tc.l2)
		if tc.name == "1x128256 fp32" || tc.name == "1x128256 bf16" {
			tc.count = (3*l2 + Stride(tc.bytes) - 1) / Stride(tc.bytes)
		}
		if count != tc.count || cold != tc.cold {
			t.Errorf("%s: Rotation(%d, %d) = %d, %v; want %d, %v", tc.name, tc.bytes, tc.l2, count, cold, tc.count, tc.cold)
		}
		if count*Stride(tc.bytes) > MaxRotationBytes && count > 1 {
			t.Errorf("%s: %d buffers exceed the byte cap", tc.name, count)
		}
	}
}

func TestRotationByteCap(t *testing.T) {
	// 100 MB buffers on a huge L2: the byte cap (2 GiB) binds at 21.
	count, cold := Rotation(100_000_000, 1<<30)
	if count != MaxRotationBytes/Stride(100_000_000) || cold {
		t.Errorf("got %d, %v", count, cold)
	}
}

func TestStride(t *testing.T) {
	for in, want := range map[int]int{1: 256, 256: 256, 257: 512, 513024: 513024, 256514: 256768} {
		if got := Stride(in); got != want {
			t.Errorf("Stride(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestSummarizeRows(t *testing.T) {
	s, ok := SummarizeRows([]RowCounters{{100, 1}, {300, 1}, {5000, 0}, {200, 1}})
	if !ok || s.Rows != 4 || s.Hits != 3 || s.MeanCandidates != 1400 || s.HitRate() != 0.75 {
		t.Errorf("got %+v %v", s, ok)
	}
	if _, ok := SummarizeRows([]RowCounters{{100, 1}, {UnwrittenCandidates, 0}}); ok {
		t.Error("an unwritten row must make the summary unavailable")
	}
	if _, ok := SummarizeRows([]RowCounters{{100, 2}}); ok {
		t.Error("a hit flag other than 0 or 1 is not a counter")
	}
	if s, ok := SummarizeRows(nil); !ok || s.HitRate() != 0 {
		t.Errorf("no rows: %+v %v", s, ok)
	}
}
