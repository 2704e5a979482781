package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line bar on a terminal: cases done of the total,
// elapsed time and the case at hand. A nil or disabled progress does
// nothing; its methods may be called from several goroutines.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	total int
	done  int
	start time.Time
	now   func() time.Time
	drawn bool
	width int // of the bar, in cells
}

// newProgress returns a bar on w when enabled and w is a terminal.
func newProgress(w io.Writer, enabled bool, total int) *progress {
	return &progress{w: w, on: enabled && isTerminal(w), total: total, start: time.Now(), now: time.Now, width: 30}
}

// isTerminal says whether w is a character device: a terminal (or
// /dev/null, where the bar is harmless), not a pipe or a file as in CI.
// It spares a dependency on golang.org/x/term.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// grow adds n steps to the total.
func (p *progress) grow(n int) {
	p.mu.Lock()
	p.total += n
	p.mu.Unlock()
}

// begin reports that the case named label starts.
func (p *progress) begin(label string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on {
		p.drawn = true
		p.draw(label)
	}
}

// end reports that a case is done.
func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.on {
		p.drawn = true
		p.draw("")
	}
}

func (p *progress) draw(label string) {
	filled := 0
	if p.total > 0 {
		filled = min(p.width, p.done*p.width/p.total)
	}
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", p.width-filled)
	el := p.now().Sub(p.start).Round(time.Second)
	fmt.Fprintf(p.w, "\r\033[K[%s] %d/%d %s %s", bar, p.done, p.total, el, label)
}

// finish erases the bar.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
	p.drawn = false
}
