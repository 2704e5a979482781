// Package npy reads and writes NumPy .npy files holding float32 or float16
// arrays in C order, enough for qrita-bench to load logits dumped from a
// model (numpy.save of a [batch, vocab] array).
//
// Format (NumPy's format.py): the magic "\x93NUMPY", a major and a minor
// version byte, a little-endian header length (2 bytes in version 1, 4 in
// versions 2 and 3), then an ASCII (version 3: UTF-8) Python dict literal
// with keys 'descr', 'fortran_order' and 'shape', padded with spaces and a
// newline, then the raw data.
package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/qrita-project/qrita/internal/halfbits"
)

const magic = "\x93NUMPY"

// Array is a decoded array: its shape, its element type as NumPy names it
// ("<f4", "<f2", ...) and its values widened to float32, in C order.
type Array struct {
	Shape []int
	Descr string
	Data  []float32
}

// ReadFile reads the .npy file at path.
func ReadFile(path string) (Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return Array{}, err
	}
	defer f.Close()
	a, err := Read(bufio.NewReader(f))
	if err != nil {
		return Array{}, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// maxElems bounds the element count so that a corrupt shape cannot ask for
// an absurd allocation.
const maxElems = 1 << 34

// Read decodes one array: float32 or float16 ("f4", "f2", either byte
// order), C order, any number of dimensions.
func Read(r io.Reader) (Array, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return Array{}, fmt.Errorf("npy: reading the magic: %w", err)
	}
	if string(pre[:6]) != magic {
		return Array{}, errors.New("npy: not a .npy file (bad magic)")
	}
	var hlen int
	switch major := pre[6]; major {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return Array{}, fmt.Errorf("npy: reading the header length: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return Array{}, fmt.Errorf("npy: reading the header length: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
		if hlen > 1<<20 {
			return Array{}, fmt.Errorf("npy: header of %d bytes", hlen)
		}
	default:
		return Array{}, fmt.Errorf("npy: unsupported format version %d.%d", major, pre[7])
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return Array{}, fmt.Errorf("npy: reading the header: %w", err)
	}
	h, err := parseHeader(string(header))
	if err != nil {
		return Array{}, err
	}
	if h.fortran {
		return Array{}, errors.New("npy: Fortran-order arrays are not supported (save a C-contiguous array, e.g. numpy.ascontiguousarray)")
	}
	size, order, err := elemType(h.descr)
	if err != nil {
		return Array{}, err
	}
	n := 1
	for _, d := range h.shape {
		if d < 0 || (d > 0 && n > maxElems/d) {
			return Array{}, fmt.Errorf("npy: shape %v too large", h.shape)
		}
		n *= d
	}
	raw := make([]byte, n*size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return Array{}, fmt.Errorf("npy: reading %d values of shape %v: %w", n, h.shape, err)
	}
	data := make([]float32, n)
	for i := range data {
		b := raw[i*size : (i+1)*size]
		if size == 4 {
			data[i] = math.Float32frombits(order.Uint32(b))
		} else {
			data[i] = halfbits.FromHalf(order.Uint16(b))
		}
	}
	return Array{Shape: h.shape, Descr: h.descr, Data: data}, nil
}

// elemType maps a descr to the element size and byte order.
func elemType(descr string) (int, binary.ByteOrder, error) {
	if len(descr) == 3 {
		var order binary.ByteOrder
		switch descr[0] {
		case '<', '|', '=':
			order = binary.LittleEndian
		case '>':
			order = binary.BigEndian
		}
		if order != nil {
			switch descr[1:] {
			case "f4":
				return 4, order, nil
			case "f2":
				return 2, order, nil
			}
		}
	}
	return 0, nil, fmt.Errorf("npy: element type %q is not float32 or float16 (for bfloat16 logits save .float())", descr)
}

type header struct {
	descr   string
	fortran bool
	shape   []int
}

// parseHeader reads the dict literal NumPy writes, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
func parseHeader(s string) (header, error) {
	var h header
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return h, fmt.Errorf("npy: header %q is not a dict", s)
	}
	body := s[1 : len(s)-1]
	seen := map[string]bool{}
	for body = strings.TrimSpace(body); body != ""; body = strings.TrimSpace(body) {
		key, rest, err := quoted(body)
		if err != nil {
			return h, fmt.Errorf("npy: header %q: %w", s, err)
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ":") {
			return h, fmt.Errorf("npy: header %q: no ':' after %q", s, key)
		}
		rest = strings.TrimSpace(rest[1:])
		switch key {
		case "descr":
			h.descr, rest, err = quoted(rest)
		case "fortran_order":
			switch {
			case strings.HasPrefix(rest, "False"):
				rest = rest[len("False"):]
			case strings.HasPrefix(rest, "True"):
				h.fortran, rest = true, rest[len("True"):]
			default:
				err = errors.New("fortran_order is not True or False")
			}
		case "shape":
			h.shape, rest, err = tuple(rest)
		default:
			err = fmt.Errorf("unknown key %q", key)
		}
		if err != nil {
			return h, fmt.Errorf("npy: header %q: %w", s, err)
		}
		seen[key] = true
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, ",") {
			rest = rest[1:]
		} else if strings.TrimSpace(rest) != "" {
			return h, fmt.Errorf("npy: header %q: expected ',' after %q", s, key)
		}
		body = rest
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, fmt.Errorf("npy: header %q lacks %q", s, k)
		}
	}
	return h, nil
}

// quoted splits a leading '...' or "..." string off s.
func quoted(s string) (string, string, error) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", s, fmt.Errorf("expected a string at %q", s)
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, errors.New("unterminated string")
	}
	return s[1 : 1+end], s[2+end:], nil
}

// tuple splits a leading tuple of integers, e.g. "(2, 3)" or "(5,)", off s.
func tuple(s string) ([]int, string, error) {
	if !strings.HasPrefix(s, "(") {
		return nil, s, fmt.Errorf("expected a tuple at %q", s)
	}
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return nil, s, errors.New("unterminated tuple")
	}
	shape := []int{}
	for _, f := range strings.Split(s[1:end], ",") {
		f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "L"))
		if f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 {
			return nil, s, fmt.Errorf("bad dimension %q", f)
		}
		shape = append(shape, d)
	}
	return shape, s[end+1:], nil
}

// Write encodes data of the given shape as a version 1.0 .npy file with
// descr "<f4" ("<f2" when half is true, rounding to nearest float16).
func Write(w io.Writer, shape []int, data []float32, half bool) error {
	n := 1
	dims := make([]string, len(shape))
	for i, d := range shape {
		n *= d
		dims[i] = strconv.Itoa(d)
	}
	if n != len(data) {
		return fmt.Errorf("npy: shape %v holds %d values, not %d", shape, n, len(data))
	}
	shapeText := "(" + strings.Join(dims, ", ")
	if len(shape) == 1 {
		shapeText += ","
	}
	shapeText += ")"
	descr := "<f4"
	if half {
		descr = "<f2"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shapeText)
	// Pad so that the data starts on a 64-byte boundary, as NumPy does.
	total := len(magic) + 2 + 2 + len(dict) + 1
	dict += strings.Repeat(" ", (64-total%64)%64) + "\n"
	if len(dict) > math.MaxUint16 {
		return errors.New("npy: header too long for version 1.0")
	}
	buf := make([]byte, 0, 10+len(dict)+n*4)
	buf = append(buf, magic...)
	buf = append(buf, 1, 0)
	buf = binary.LittleEndian.AppendUint16(buf, uint16(len(dict)))
	buf = append(buf, dict...)
	for _, x := range data {
		if half {
			buf = binary.LittleEndian.AppendUint16(buf, halfbits.ToHalf(x))
		} else {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
	}
	_, err := w.Write(buf)
	return err
}
