package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
)

// cancelAfter is a context whose Err turns to Canceled after n calls: the
// sweep asks once per case, so it stops after n cases.
type cancelAfter struct {
	context.Context
	left *atomic.Int32
}

func (c cancelAfter) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestInterruptedSweepWritesTheFinishedCases(t *testing.T) {
	args := []string{"-batch", "1,2,4", "-vocab", "4096", "-reps", "1", "-warmup", "0"}
	o, err := parseOptions(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	left := new(atomic.Int32)
	left.Store(1)
	var out bytes.Buffer
	err = run(cancelAfter{context.Background(), left}, o, args, &out, io.Discard)
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("run: %v, want errInterrupted", err)
	}
	text := out.String()
	if !strings.Contains(text, "INTERRUPTED: 1 of 3 cases finished") {
		t.Errorf("no interruption note in:\n%s", text)
	}
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "cpu ") {
			rows++
		}
	}
	if rows != 1 {
		t.Errorf("%d result rows, want the 1 finished case:\n%s", rows, text)
	}
}

func TestSweepCancelledBeforeTheFirstCaseWritesNoRows(t *testing.T) {
	args := []string{"-batch", "1", "-vocab", "4096", "-reps", "1", "-format", "json"}
	o, err := parseOptions(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if err := run(ctx, o, args, &out, io.Discard); !errors.Is(err, errInterrupted) {
		t.Fatalf("run: %v, want errInterrupted", err)
	}
	if !strings.Contains(out.String(), "INTERRUPTED: 0 of 1 cases finished") {
		t.Errorf("no interruption note in:\n%s", out.String())
	}
}
