package skill

import (
	"testing"

	"github.com/blockmate/blockmate/bot/self"
)

// TestNight: the game's sleeping hours, at their edges, in clear weather,
// rain and thunder; the time of day is taken from the world's time.
func TestNight(t *testing.T) {
	clear, rain, thunder := self.Snapshot{}, self.Snapshot{Raining: true}, self.Snapshot{Raining: true, Thundering: true}
	for _, c := range []struct {
		me    self.Snapshot
		tod   int64
		night bool
	}{
		{clear, 12541, false}, {clear, 12542, true}, {clear, 23459, true}, {clear, 23460, false}, {clear, 6000, false},
		{rain, 12009, false}, {rain, 12010, true}, {rain, 23991, true}, {rain, 23992, false},
		{thunder, 6000, true}, {thunder, 0, true},
	} {
		if got := isNight(c.me, c.tod); got != c.night {
			t.Errorf("raining %v, thundering %v, time %d: night %v, want %v", c.me.Raining, c.me.Thundering, c.tod, got, c.night)
		}
	}
	for _, c := range []struct {
		me   self.Snapshot
		want int64
		ok   bool
	}{
		{self.Snapshot{HasTime: true, DayCycle: self.DayRunning, TimeOfDay: 24000*5 + 13000}, 13000, true},
		{self.Snapshot{HasTime: true, DayCycle: self.DayStopped, TimeOfDay: 6000}, 6000, true},
		{self.Snapshot{HasTime: true, DayCycle: self.DayNone}, 0, false},
		{self.Snapshot{}, 0, false},
	} {
		if got, ok := timeOfDay(c.me); got != c.want || ok != c.ok {
			t.Errorf("%+v: time of day %d %v, want %d %v", c.me, got, ok, c.want, c.ok)
		}
	}
}
