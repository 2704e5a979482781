package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestRunPrintsTableAndVerifies(t *testing.T) {
	for _, args := range [][]string{
		{"-batch", "3", "-vocab", "5000", "-reps", "2", "-ref-reps", "1"},
		{"-batch", "2", "-vocab", "4099", "-k", "0", "-p", "0.95", "-dist", "flat", "-keep-ties", "-reps", "1", "-ref-reps", "1", "-warmup", "0"},
	} {
		o, err := parseOptions(args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := run(o, &out); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		for _, want := range []string{"read-once sum", "reference", "cpu", "speedup vs reference", "0 mismatched"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out.String())
			}
		}
	}
}

func TestHelpDescribesEveryFlag(t *testing.T) {
	var out bytes.Buffer
	_, err := parseOptions([]string{"-h"}, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, name := range []string{"-backend", "-batch", "-vocab", "-k", "-p", "-dist", "-reps", "-warmup", "-ref-reps", "-workers", "-seed", "-keep-ties", "-verify"} {
		if !strings.Contains(out.String(), "  "+name) {
			t.Errorf("help lacks %s:\n%s", name, out.String())
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, args := range [][]string{
		{"-batch", "0"}, {"-vocab", "-1"}, {"-reps", "0"}, {"-dist", "nope"}, {"-warmup", "-1"}, {"extra"},
	} {
		if _, err := parseOptions(args, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestUnknownBackendFails(t *testing.T) {
	o, err := parseOptions([]string{"-backend", "tpu", "-batch", "1", "-vocab", "10"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(o, io.Discard); err == nil {
		t.Error("an unknown backend must fail")
	}
}
