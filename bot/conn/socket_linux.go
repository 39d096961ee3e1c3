//go:build linux

package conn

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// socketIO gives the reader and writer a connection's frames go through.
//
// On Linux they make the socket's reads and writes as raw system calls
// inside the socket's RawConn (which still waits for readiness and honours
// deadlines through the runtime's poller). Why: a bot's traffic is a few
// small packets every tick, and every ordinary system call the runtime
// sees wakes its monitor thread when that sleeps, which then polls at
// 20 µs intervals for a while; on a virtual machine, where each wake-up
// costs a trip through the hypervisor, that thread's wake-ups were the
// largest single share of a following bot's CPU time. The socket is
// non-blocking, so a raw read or write never blocks the thread, which is
// what the runtime needs to know of a system call it is not told about.
// Connections that are not sockets (tests' pipes) use their own Read and
// Write.
func socketIO(nc net.Conn) (io.Reader, io.Writer) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc, nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc, nc
	}
	return rawReader{rc}, rawWriter{rc}
}

type rawReader struct{ rc syscall.RawConn }

func (r rawReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			r0, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait until the socket is readable
			}
			n, errno = int(r0), e
			return true
		}
	})
	switch {
	case err != nil: // closed, or the read deadline passed
		return 0, err
	case errno != 0:
		return 0, os.NewSyscallError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

type rawWriter struct{ rc syscall.RawConn }

func (w rawWriter) Write(p []byte) (int, error) {
	written := 0
	var errno syscall.Errno
	err := w.rc.Write(func(fd uintptr) bool {
		for written < len(p) {
			// send with MSG_NOSIGNAL: a peer that closed gives EPIPE, not
			// the signal.
			r0, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&p[written])), uintptr(len(p)-written), syscall.MSG_NOSIGNAL, 0, 0)
			switch e {
			case 0:
				written += int(r0)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // wait until the socket takes more
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil: // closed, or the write deadline passed
		return written, err
	case errno != 0:
		return written, os.NewSyscallError("write", errno)
	}
	return written, nil
}
