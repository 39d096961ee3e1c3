package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// DefaultDrain is how long calls in flight may finish after stdin ends;
// MaxDrain the longest --drain accepts; NoDrain cancels them at once.
const (
	DefaultDrain               = 10 * time.Second
	MaxDrain                   = time.Hour
	NoDrain      time.Duration = -1
)

// SidecarOptions tune Serve.
type SidecarOptions struct {
	// MaxLine is the longest request line accepted; 0 means DefaultMaxLine.
	MaxLine int
	// Drain is how long calls in flight may run on after stdin ends before
	// they are cancelled; 0 means DefaultDrain, and NoDrain (any negative
	// value) cancels them as soon as stdin ends. A pipe such as
	// `echo '{…mc_wait…}' | blockmate sidecar` still gets its answer.
	Drain time.Duration
	// MaxInFlight bounds concurrent calls; reading pauses while it is
	// reached. 0 means 256.
	MaxInFlight int
	// EventBuffer is how many events may wait for stdout; 0 means 4096.
	EventBuffer int
	// Log receives everything human-readable; nil discards it.
	Log *slog.Logger
	// BeforeExit runs after the last response is written and stdout is
	// closed to further writes: the place for the bot to leave the world.
	BeforeExit func(ctx context.Context)
	// DefaultWait is the wait a long tool's call gets when it sends none
	// (blockmate sidecar --wait); 0 means calls answer when they end.
	DefaultWait time.Duration
}

// Serve speaks the sidecar protocol: requests from in, responses and events
// to out, until in ends or ctx is cancelled (a signal). Calls run
// concurrently. At the end, calls in flight finish (stdin ended) or are
// cancelled (ctx cancelled), each still gets its one response, then out is
// closed to further writes and BeforeExit runs. Serve returns nil on a clean
// end.
func Serve(ctx context.Context, d *Dispatcher, in io.Reader, out io.Writer, opts SidecarOptions) error {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Drain == 0 {
		opts.Drain = DefaultDrain
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = 256
	}
	if opts.EventBuffer <= 0 {
		opts.EventBuffer = 4096
	}
	w := NewLineWriter(out)

	events, unsubscribe := d.Events().Subscribe(opts.EventBuffer)
	eventsDone := make(chan struct{})
	go func() {
		defer close(eventsDone)
		for ev := range events {
			w.Write(ev)
		}
	}()

	// Calls run under callCtx, which shutdown cancels; they do not inherit
	// ctx directly so that end of stdin lets them finish.
	callCtx, cancelCalls := context.WithCancelCause(WithDefaultWait(WithOrigin(context.WithoutCancel(ctx), OriginSidecar), opts.DefaultWait))
	defer cancelCalls(nil)
	// allDone closes when input is over and no call is pending.
	allDone := make(chan struct{})
	slots := make(chan struct{}, opts.MaxInFlight)

	// The reader admits requests itself, in arrival order, and starts each
	// call on its own goroutine: no hand-off between reading and dispatch.
	// The serve goroutine only waits for the input to end or a signal.
	stopReading := make(chan struct{})
	readerDone := make(chan struct{})
	// end guards the last response: once reading is over, the call that
	// writes the last response closes stdout in the same step, so no event
	// can slip in after it.
	var end struct {
		sync.Mutex
		pending int
		over    bool
	}
	// markOver records that no request will come any more: from then on the
	// response that leaves no call pending is the last line, and if none is
	// pending stdout closes at once. It takes the lock a response write
	// holds, so it may wait behind a parent that stopped reading stdout.
	var overOnce sync.Once
	markOver := func() {
		overOnce.Do(func() {
			end.Lock()
			end.over = true
			if end.pending == 0 {
				w.Close()
				close(allDone)
			}
			end.Unlock()
		})
	}
	go func() {
		defer close(readerDone)
		defer markOver()
		readLines(in, opts.MaxLine, stopReading, func(r readResult) bool {
			if r.err != nil {
				var tooLong *LineTooLongError
				if errors.As(r.err, &tooLong) {
					if id := IDFromHead(tooLong.Head); id != nil {
						log.Warn(fmt.Sprintf("line %d refused: %v", r.n, r.err))
						w.Write(Response{ID: id, Error: fmt.Sprintf("the request is %d bytes, over the %d-byte limit, so it was not run; send shorter arguments", tooLong.Bytes, tooLong.Limit)})
						return true
					}
				}
				log.Warn(fmt.Sprintf("line %d skipped: %v", r.n, r.err))
				return true
			}
			req, err := DecodeRequest(r.line)
			if err != nil {
				var bad *RequestError
				if errors.As(err, &bad) && bad.ID != nil {
					log.Warn(fmt.Sprintf("line %d refused: %v", r.n, err))
					w.Write(Response{ID: bad.ID, Error: bad.Msg})
					return true
				}
				log.Warn(fmt.Sprintf("line %d skipped (no response is sent for it): %v", r.n, err))
				return true
			}
			// Admission and shutdown exclude each other, so no call is
			// added once the end has begun waiting for calls.
			select {
			case slots <- struct{}{}:
			case <-stopReading:
				return false
			}
			end.Lock()
			if end.over {
				end.Unlock()
				<-slots
				return false
			}
			end.pending++
			end.Unlock()
			run := d.Start(callCtx, req)
			go func() {
				defer func() { <-slots }()
				resp := run()
				end.Lock()
				end.pending--
				if end.over && end.pending == 0 {
					w.WriteLast(resp)
					close(allDone)
				} else {
					w.Write(resp)
				}
				end.Unlock()
			}()
			return true
		})
	}()

	interrupted := false
	select {
	case <-ctx.Done():
		interrupted = true
	case <-w.Broken():
		// The parent closed our stdout: nobody can read an answer any more.
		log.Warn("stdout was closed by the parent: cancelling calls in flight")
		interrupted = true
	case <-readerDone:
	}
	// After a signal the reader may stay blocked in a read that never
	// returns; it admits nothing more from here on.
	close(stopReading)
	// After a signal the reader may be blocked in a read; mark the end from
	// here, without waiting (the bounded waits below cover a stuck write).
	go markOver()

	done := allDone
	if interrupted {
		log.Info("shutting down: cancelling calls in flight")
		cancelCalls(ErrShutdown)
	} else {
		select {
		case <-done:
		case <-time.After(opts.Drain):
			log.Info("input ended; calls still running after the drain time are cancelled", "drain", opts.Drain)
			cancelCalls(ErrShutdown)
		case <-ctx.Done():
			cancelCalls(ErrShutdown)
		}
	}
	// Background tasks (a follow) end with the process too.
	d.Stop("", ErrShutdown)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		log.Error("some calls ignored cancellation; exiting without their responses")
	}
	w.Close()
	unsubscribe()
	select {
	case <-eventsDone:
	case <-time.After(time.Second):
		log.Error("stdout is not being read; exiting without waiting for it")
	}
	if opts.BeforeExit != nil {
		exitCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		opts.BeforeExit(exitCtx)
		cancel()
	}
	return nil
}

type readResult struct {
	line []byte
	n    int
	err  error
}

// readLines reads lines and hands each to accept, until the input ends,
// accept returns false, or stop is closed. It copies each line, since the
// reader reuses its buffer. A line cut off by the end of input is passed
// on; if it is a whole request it counts, otherwise it fails to parse and is
// logged like any broken line.
func readLines(in io.Reader, max int, stop <-chan struct{}, accept func(readResult) bool) {
	lr := NewLineReader(in, max)
	for {
		line, err := lr.Next()
		select {
		case <-stop:
			return
		default:
		}
		var tooLong *LineTooLongError
		switch {
		case err == nil || errors.Is(err, ErrPartialLine):
			if len(line) > 0 && !isBlank(line) {
				if !accept(readResult{line: append([]byte(nil), line...), n: lr.Line()}) {
					return
				}
			}
			if err != nil {
				return
			}
		case errors.Is(err, io.EOF):
			return
		case errors.As(err, &tooLong):
			if !accept(readResult{err: err, n: lr.Line()}) {
				return
			}
		default:
			accept(readResult{err: err, n: lr.Line()})
			return
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
