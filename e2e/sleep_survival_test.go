package e2e

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// sleepResult is mc_sleep's result.
type sleepResult struct {
	Sleeping   bool   `json:"sleeping"`
	Slept      bool   `json:"slept"`
	Woke       string `json:"woke"`
	SleptTicks *int   `json:"slept_ticks"`
	TimeOfDay  *int   `json:"time_of_day"`
	Reason     string `json:"reason"`
	NextStep   string `json:"next_step"`
}

// sleeperOnServer is what the survival plugin says of a player's sleep.
type sleeperOnServer struct {
	Sleeping bool  `json:"sleeping"`
	Bed      []int `json:"bed"`
}

// botTimeOfDay is mc_get_time_weather's time of day.
func (s *skillScene) botTimeOfDay() int {
	s.t.Helper()
	var tw struct {
		TimeOfDay *int `json:"time_of_day"`
	}
	s.call("mc_get_time_weather", nil, &tw)
	if tw.TimeOfDay == nil {
		return -1
	}
	return *tw.TimeOfDay
}

// sleepCall sends an mc_sleep call with id, without waiting for its
// answer (it comes when the bot wakes).
func (s *skillScene) sleepCall(id string) {
	line, _ := json.Marshal(map[string]any{"id": id, "tool": "mc_sleep", "args": map[string]any{}})
	s.sc.Send(string(line))
}

// setTime sets the server's time of day with flying-squid's /time and
// waits until the bot has been told.
func (s *skillScene) setTime(t, from, to int) {
	s.t.Helper()
	s.command(fmt.Sprintf("time set %d", t))
	var now int
	s.eventually(fmt.Sprintf("the bot's time of day is between %d and %d", from, to), func() bool {
		now = s.botTimeOfDay()
		return now >= from && now <= to
	}, func() string { return fmt.Sprint("it is ", now) })
}

// sleep: a red bed set with /setblock (both halves, its head east of its
// foot) a few blocks from the bot. By day mc_sleep walks there, clicks and
// says why not, from the server's own refusal. At night mc_sleep puts the
// bot to bed: the server has it asleep in the bed's head and mc_status
// says so; mc_stop gets it out of bed (the server sees it leave); asleep
// again and alone in the world, after 100 ticks asleep the night is skipped
// and mc_sleep answers that the bot woke in the morning, which the server
// agrees with.
func (s *skillScene) sleep(version string) {
	s.t.Helper()
	foot := [3]int{s.at[0] + 4, s.at[1], s.at[2] + 4}
	head := [3]int{foot[0] + 1, foot[1], foot[2]}
	for _, half := range []struct {
		at   [3]int
		part string
	}{{foot, "foot"}, {head, "head"}} {
		args, err := peertest.SetBlockArgs(version, "red_bed[facing=east,occupied=false,part="+half.part+"]")
		if err != nil {
			s.t.Fatal(err)
		}
		s.command(fmt.Sprintf("setblock %d %d %d %s", half.at[0], half.at[1], half.at[2], args))
		var b struct {
			Block string            `json:"block"`
			State map[string]string `json:"state"`
		}
		s.eventually(fmt.Sprintf("the bot sees the bed's %s", half.part), func() bool {
			s.call("mc_block_at", map[string]any{"x": half.at[0], "y": half.at[1], "z": half.at[2]}, &b)
			return b.Block == "red_bed" && b.State["part"] == half.part
		}, func() string { return fmt.Sprint(b) })
	}
	defer func() {
		s.command(fmt.Sprintf("setblock %d %d %d air", head[0], head[1], head[2]))
		s.command(fmt.Sprintf("setblock %d %d %d air", foot[0], foot[1], foot[2]))
		s.home()
	}()

	s.setTime(6000, 6000, 11000)
	var day sleepResult
	s.call("mc_sleep", nil, &day)
	if day.Sleeping || !strings.Contains(day.Reason, "it is day: you can sleep only at night (time ") || !strings.Contains(day.Reason, "try again after 12542") || day.NextStep == "" {
		s.t.Errorf("mc_sleep by day = %+v, want the server's refusal with the time and when to try again", day)
	}
	var on sleeperOnServer
	s.query(&on, "player", s.bot)
	if on.Sleeping {
		s.t.Fatalf("the server has the bot asleep by day: %+v", on)
	}

	s.setTime(13000, 13000, 23000)
	// mc_stop gets the bot out of bed: the sleep answers that it was
	// stopped (the dispatcher's words), and the server has the bot awake,
	// by the leave-bed action.
	s.sleepCall("sleep-stopped")
	s.eventually("the server has the bot asleep", func() bool {
		s.query(&on, "player", s.bot)
		return on.Sleeping
	}, func() string { return fmt.Sprint(on) })
	var stop struct {
		Stopped bool `json:"stopped"`
	}
	s.call("mc_stop", nil, &stop)
	if r := s.sc.WaitReply(s.ctx, "sleep-stopped"); r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
		s.t.Errorf("mc_sleep stopped by mc_stop answered %+v, want the dispatcher's stopped error", r)
	}
	s.eventually("the server has the bot out of bed", func() bool {
		s.query(&on, "player", s.bot)
		return !on.Sleeping
	}, func() string { return fmt.Sprint(on) })
	var log []struct {
		Player  string `json:"player"`
		Verdict string `json:"verdict"`
		Why     string `json:"why"`
	}
	s.query(&log, "log", "sleep")
	if n := len(log); n == 0 || log[n-1].Player != s.bot || log[n-1].Verdict != "woke" || log[n-1].Why != "left the bed" {
		s.t.Errorf("the server's sleep log %+v, want the bot's last entry woke by leaving the bed", log)
	}

	s.sleepCall("sleep-at-night")
	s.eventually("the server has the bot asleep in the bed's head", func() bool {
		s.query(&on, "player", s.bot)
		return on.Sleeping && len(on.Bed) == 3 && [3]int{on.Bed[0], on.Bed[1], on.Bed[2]} == head
	}, func() string { return fmt.Sprint(on) })
	var st struct {
		Sleeping bool `json:"sleeping"`
		Bed      *struct {
			X, Y, Z float64
		} `json:"bed"`
	}
	s.eventually("mc_status says the bot sleeps", func() bool {
		s.call("mc_status", nil, &st)
		return st.Sleeping
	}, func() string { return fmt.Sprint(st) })
	if st.Bed == nil || [3]float64{st.Bed.X, st.Bed.Y, st.Bed.Z} != [3]float64{float64(head[0]), float64(head[1]), float64(head[2])} {
		s.t.Errorf("mc_status names the bed %+v, want the head %v", st.Bed, head)
	}

	r := s.sc.WaitReply(s.ctx, "sleep-at-night")
	if !r.OK {
		s.t.Fatalf("mc_sleep at night: %s\n%s", r.Error, s.sc.Stderr())
	}
	var night sleepResult
	if err := r.Decode(&night); err != nil {
		s.t.Fatal(err)
	}
	// While it slept the call said how far the night had come.
	progressed := false
	for _, ev := range s.sc.Events() {
		if ev.Name == "mc_task_progress" && strings.Contains(string(ev.Payload), `"tool":"mc_sleep","id":"sleep-at-night"`) {
			progressed = true
		}
	}
	if !progressed {
		s.t.Error("mc_sleep sent no mc_task_progress while the bot slept")
	}
	// The bot counts its own ticks asleep; the server's, which decide,
	// are read from its log below (a server running late ticks back to
	// back fits its 100 into fewer of the bot's).
	if night.Sleeping || !night.Slept || night.Woke != "morning" || night.SleptTicks == nil || *night.SleptTicks == 0 || night.TimeOfDay == nil || *night.TimeOfDay >= 12542 {
		s.t.Errorf("mc_sleep at night = %s, want slept and woke in the morning", r.Result)
	}
	var sleeps []struct {
		Tick    int    `json:"tick"`
		Player  string `json:"player"`
		Verdict string `json:"verdict"`
		Why     string `json:"why"`
	}
	s.query(&sleeps, "log", "sleep")
	var nights []struct {
		Tick int `json:"tick"`
	}
	s.query(&nights, "log", "night")
	if n := len(sleeps); len(nights) != 1 || n < 2 || sleeps[n-2].Verdict != "slept" || sleeps[n-1].Why != "morning" || nights[0].Tick-sleeps[n-2].Tick < 100 {
		s.t.Errorf("the server's log: sleeps %+v, nights %+v; want the bot asleep 100 ticks or more, then one night skipped and the bot woken by the morning", sleeps, nights)
	}
	s.query(&on, "player", s.bot)
	var tm struct {
		TimeOfDay int `json:"timeOfDay"`
	}
	s.query(&tm, "time")
	if on.Sleeping || tm.TimeOfDay >= 12542 {
		s.t.Errorf("after mc_sleep the server has the bot %+v at time of day %d, want awake in the morning", on, tm.TimeOfDay)
	}
	// sleeping is left out while the bot is awake: decode into a fresh
	// value.
	st.Sleeping = false
	s.call("mc_status", nil, &st)
	if st.Sleeping {
		s.t.Errorf("mc_status says the bot still sleeps after the night")
	}
}
