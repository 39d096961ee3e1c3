package peertest_test

import (
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// placeBed sets a red bed with /setblock, both halves, its head one block
// east of its foot, and waits until the server has both.
func (s *scene) placeBed(foot [3]int) (head [3]int) {
	s.t.Helper()
	head = [3]int{foot[0] + 1, foot[1], foot[2]}
	for _, half := range []struct {
		at   [3]int
		part string
	}{{foot, "foot"}, {head, "head"}} {
		args, err := peertest.SetBlockArgs(s.version, "red_bed[facing=east,occupied=false,part="+half.part+"]")
		if err != nil {
			s.t.Fatal(err)
		}
		s.command(fmt.Sprintf("setblock %d %d %d %s", half.at[0], half.at[1], half.at[2], args))
		if b := s.waitBlock(half.at, "red_bed"); b.Properties["part"] != half.part || b.Properties["facing"] != "east" {
			s.t.Fatalf("the bed's %s at %v is %v", half.part, half.at, b.Properties)
		}
	}
	return head
}

type sleeper struct {
	Sleeping   bool  `json:"sleeping"`
	Bed        []int `json:"bed"`
	SleepTicks int   `json:"sleepTicks"`
}

type sleepAnswer struct {
	Slept      bool       `json:"slept"`
	IsSleeping bool       `json:"isSleeping"`
	Error      string     `json:"error"`
	TimeOfDay  int        `json:"timeOfDay"`
	Pos        [3]float64 `json:"pos"`
}

// sleepInBed has mineflayer sleep with its own bot.sleep in a bed the
// plugin serves. By day mineflayer refuses, and the server, clicked
// anyway, answers with the game's block.minecraft.bed.no_sleep over the
// hotbar. At night bot.sleep succeeds: mineflayer's isSleeping comes from
// the server's pose and sleeping_pos, and the server has alex asleep in
// the head, which is occupied. Alone asleep for 100 ticks, alex has the
// night skipped: the server's time jumps to the next morning, mineflayer
// sees its wake event (the wake-up animation) and a morning time, and the
// bed is free again.
func sleepInBed(s *scene) {
	foot := s.rel(1, 0, 2)
	head := s.placeBed(foot)
	defer func() {
		s.command(fmt.Sprintf("setblock %d %d %d air", head[0], head[1], head[2]))
		s.command(fmt.Sprintf("setblock %d %d %d air", foot[0], foot[1], foot[2]))
		s.home()
	}()

	s.command("time set 1000")
	s.do(s.alex, nil, map[string]any{"cmd": "waitTime", "from": 1000, "to": 12000})
	var day sleepAnswer
	s.do(s.alex, &day, map[string]any{"cmd": "sleep", "pos": foot})
	if day.Slept || !strings.Contains(day.Error, "not night") {
		s.t.Errorf("mineflayer's bot.sleep by day = %+v, want its refusal (not night)", day)
	}
	var mark packets
	s.do(s.alex, &mark, map[string]any{"cmd": "packets", "mark": 1 << 30})
	s.do(s.alex, nil, map[string]any{"cmd": "click", "pos": foot})
	var got packets
	s.eventually("the server refuses sleep by day", func() bool {
		s.do(s.alex, &got, map[string]any{"cmd": "packets", "mark": mark.Mark, "names": []string{"system_chat"}})
		for _, p := range got.Packets {
			if p.Translate == "block.minecraft.bed.no_sleep" && p.ActionBar {
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("mineflayer got %+v", got.Packets) })
	var p sleeper
	s.query(&p, "player", "alex")
	if p.Sleeping {
		s.t.Fatalf("the server has alex asleep by day: %+v", p)
	}

	s.command("time set 13000")
	s.do(s.alex, nil, map[string]any{"cmd": "waitTime", "from": 13000, "to": 23000})
	var night sleepAnswer
	s.do(s.alex, &night, map[string]any{"cmd": "sleep", "pos": foot})
	if !night.Slept || !night.IsSleeping {
		s.t.Fatalf("mineflayer's bot.sleep at night = %+v, want slept and isSleeping", night)
	}
	s.query(&p, "player", "alex")
	if !p.Sleeping || len(p.Bed) != 3 || [3]int{p.Bed[0], p.Bed[1], p.Bed[2]} != head {
		s.t.Errorf("the server has alex %+v, want asleep in the bed's head %v", p, head)
	}
	if b := s.waitBlock(head, "red_bed"); b.Properties["occupied"] != true {
		s.t.Errorf("the bed's head is %v while alex sleeps, want occupied", b.Properties)
	}

	// Leaving the bed (mineflayer's bot.wake, the leave-bed button) wakes
	// alex at once; then he sleeps again until the morning.
	var left sleepAnswer
	s.do(s.alex, &left, map[string]any{"cmd": "wake"})
	s.query(&p, "player", "alex")
	if left.IsSleeping || p.Sleeping {
		s.t.Errorf("after bot.wake mineflayer says %+v and the server %+v, want both awake", left, p)
	}
	s.do(s.alex, &night, map[string]any{"cmd": "sleep", "pos": head})
	if !night.Slept {
		s.t.Fatalf("mineflayer's second bot.sleep = %+v", night)
	}

	var woke sleepAnswer
	s.do(s.alex, &woke, map[string]any{"cmd": "waitWake"})
	if woke.IsSleeping || woke.TimeOfDay >= 12542 {
		s.t.Errorf("mineflayer at its wake event: %+v, want awake in the morning", woke)
	}
	var slept, awoke []sleepLog
	s.query(&slept, "log", "sleep")
	skipped := s.newLog("night")
	for _, e := range slept {
		if e.Player == "alex" && e.Verdict == "woke" {
			awoke = append(awoke, e)
		}
	}
	if len(skipped) != 1 || len(awoke) == 0 || awoke[len(awoke)-1].Why != "morning" {
		s.t.Errorf("the server's log: nights skipped %+v, wake-ups %+v; want one night skipped and alex woken by the morning", skipped, awoke)
	}
	if len(awoke) < 2 || awoke[0].Why != "left the bed" {
		s.t.Errorf("the server's wake-ups %+v, want the first by leaving the bed", awoke)
	}
	var asleep *sleepLog
	for i := range slept {
		if slept[i].Verdict == "slept" {
			asleep = &slept[i]
		}
	}
	if asleep == nil || len(skipped) == 0 || skipped[0].Tick-asleep.Tick < 100 {
		s.t.Errorf("alex fell asleep at %+v and the night was skipped at %+v; want at least 100 ticks between", asleep, skipped)
	}
	var tm struct {
		Time      int `json:"time"`
		TimeOfDay int `json:"timeOfDay"`
	}
	s.query(&tm, "time")
	if tm.TimeOfDay >= 12542 {
		s.t.Errorf("after the night the server's time of day is %d, want morning", tm.TimeOfDay)
	}
	s.query(&p, "player", "alex")
	if p.Sleeping {
		s.t.Errorf("the server still has alex asleep after the night: %+v", p)
	}
	if b := s.waitBlock(head, "red_bed"); b.Properties["occupied"] != false {
		s.t.Errorf("the bed's head is %v after the night, want free", b.Properties)
	}
}

// sleepLog is a "sleep" entry of the plugin's log.
type sleepLog struct {
	Tick    int    `json:"tick"`
	Player  string `json:"player"`
	Verdict string `json:"verdict"`
	Why     string `json:"why"`
}
