package sampler

import (
	"errors"

	"github.com/qrita-project/qrita/reference"
)

// Sentinel errors. Every error this package returns wraps one of them (or a
// context error), so callers test with errors.Is.
var (
	// ErrInvalidArgument: shapes, slice lengths, a NaN p, bad options. It is
	// the same value as reference.ErrInvalidArgument.
	ErrInvalidArgument = reference.ErrInvalidArgument
	// ErrUnsupported: a valid request this build or device cannot serve.
	ErrUnsupported = errors.New("unsupported")
	// ErrNoDevice: a GPU backend was asked for and no usable device exists.
	ErrNoDevice = errors.New("no device")
	// ErrDevice: the GPU runtime reported a failure.
	ErrDevice = errors.New("device error")
	// ErrClosed: the sampler was closed.
	ErrClosed = errors.New("sampler closed")
)

// Error carries the operation and detail of a failure; it unwraps to one
// of the sentinels above.
type Error struct {
	Op  string // the method that failed, e.g. "TopKTopP"
	Err error  // a sentinel, or an error that wraps one
	Msg string // detail, e.g. the runtime's error text
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return "qrita: " + e.Op + ": " + e.Err.Error()
	}
	return "qrita: " + e.Op + ": " + e.Err.Error() + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func newError(op string, sentinel error, msg string) error {
	return &Error{Op: op, Err: sentinel, Msg: msg}
}
