package bot_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/peertest"
	"github.com/blockmate/blockmate/protocol/sidecartest"
)

// TestCompareWithPeers measures blockmate against the Node peers on one
// flying-squid 1.21.4 world, side by side in one run, and prints ratios:
//
//   - process start to spawned, against a bare minecraft-protocol client
//     (the server's own floor); goal ≤ 1.1×;
//   - resident memory after 30 s idle at view distance 4, against
//     mineflayer; goal ≤ 20 %;
//   - CPU time over those 30 s idle, against mineflayer; goal ≤ 10 %.
//
// It only prints: wall-clock numbers depend on the machine, so nothing is
// asserted. Run it with bot/bench.sh (BLOCKMATE_BENCH=1).
func TestCompareWithPeers(t *testing.T) {
	if os.Getenv("BLOCKMATE_BENCH") == "" {
		t.Skip("set BLOCKMATE_BENCH=1 (bot/bench.sh) to run the comparison with the Node peers")
	}
	nodeModules := peertest.NodeModules(t)
	bin := sidecartest.Build(t)
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4", ViewDistance: 4})
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("BLOCKMATE_BENCH_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	idle := 30 * time.Second
	if v, err := time.ParseDuration(os.Getenv("BLOCKMATE_BENCH_IDLE")); err == nil {
		idle = v
	}

	// 1. Process start to spawned, alternating so drift hits both alike.
	var bare, bm []time.Duration
	for i := 0; i < rounds; i++ {
		p := startBenchPeer(t, nodeModules, "bare", srv.Port, fmt.Sprintf("bare%d", i))
		bare = append(bare, p.waitSpawn(t))
		p.stop()

		start := time.Now()
		sc := sidecartest.Start(t, bin)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": fmt.Sprintf("bm%d", i)}); !r.OK {
			t.Fatalf("mc_join: %s", r.Error)
		}
		bm = append(bm, time.Since(start))
		cancel()
		sc.CloseStdin()
		sc.Wait()
	}

	// 2 and 3. Both idle in the world together; memory and CPU after idle.
	mf := startBenchPeer(t, nodeModules, "mineflayer", srv.Port, "anchor")
	mf.waitSpawn(t)
	sc := sidecartest.Start(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "idler"}); !r.OK {
		t.Fatalf("mc_join: %s", r.Error)
	}
	time.Sleep(3 * time.Second) // let both settle after the join burst
	mfCPU0, bmCPU0 := cpuTime(t, mf.cmd.Process.Pid), cpuTime(t, sc.Pid())
	time.Sleep(idle)
	mfCPU, bmCPU := cpuTime(t, mf.cmd.Process.Pid)-mfCPU0, cpuTime(t, sc.Pid())-bmCPU0
	mfRSS, bmRSS := rss(t, mf.cmd.Process.Pid), rss(t, sc.Pid())
	if r := sc.Call(ctx, "mc_status", nil); !strings.Contains(r.Raw, `"connected":true`) {
		t.Errorf("blockmate was not connected after idling: %s", r.Raw)
	}

	mb, mbare := median(bm), median(bare)
	report := fmt.Sprintf(`blockmate vs the Node peers on flying-squid 1.21.4 (view distance 4), %d join rounds, %v idle
                        blockmate   peer        ratio   goal
start to spawned        %-10v  %-10v  %.2f×   ≤ 1.10× a bare minecraft-protocol client
resident memory         %-10s  %-10s  %.1f%%   ≤ 20%% of mineflayer
CPU while idle          %-10v  %-10v  %.1f%%   ≤ 10%% of mineflayer
`,
		rounds, idle,
		mb.Round(time.Millisecond), mbare.Round(time.Millisecond), float64(mb)/float64(mbare),
		mib(bmRSS), mib(mfRSS), 100*float64(bmRSS)/float64(mfRSS),
		bmCPU.Round(time.Millisecond), mfCPU.Round(time.Millisecond), 100*float64(bmCPU)/float64(max(mfCPU, time.Millisecond)))
	fmt.Print(report)
	t.Logf("join times: blockmate %v, bare client %v", bm, bare)
}

type benchPeer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events *bufio.Scanner
	start  time.Time
}

func startBenchPeer(t *testing.T, nodeModules, mode string, port int, username string) *benchPeer {
	t.Helper()
	cfg := fmt.Sprintf(`{"mode":%q,"port":%d,"username":%q,"version":"1.21.4"}`, mode, port, username)
	cmd := exec.Command("node", filepath.Join("testdata", "benchpeer.js"), cfg)
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodeModules)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{w}
	p := &benchPeer{cmd: cmd, stdin: stdin, events: bufio.NewScanner(r), start: time.Now()}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(p.stop)
	return p
}

func (p *benchPeer) waitSpawn(t *testing.T) time.Duration {
	t.Helper()
	done := make(chan bool, 1)
	go func() { done <- p.events.Scan() && strings.Contains(p.events.Text(), "spawn") }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatal("benchmark peer exited before spawning")
		}
	case <-time.After(time.Minute):
		t.Fatal("benchmark peer did not spawn within a minute")
	}
	return time.Since(p.start)
}

func (p *benchPeer) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	p.stdin.Close()
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// cpuTime is the user plus system time a process has used.
func cpuTime(t *testing.T, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("cpu time of %d: %v", pid, err)
	}
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ is 100 on Linux
}

// rss is a process's resident set in bytes.
func rss(t *testing.T, pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("memory of %d: %v", pid, err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatalf("no VmRSS for %d", pid)
	return 0
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
