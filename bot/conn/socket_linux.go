//go:build linux

package conn

import (
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// detach takes a TCP connection out of the runtime's network poller and
// returns a socket that reads and writes it with raw system calls; other
// connections (tests' pipes) are returned as they are.
//
// Why: a bot's traffic is a few small packets every tick, and on the
// virtual machines players and CI run on every wake-up of a thread costs
// tens of microseconds in the hypervisor. Through the poller, each arrival
// of a server packet wakes the process (the poller's thread, the reader,
// and the runtime's monitor thread that every ordinary system call wakes);
// a detached socket wakes nobody when data arrives, so a session that
// ticks in real time reads what came at its tick (Ready), and a following
// bot wakes 20 times a second instead of about 50. The socket is
// non-blocking, so the raw calls never block a thread; a read or write
// that has to wait does so in ppoll, an ordinary (blocking) system call.
func detach(nc net.Conn) socket {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nc
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nc
	}
	fd := -1
	var dupErr error
	if err := rc.Control(func(s uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		if e != 0 {
			dupErr = e
			return
		}
		fd = int(r)
	}); err != nil || dupErr != nil {
		return nc
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		_ = syscall.Close(fd)
		return nc
	}
	// Closing the runtime's descriptor takes the socket out of the poller;
	// the socket lives on in ours.
	_ = tc.Close()
	return &fdSocket{fd: fd}
}

// fdSocket is a non-blocking socket descriptor of our own.
type fdSocket struct {
	fd int
	// io is held shared by every read and write, exclusively by Close
	// while it closes the descriptor, so no call uses a number the kernel
	// may have given to another file.
	io     sync.RWMutex
	closed atomic.Bool
	// Deadlines in Unix nanoseconds; 0 is none.
	readDeadline, writeDeadline atomic.Int64
}

func (s *fdSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.io.RLock()
	defer s.io.RUnlock()
	for {
		if s.closed.Load() {
			return 0, net.ErrClosed
		}
		r, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(s.fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), syscall.MSG_DONTWAIT, 0, 0)
		switch e {
		case 0:
			if r == 0 {
				return 0, io.EOF
			}
			return int(r), nil
		case syscall.EINTR:
		case syscall.EAGAIN:
			if err := s.wait(pollIn, &s.readDeadline); err != nil {
				return 0, err
			}
		default:
			return 0, os.NewSyscallError("read", e)
		}
	}
}

func (s *fdSocket) Write(p []byte) (int, error) {
	s.io.RLock()
	defer s.io.RUnlock()
	written := 0
	for written < len(p) {
		if s.closed.Load() {
			return written, net.ErrClosed
		}
		// MSG_NOSIGNAL: a peer that has gone is EPIPE, not a signal.
		r, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, uintptr(s.fd), uintptr(unsafe.Pointer(&p[written])), uintptr(len(p)-written), syscall.MSG_DONTWAIT|syscall.MSG_NOSIGNAL, 0, 0)
		switch e {
		case 0:
			written += int(r)
		case syscall.EINTR:
		case syscall.EAGAIN:
			if err := s.wait(pollOut, &s.writeDeadline); err != nil {
				return written, err
			}
		default:
			return written, os.NewSyscallError("write", e)
		}
	}
	return written, nil
}

// Ready says whether a read would find data (or the end of the stream, or
// an error) without waiting.
func (s *fdSocket) Ready() bool {
	s.io.RLock()
	defer s.io.RUnlock()
	if s.closed.Load() {
		return true
	}
	var b [1]byte
	for {
		_, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(s.fd), uintptr(unsafe.Pointer(&b[0])), 1, syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		return true
	}
}

const (
	pollIn  = 0x1 // POLLIN
	pollOut = 0x4 // POLLOUT
)

type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// wait blocks until the socket is readable or writable (events), the
// deadline passes (os.ErrDeadlineExceeded) or Close is called
// (net.ErrClosed). Close shuts the socket down, which ends the wait.
func (s *fdSocket) wait(events int16, deadline *atomic.Int64) error {
	for {
		if s.closed.Load() {
			return net.ErrClosed
		}
		var ts *syscall.Timespec
		if d := deadline.Load(); d != 0 {
			left := d - time.Now().UnixNano()
			if left <= 0 {
				return os.ErrDeadlineExceeded
			}
			t := syscall.NsecToTimespec(left)
			ts = &t
		}
		pfd := pollFd{fd: int32(s.fd), events: events}
		_, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(ts)), 0, 0, 0)
		if e != 0 && e != syscall.EINTR {
			return os.NewSyscallError("ppoll", e)
		}
		if pfd.revents != 0 {
			return nil
		}
		// Timed out (checked at the top) or interrupted: look again.
	}
}

func (s *fdSocket) SetReadDeadline(t time.Time) error {
	s.readDeadline.Store(unixNano(t))
	return nil
}

func (s *fdSocket) SetWriteDeadline(t time.Time) error {
	s.writeDeadline.Store(unixNano(t))
	return nil
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Close shuts the socket down, which ends any read or write waiting on it,
// waits for those to return, and closes the descriptor.
func (s *fdSocket) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	_ = syscall.Shutdown(s.fd, syscall.SHUT_RDWR)
	s.io.Lock()
	defer s.io.Unlock()
	return syscall.Close(s.fd)
}
