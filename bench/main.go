//go:build linux

// Command bench measures blockmate against the anchor bot, mineflayer, and
// against a bare minecraft-protocol client (the server's floor), side by
// side on one server: flying-squid where it serves the version asked for
// (1.21.1, 1.21.3, 1.21.4), else testdata/peers/mpserver.js (every release
// blockmate joins):
//
//   - time from process start to spawned (medians over several rounds);
//   - resident memory (VmRSS) after 30 s idle at view distance 10, with
//     the chunks of the view loaded and kept (blockmate: the world and
//     entity stores, the 20 Hz tick running), and how many each holds;
//   - CPU time used over those 30 s (the scheduler's count of its threads);
//     -against measures a second build beside the first, -idle-rounds
//     repeats the idle measures in turn.
//
// It prints the figures and the ratios against the goals of issue 3 and
// writes them, with the machine and date, to
// testdata/bench/RESULTS-<version>.md. Run it from the module root after
// `cd testdata/peers && npm ci`:
//
//	go run ./bench -version 26.1
//
// It reads /proc for memory and CPU, so it runs on Linux only.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// Goals from issue 3.
const (
	goalSpawn = 1.10 // blockmate's start-to-spawned ≤ 1.1× the bare client's
	goalRSS   = 0.20 // blockmate's resident memory ≤ 20% of mineflayer's
	goalCPU   = 0.10 // blockmate's idle CPU ≤ 10% of mineflayer's
)

// joinTimeout bounds one join; the machine may be shared and slow.
const joinTimeout = 90 * time.Second

func main() {
	version := flag.String("version", "1.21.4", "game version to serve and join: any release blockmate joins (flying-squid serves it where it can, else mpserver.js)")
	rounds := flag.Int("rounds", 5, "timed joins per client (after one untimed warm-up each)")
	idle := flag.Duration("idle", 30*time.Second, "idle time before memory is read and over which CPU is measured")
	viewDistance := flag.Int("view-distance", 10, "the server's view distance, in chunks")
	bin := flag.String("blockmate", "", "blockmate binary to measure (default: build the module's)")
	results := flag.String("results", "", "write the results here (default testdata/bench/RESULTS-<version>.md; \"-\": do not write)")
	label := flag.String("label", "", "what was measured, for the results (default: the commit, and whether the working tree had changes)")
	against := flag.String("against", "", "a second blockmate binary (another build) whose idle CPU and memory are measured beside the first, in the same run on the same server")
	againstLabel := flag.String("against-label", "", "what -against is, for the results (default: its path)")
	idleRounds := flag.Int("idle-rounds", 1, "idle measures per client, in turn; the figures are the median round's")
	flag.Parse()

	if *results == "" {
		*results = filepath.Join("testdata", "bench", "RESULTS-"+*version+".md")
	} else if *results == "-" {
		*results = ""
	}
	if *againstLabel == "" && *against != "" {
		*againstLabel = "the blockmate binary " + *against
	}
	if err := run(*version, *rounds, *idle, *viewDistance, *bin, *results, *label, *against, *againstLabel, max(1, *idleRounds)); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// client is one of the three things measured.
type client struct {
	name  string
	start func(ctx context.Context, username string) (*running, error)
}

// running is a client that has spawned.
type running struct {
	pid      int
	toSpawn  time.Duration // from just before exec to the spawned signal
	stop     func()
	stderr   func() string
	finished <-chan struct{}
	// world asks the client how many chunk columns it holds (and, for
	// blockmate, the bytes its block store estimates).
	world func(ctx context.Context) (worldFigures, error)
}

// worldFigures are what a client holds of the world.
type worldFigures struct {
	Chunks     int
	StoreBytes int64 // blockmate's estimate of its block store; 0 when not known
}

func run(version string, rounds int, idle time.Duration, viewDistance int, bin, resultsPath, label, against, againstLabel string, idleRounds int) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if label == "" {
		label = describeTree(root, bin)
	}
	peers := filepath.Join(root, "testdata", "peers")
	if _, err := os.Stat(filepath.Join(peers, "node_modules", "flying-squid", "package.json")); err != nil {
		return fmt.Errorf("the test peers are not installed: run `%s` first", peertest.InstallCommand)
	}
	if bin == "" {
		tmp, err := os.MkdirTemp("", "blockmate-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		bin = filepath.Join(tmp, "blockmate")
		fmt.Fprintln(os.Stderr, "bench: building blockmate…")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = root
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building blockmate: %w", err)
		}
	}

	server, script, err := serverFor(peers, version)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: starting %s %s (view distance %d)…\n", server, version, viewDistance)
	srv, err := peertest.Launch(peers, server, script, map[string]any{"version": version, "viewDistance": viewDistance, "motd": "blockmate bench"})
	if err != nil {
		return err
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), joinTimeout)
	ready, err := srv.Wait(ctx, "ready")
	cancel()
	if err != nil {
		return fmt.Errorf("%s did not start: %w\n%s", server, err, srv.Log())
	}
	port := ready.Port

	node := func(name, script string) client {
		return client{name, func(ctx context.Context, username string) (*running, error) {
			return startNodeClient(ctx, peers, script, map[string]any{
				"host": "127.0.0.1", "port": port, "username": username, "version": version, "viewDistance": viewDistance,
			})
		}}
	}
	bare := node("bare client", "bare.js")
	mineflayer := node("mineflayer", "player.js")
	blockmate := client{"blockmate", func(ctx context.Context, username string) (*running, error) {
		return startBlockmate(ctx, bin, port, username)
	}}

	rep := report{Label: label, Server: server, Version: version, ViewDistance: viewDistance, Rounds: rounds, Idle: idle, IdleRounds: idleRounds,
		Spawn: map[string][]time.Duration{}, Failed: map[string]string{}, IdleRuns: map[string][]idleFigures{}}
	idlers := []client{blockmate, mineflayer}
	if against != "" {
		rep.Against = againstLabel
		idlers = []client{blockmate, {againstName, func(ctx context.Context, username string) (*running, error) {
			return startBlockmate(ctx, against, port, username)
		}}, mineflayer}
	}

	// Start to spawned: one untimed warm-up each (page cache, JIT of the
	// server's join path), then rounds in rotating order so that no client
	// always goes first.
	clients := []client{bare, mineflayer, blockmate}
	for r := 0; r <= rounds; r++ {
		for i := range clients {
			c := clients[(r+i)%len(clients)]
			if rep.Failed[c.name] != "" {
				continue
			}
			username := fmt.Sprintf("%s%d", strings.Fields(c.name)[0], r)
			ctx, cancel := context.WithTimeout(context.Background(), joinTimeout)
			rc, err := c.start(ctx, username)
			cancel()
			if err != nil {
				rep.Failed[c.name] = err.Error()
				fmt.Fprintf(os.Stderr, "bench: %s could not join: %v\n", c.name, err)
				continue
			}
			rc.stop()
			if r == 0 {
				fmt.Fprintf(os.Stderr, "bench: warm-up %-11s %v\n", c.name, rc.toSpawn.Round(time.Millisecond))
			} else {
				rep.Spawn[c.name] = append(rep.Spawn[c.name], rc.toSpawn)
				fmt.Fprintf(os.Stderr, "bench: round %d %-11s %v\n", r, c.name, rc.toSpawn.Round(time.Millisecond))
			}
			time.Sleep(300 * time.Millisecond) // let the server finish the leave
		}
	}

	// Idle: one client at a time, so none sees another's movement; with
	// several rounds, in turn, so that the machine's load of the moment
	// falls on each alike.
	for round := 1; round <= idleRounds; round++ {
		for _, c := range idlers {
			if rep.Failed[c.name] != "" {
				continue
			}
			fmt.Fprintf(os.Stderr, "bench: %s idle for %v (round %d)…\n", c.name, idle, round)
			m, err := measureIdle(c, idle)
			if err != nil {
				rep.Failed[c.name] = err.Error()
				fmt.Fprintf(os.Stderr, "bench: %s idle: %v\n", c.name, err)
				continue
			}
			fmt.Fprintf(os.Stderr, "bench: %s idle CPU %v\n", c.name, m.CPU.Round(time.Millisecond))
			rep.IdleRuns[c.name] = append(rep.IdleRuns[c.name], m)
		}
	}
	rep.IdleFigures = map[string]idleFigures{}
	for name, runs := range rep.IdleRuns {
		rep.IdleFigures[name] = medianIdle(runs)
	}

	rep.Machine = machine(peers)
	rep.Date = time.Now().UTC()
	text := rep.table()
	fmt.Print(text)
	if resultsPath != "" {
		if !filepath.IsAbs(resultsPath) {
			resultsPath = filepath.Join(root, resultsPath)
		}
		if err := os.WriteFile(resultsPath, []byte(rep.markdown()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "bench: wrote %s\n", resultsPath)
	}
	if len(rep.Failed) > 0 {
		return errors.New("some measurements failed (see above)")
	}
	return nil
}

// serverFor picks the server for a version: flying-squid where it serves
// the release, else mpserver.js. A version blockmate does not join is an
// error naming the ones it does.
func serverFor(peers, version string) (name, script string, err error) {
	if _, ok := mcversion.LookupName(version); !ok {
		return "", "", fmt.Errorf("blockmate does not join %s; -version takes a release it joins (%s)", version, mcversion.Range())
	}
	releases, err := peertest.ReadReleases(peers)
	if err != nil {
		return "", "", err
	}
	for _, r := range releases {
		if r.Version != version {
			continue
		}
		if r.FlyingSquid {
			return "flying-squid 1.12.0", "server.js", nil
		}
		return "mpserver.js (minecraft-protocol 1.68.0)", "mpserver.js", nil
	}
	return "", "", fmt.Errorf("no test peer serves %s", version)
}

// startNodeClient runs a Node client peer and waits for its spawn event.
func startNodeClient(ctx context.Context, peers, script string, cfg map[string]any) (*running, error) {
	begin := time.Now()
	p, err := peertest.Launch(peers, script, script, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := p.Wait(ctx, "spawn"); err != nil {
		p.Stop()
		return nil, fmt.Errorf("%w\n%s", err, p.Log())
	}
	rc := &running{pid: p.Pid(), toSpawn: time.Since(begin), stop: p.Stop, stderr: p.Log, finished: p.Done()}
	if script == "player.js" {
		rc.world = func(ctx context.Context) (worldFigures, error) {
			if err := p.Send(map[string]string{"cmd": "stats"}); err != nil {
				return worldFigures{}, err
			}
			ev, err := p.Wait(ctx, "stats")
			if err != nil || ev.Chunks == nil {
				return worldFigures{}, fmt.Errorf("no stats from mineflayer: %v", err)
			}
			return worldFigures{Chunks: *ev.Chunks}, nil
		}
	}
	return rc, nil
}

// startBlockmate runs `blockmate sidecar`, sends mc_join at once and counts
// it spawned when the mc_join response arrives.
func startBlockmate(ctx context.Context, bin string, port int, username string) (*running, error) {
	cmd := exec.Command(bin, "sidecar")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	join, _ := json.Marshal(map[string]any{"id": "j", "tool": "mc_join", "args": map[string]any{"host": "127.0.0.1", "port": port, "username": username}})
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stopOnce := sync.Once{}
	stop := func() {
		stopOnce.Do(func() {
			stdin.Close() // end of stdin: the sidecar finishes and exits
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
			}
		})
	}
	if _, err := stdin.Write(append(join, '\n')); err != nil {
		stop()
		return nil, err
	}

	type response struct {
		ID     string          `json:"id"`
		OK     bool            `json:"ok"`
		Error  string          `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	// Responses go to whoever waits for their id; events are drained.
	var waitMu sync.Mutex
	waiting := map[string]chan response{"j": make(chan response, 1)}
	answer := waiting["j"]
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			var r response
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == "" {
				continue
			}
			waitMu.Lock()
			ch := waiting[r.ID]
			delete(waiting, r.ID)
			waitMu.Unlock()
			if ch != nil {
				ch <- r
			}
		}
	}()
	var writeMu sync.Mutex
	seq := 0
	call := func(ctx context.Context, tool string) (response, error) {
		writeMu.Lock()
		seq++
		id := fmt.Sprintf("q%d", seq)
		ch := make(chan response, 1)
		waitMu.Lock()
		waiting[id] = ch
		waitMu.Unlock()
		line, _ := json.Marshal(map[string]any{"id": id, "tool": tool})
		_, err := stdin.Write(append(line, '\n'))
		writeMu.Unlock()
		if err != nil {
			return response{}, err
		}
		select {
		case r := <-ch:
			if !r.OK {
				return r, errors.New(r.Error)
			}
			return r, nil
		case <-done:
			return response{}, errors.New("blockmate exited")
		case <-ctx.Done():
			return response{}, ctx.Err()
		}
	}
	world := func(ctx context.Context) (worldFigures, error) {
		r, err := call(ctx, "mc_status")
		if err != nil {
			return worldFigures{}, err
		}
		var st struct {
			World *struct {
				ChunksLoaded int   `json:"chunks_loaded"`
				MemoryBytes  int64 `json:"memory_bytes"`
			} `json:"world"`
		}
		if err := json.Unmarshal(r.Result, &st); err != nil || st.World == nil {
			return worldFigures{}, fmt.Errorf("mc_status has no world figures: %s", r.Result)
		}
		return worldFigures{Chunks: st.World.ChunksLoaded, StoreBytes: st.World.MemoryBytes}, nil
	}
	select {
	case r := <-answer:
		spawned := time.Since(begin)
		if !r.OK {
			stop()
			return nil, fmt.Errorf("mc_join failed: %s", r.Error)
		}
		return &running{pid: cmd.Process.Pid, toSpawn: spawned, stop: stop, stderr: stderr.String, finished: done, world: world}, nil
	case <-done:
		return nil, fmt.Errorf("blockmate exited before answering mc_join\n%s", stderr.String())
	case <-ctx.Done():
		stop()
		return nil, fmt.Errorf("no mc_join answer: %w\n%s", ctx.Err(), stderr.String())
	}
}

// idleFigures are what one client used while idle, and what it held.
type idleFigures struct {
	RSSBytes int64
	CPU      time.Duration
	World    *worldFigures
}

// measureIdle joins, reads CPU time, waits, and reads CPU time and resident
// memory again.
func measureIdle(c client, idle time.Duration) (idleFigures, error) {
	ctx, cancel := context.WithTimeout(context.Background(), joinTimeout)
	rc, err := c.start(ctx, strings.Fields(c.name)[0]+"Idle")
	cancel()
	if err != nil {
		return idleFigures{}, err
	}
	defer rc.stop()
	cpu0, err := cpuTime(rc.pid)
	if err != nil {
		return idleFigures{}, err
	}
	select {
	case <-time.After(idle):
	case <-rc.finished:
		return idleFigures{}, fmt.Errorf("it exited while idle\n%s", rc.stderr())
	}
	cpu1, err := cpuTime(rc.pid)
	if err != nil {
		return idleFigures{}, err
	}
	rss, err := residentBytes(rc.pid)
	if err != nil {
		return idleFigures{}, err
	}
	f := idleFigures{RSSBytes: rss, CPU: cpu1 - cpu0}
	// What it holds is asked after the measures, so the asking costs
	// neither.
	if rc.world != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		w, err := rc.world(ctx)
		cancel()
		if err != nil {
			return idleFigures{}, fmt.Errorf("asking what it holds: %w", err)
		}
		f.World = &w
	}
	return f, nil
}

// againstName names the -against build among the clients.
const againstName = "blockmate -against"

// medianIdle is the round whose CPU is the median (the lower of the middle
// two), with its memory and view, so the figures belong together.
func medianIdle(runs []idleFigures) idleFigures {
	s := slices.Clone(runs)
	slices.SortFunc(s, func(a, b idleFigures) int { return int(a.CPU - b.CPU) })
	return s[(len(s)-1)/2]
}

// cpuTime is the CPU time a process's threads have run. It sums the
// scheduler's own count of each thread (/proc/PID/task/*/schedstat, in
// nanoseconds): an idle bot uses tens of milliseconds in 30 s, where the
// 10 ms clock ticks of /proc/PID/stat (the fallback, when schedstat is
// not there) would be a quarter of the figure. A thread that ends within
// the window takes its time with it; neither client's threads end while
// idle (Go's and Node's threads are kept).
func cpuTime(pid int) (time.Duration, error) {
	if tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid)); err == nil {
		var sum time.Duration
		ok := len(tasks) > 0
		for _, t := range tasks {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
			f := strings.Fields(string(b))
			if err != nil || len(f) < 1 {
				ok = false
				break
			}
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				ok = false
				break
			}
			sum += time.Duration(ns)
		}
		if ok {
			return sum, nil
		}
	}
	return statCPUTime(pid)
}

// statCPUTime is utime+stime of a process (all its threads) from
// /proc/PID/stat, in clock ticks.
func statCPUTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; fields resume after its ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * time.Second / time.Duration(clockTicks()), nil
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times.
func clockTicks() int64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return 100
}

// residentBytes is VmRSS from /proc/PID/status.
func residentBytes(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024, err
			}
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// report holds one run's figures.
type report struct {
	Label        string
	Server       string // the server and its version, e.g. "flying-squid 1.12.0"
	Version      string
	ViewDistance int
	Rounds       int
	Idle         time.Duration
	IdleRounds   int
	Spawn        map[string][]time.Duration
	IdleFigures  map[string]idleFigures   // the median round's, by client
	IdleRuns     map[string][]idleFigures // every round's, by client
	Against      string                   // what -against measured, or ""
	Failed       map[string]string
	Machine      string
	Date         time.Time
}

func median(d []time.Duration) (time.Duration, bool) {
	if len(d) == 0 {
		return 0, false
	}
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2], true
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2, true
}

// row is one line of the results table.
type row struct {
	measure, blockmate, bare, mineflayer, ratio, goal, verdict string
}

func (r *report) rows() []row {
	na := "n/a"
	ms := func(name string) (string, float64, bool) {
		m, ok := median(r.Spawn[name])
		if !ok {
			return na, 0, false
		}
		return fmt.Sprintf("%d ms", m.Milliseconds()), float64(m), true
	}
	ratio := func(a, b float64, okA, okB bool, goal float64) (string, string) {
		if !okA || !okB || b == 0 {
			return na, "not measured"
		}
		x := a / b
		if x <= goal {
			return fmt.Sprintf("%.2f", x), "meets goal"
		}
		return fmt.Sprintf("%.2f", x), "misses goal"
	}
	var rows []row
	bmS, bmV, bmOK := ms("blockmate")
	bareS, bareV, bareOK := ms("bare client")
	mfS, _, _ := ms("mineflayer")
	x, v := ratio(bmV, bareV, bmOK, bareOK, goalSpawn)
	rows = append(rows, row{"start to spawned, median", bmS, bareS, mfS, x + " × bare", fmt.Sprintf("≤ %.2f", goalSpawn), v})

	bm, bmOK := r.IdleFigures["blockmate"]
	mf, mfOK := r.IdleFigures["mineflayer"]
	mb := func(f idleFigures, ok bool) string {
		if !ok {
			return na
		}
		return fmt.Sprintf("%.1f MB", float64(f.RSSBytes)/(1<<20))
	}
	x, v = ratio(float64(bm.RSSBytes), float64(mf.RSSBytes), bmOK, mfOK, goalRSS)
	rows = append(rows, row{fmt.Sprintf("resident memory after %v idle", r.Idle), mb(bm, bmOK), "—", mb(mf, mfOK), x + " × mineflayer", fmt.Sprintf("≤ %.2f", goalRSS), v})
	cpu := func(f idleFigures, ok bool) string {
		if !ok {
			return na
		}
		return fmt.Sprintf("%d ms", f.CPU.Milliseconds())
	}
	x, v = ratio(float64(bm.CPU), float64(mf.CPU), bmOK, mfOK, goalCPU)
	// Most of the idle CPU is the chunks arriving: the ratio means
	// something only when both held the same view.
	if bmOK && mfOK && bm.World != nil && mf.World != nil && bm.World.Chunks != mf.World.Chunks {
		v = fmt.Sprintf("not comparable: the server sent them %d and %d columns", bm.World.Chunks, mf.World.Chunks)
	}
	rows = append(rows, row{fmt.Sprintf("CPU time over %v idle", r.Idle), cpu(bm, bmOK), "—", cpu(mf, mfOK), x + " × mineflayer", fmt.Sprintf("≤ %.2f", goalCPU), v})
	if ag, agOK := r.IdleFigures[againstName]; r.Against != "" {
		x, v = ratio(float64(ag.CPU), float64(mf.CPU), agOK, mfOK, goalCPU)
		rows = append(rows, row{fmt.Sprintf("CPU time over %v idle, -against build", r.Idle), cpu(ag, agOK), "—", cpu(mf, mfOK), x + " × mineflayer", fmt.Sprintf("≤ %.2f", goalCPU), v})
		rows = append(rows, row{fmt.Sprintf("resident memory after %v idle, -against build", r.Idle), mb(ag, agOK), "—", mb(mf, mfOK), "", "", ""})
	}
	chunks := func(f idleFigures, ok bool) string {
		if !ok || f.World == nil {
			return na
		}
		if f.World.StoreBytes > 0 {
			return fmt.Sprintf("%d (store %.1f MB)", f.World.Chunks, float64(f.World.StoreBytes)/(1<<20))
		}
		return strconv.Itoa(f.World.Chunks)
	}
	rows = append(rows, row{fmt.Sprintf("chunk columns held after %v idle", r.Idle), chunks(bm, bmOK), "—", chunks(mf, mfOK), "—", "the same view", ""})
	return rows
}

func (r *report) header() string {
	return fmt.Sprintf("%s serving %s at view distance %d on 127.0.0.1; %d timed joins per client after a warm-up", r.Server, r.Version, r.ViewDistance, r.Rounds)
}

func (r *report) rawSpawns() []string {
	var out []string
	for _, name := range []string{"blockmate", "bare client", "mineflayer"} {
		var parts []string
		for _, d := range r.Spawn[name] {
			parts = append(parts, strconv.FormatInt(d.Milliseconds(), 10))
		}
		if len(parts) > 0 {
			out = append(out, fmt.Sprintf("%s: %s ms", name, strings.Join(parts, ", ")))
		}
	}
	return out
}

// rawIdle lists every idle round's CPU, by client.
func (r *report) rawIdle() []string {
	var out []string
	for _, name := range []string{"blockmate", againstName, "mineflayer"} {
		var parts []string
		for _, f := range r.IdleRuns[name] {
			parts = append(parts, strconv.FormatInt(f.CPU.Milliseconds(), 10))
		}
		if len(parts) > 0 {
			out = append(out, fmt.Sprintf("%s: %s ms", name, strings.Join(parts, ", ")))
		}
	}
	return out
}

func (r *report) failures() []string {
	var out []string
	for _, name := range []string{"blockmate", againstName, "bare client", "mineflayer"} {
		if msg := r.Failed[name]; msg != "" {
			first, _, _ := strings.Cut(msg, "\n")
			out = append(out, fmt.Sprintf("%s was not measured: %s", name, first))
		}
	}
	return out
}

// table is the plain-text report for the terminal.
func (r *report) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nblockmate benchmark — %s\n%s\n%s\n\n", r.header(), r.Label, r.Machine)
	rows := append([]row{{"measure", "blockmate", "bare client", "mineflayer", "ratio", "goal", ""}}, r.rows()...)
	widths := make([]int, 7)
	for _, rw := range rows {
		for i, c := range rw.cells() {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, rw := range rows {
		for i, c := range rw.cells() {
			fmt.Fprintf(&b, "%-*s  ", widths[i], c) // fmt pads by runes
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, s := range r.rawSpawns() {
		fmt.Fprintf(&b, "joins %s\n", s)
	}
	for _, s := range r.rawIdle() {
		fmt.Fprintf(&b, "idle CPU %s\n", s)
	}
	if r.Against != "" {
		fmt.Fprintf(&b, "-against: %s\n", r.Against)
	}
	for _, s := range r.failures() {
		fmt.Fprintln(&b, s)
	}
	return b.String()
}

func (rw row) cells() []string {
	return []string{rw.measure, rw.blockmate, rw.bare, rw.mineflayer, rw.ratio, rw.goal, rw.verdict}
}

// markdown is RESULTS-<version>.md.
func (r *report) markdown() string {
	var b strings.Builder
	b.WriteString("# Benchmark results\n\n")
	b.WriteString("Written by `go run ./bench` (see README, \"Benchmark\"); the last run at this version replaces this file.\n\n")
	fmt.Fprintf(&b, "- Date: %s\n- Measured: %s\n- Machine: %s\n- Setup: %s\n\n", r.Date.Format("2006-01-02 15:04 UTC"), r.Label, r.Machine, r.header())
	b.WriteString("| measure | blockmate | bare client | mineflayer | ratio | goal | |\n|---|---|---|---|---|---|---|\n")
	for _, rw := range r.rows() {
		fmt.Fprintf(&b, "| %s |\n", strings.Join(rw.cells(), " | "))
	}
	b.WriteString("\n")
	for _, s := range r.rawSpawns() {
		fmt.Fprintf(&b, "- Joins, %s\n", s)
	}
	for _, s := range r.rawIdle() {
		fmt.Fprintf(&b, "- Idle CPU, %s\n", s)
	}
	if r.Against != "" {
		fmt.Fprintf(&b, "- `-against` build: %s\n", r.Against)
	}
	for _, s := range r.failures() {
		fmt.Fprintf(&b, "- %s\n", s)
	}
	b.WriteString("\nStart to spawned is measured from just before the process is started to the moment it reports being in the world: " +
		"blockmate's mc_join response (`blockmate sidecar`, the request written at once), mineflayer's `spawn` event, " +
		"the bare minecraft-protocol client's first position packet. Memory is VmRSS from /proc/PID/status; " +
		"CPU is the time the process's threads ran (the scheduler's count, /proc/PID/task/*/schedstat, in nanoseconds), counted from spawned to the end of the idle time. " +
		fmt.Sprintf("The idle measures (%d round(s) per client, in turn; the figures are the median round's) run one client at a time; the chunk", r.IdleRounds) + " columns each holds are asked after them (blockmate's mc_status, mineflayer's world), " +
		"blockmate's store size being its own estimate of the bytes its blocks take (world.Store.Bytes), not the process's.\n")
	return b.String()
}

// machine describes where the run happened.
func machine(peers string) string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				if f := strings.Fields(rest); len(f) == 2 {
					if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
						mem = fmt.Sprintf(", %.1f GB memory", float64(kb)/(1<<20))
					}
				}
			}
		}
	}
	kernel := ""
	if out, err := exec.Command("uname", "-r").Output(); err == nil {
		kernel = ", Linux " + strings.TrimSpace(string(out))
	}
	nodeVersion := "node ?"
	if out, err := exec.Command(peertest.NodeIn(peers), "--version").Output(); err == nil {
		nodeVersion = "node " + strings.TrimSpace(string(out))
	}
	return fmt.Sprintf("%s, %d CPUs%s%s; %s, %s", cpu, runtime.NumCPU(), mem, kernel, runtime.Version(), nodeVersion)
}

// describeTree says which blockmate was measured: the commit, and whether
// the working tree it was built from had changes.
func describeTree(root, bin string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "blockmate from " + root + " (not a git checkout)"
	}
	commit := strings.TrimSpace(string(out))
	if bin != "" {
		return fmt.Sprintf("the blockmate binary %s (repository at commit %s)", bin, commit)
	}
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain").Output(); err == nil && len(st) > 0 {
		return "blockmate built from commit " + commit + " with uncommitted changes"
	}
	return "blockmate built from commit " + commit
}

// moduleRoot walks up from the working directory to go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run the benchmark inside the blockmate module (no go.mod above here)")
		}
		dir = parent
	}
}

// lockedBuffer collects a process's stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() < 1<<20 {
		l.b.Write(p)
	}
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
