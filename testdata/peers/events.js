'use strict'
// events.js is the channel between a test peer and internal/testkit/peertest: JSON lines
// written to file descriptor 3, which the Go side opens as a pipe. Using fd 3
// instead of stdout keeps the channel clean of whatever the libraries print
// (flying-squid writes a "> " prompt to stdout); stdout and stderr are kept
// as the peer's log and shown when a test fails.
const fs = require('fs')

// internal/testkit/peertest sets PEERTEST_EVENT_FD to the descriptor it opened; run by
// hand, a peer reports on stdout instead. (Probing fd 3 does not work: Node
// opens descriptors of its own, which may take the number.)
const fd = Number(process.env.PEERTEST_EVENT_FD) || 1

let closed = false

function emit (event, fields) {
  if (closed) return
  const line = JSON.stringify(Object.assign({ event }, fields)) + '\n'
  try {
    fs.writeSync(fd, line)
  } catch (err) {
    // The Go side is gone: nobody is listening, so stop.
    closed = true
    process.exit(0)
  }
}

// exitWithParent ends the process when its stdin closes, so a test binary
// that dies without running its cleanup does not leave peers behind.
function exitWithParent (onEnd) {
  process.stdin.on('end', () => {
    if (onEnd) onEnd()
    setTimeout(() => process.exit(0), 200).unref()
  })
  process.stdin.on('error', () => process.exit(0))
  process.stdin.resume()
}

module.exports = { emit, exitWithParent }
