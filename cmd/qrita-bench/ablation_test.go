package main

import "testing"

func TestParseAblationParts(t *testing.T) {
	for in, want := range map[string]ablation{
		"none":            {},
		"parts16":         {parts: 16},
		"parts1":          {parts: 1},
		"in-place+parts8": {inPlace: true, parts: 8},
		"parts2+no-sort":  {noSort: true, parts: 2},
	} {
		got, err := parseAblation(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", in, got, err, want)
		}
		if again, err := parseAblation(got.String()); err != nil || again != got {
			t.Errorf("%q: %q reads back as %+v, %v", in, got.String(), again, err)
		}
	}
	for _, in := range []string{"parts", "parts0", "parts-2", "partsx", "parts4+parts8", "parts8+parts8", "parts 8"} {
		if a, err := parseAblation(in); err == nil {
			t.Errorf("%q: no error (%+v)", in, a)
		}
	}
}
