package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRoundTripFloat32(t *testing.T) {
	data := []float32{0, -1.5, float32(math.Inf(-1)), 3.25e-3, math.MaxFloat32, float32(math.Copysign(0, -1))}
	for _, shape := range [][]int{{2, 3}, {6}, {1, 2, 3}} {
		var buf bytes.Buffer
		if err := Write(&buf, shape, data, false); err != nil {
			t.Fatal(err)
		}
		if off := 10 + int(binary.LittleEndian.Uint16(buf.Bytes()[8:10])); off%64 != 0 {
			t.Errorf("%v: data starts at %d, not on a 64-byte boundary", shape, off)
		}
		a, err := Read(&buf)
		if err != nil {
			t.Fatalf("%v: %v", shape, err)
		}
		if !slices.Equal(a.Shape, shape) || a.Descr != "<f4" {
			t.Errorf("shape %v descr %q, want %v <f4", a.Shape, a.Descr, shape)
		}
		for i := range data {
			if math.Float32bits(a.Data[i]) != math.Float32bits(data[i]) {
				t.Errorf("%v: [%d] = %v, want %v", shape, i, a.Data[i], data[i])
			}
		}
	}
}

func TestRoundTripFloat16File(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logits.npy")
	data := []float32{1, -2, 0.5, 65504, float32(math.Inf(1)), 0.099975586}
	var buf bytes.Buffer
	if err := Write(&buf, []int{3, 2}, data, true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Descr != "<f2" || !slices.Equal(a.Shape, []int{3, 2}) || !slices.Equal(a.Data, data) {
		t.Errorf("got %+v", a)
	}
}

// file builds a .npy file by hand: version major, header dict, raw data.
func file(major byte, dict string, data []byte) []byte {
	b := []byte(magic)
	b = append(b, major, 0)
	dict += "\n"
	if major == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(dict)))
	}
	return append(append(b, dict...), data...)
}

func TestReadsHeadersAsNumPyWritesThem(t *testing.T) {
	le := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)), math.Float32bits(-2))
	be := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, math.Float32bits(1.5)), math.Float32bits(-2))
	for name, f := range map[string][]byte{
		"v1":         file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }          ", le),
		"v2":         file(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", le),
		"v3":         file(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", le),
		"big endian": file(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1, 2), }", be),
		"key order":  file(1, `{"shape": (1, 2), "fortran_order": False, "descr": "<f4"}`, le),
		"long dims":  file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 2L), }", le),
	} {
		a, err := Read(bytes.NewReader(f))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !slices.Equal(a.Shape, []int{1, 2}) || !slices.Equal(a.Data, []float32{1.5, -2}) {
			t.Errorf("%s: got %+v", name, a)
		}
	}
}

func TestRejectsWhatItCannotRead(t *testing.T) {
	four := make([]byte, 16)
	for name, tc := range map[string]struct {
		f    []byte
		want string
	}{
		"magic":     {[]byte("PK\x03\x04 a zip file, not npy"), "magic"},
		"short":     {[]byte(magic), "magic"},
		"version":   {file(4, "{}", nil), "version"},
		"float64":   {file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", four), "float32 or float16"},
		"bfloat16":  {file(1, "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }", four), "float32 or float16"},
		"fortran":   {file(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", four), "Fortran"},
		"truncated": {file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", four), "reading 6 values"},
		"no shape":  {file(1, "{'descr': '<f4', 'fortran_order': False, }", four), "lacks"},
		"bad dim":   {file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", four), "dimension"},
		"not dict":  {file(1, "['descr']", four), "not a dict"},
		"huge":      {file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", four), "too large"},
	} {
		_, err := Read(bytes.NewReader(tc.f))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", name, err, tc.want)
		}
	}
}

func TestWriteChecksTheShape(t *testing.T) {
	if err := Write(&bytes.Buffer{}, []int{2, 2}, []float32{1, 2, 3}, false); err == nil {
		t.Error("a shape that does not match the data must fail")
	}
}
