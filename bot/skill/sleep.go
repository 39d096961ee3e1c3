package skill

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// The nights the game lets players sleep in, in ticks of the day: when the
// sky is dark enough (Level.isDay is false). Thunder lets them sleep at
// any time.
const (
	NightStart     = 12542 // clear weather
	NightEnd       = 23459
	RainNightStart = 12010
	RainNightEnd   = 23991
)

// BedSearchRadius is how far mc_sleep looks for a bed.
const BedSearchRadius = 32

// bedAnswerTicks bounds the wait for the server's answer to the click on
// a bed: the sleeping pose, or a line saying why not.
const bedAnswerTicks = 40

// bedMessagePrefix starts the translation keys of the lines the game shows
// over the hotbar when a player cannot sleep (Player.BedSleepingProblem).
const bedMessagePrefix = "block.minecraft.bed."

// SleepResult is what Sleep did, from the server's answers.
type SleepResult struct {
	// Sleeping is true when the server showed the bot asleep in the bed.
	Sleeping bool
	// Bed is the bed used (the half clicked); HasBed is false when none
	// was found.
	Bed    world.BlockPos
	HasBed bool
	// Woke says how the sleep ended: "morning" (the night was skipped, or
	// day came), "night" (stood up while it is still night: the bed broke),
	// or "" when the bot did not sleep or was stopped.
	Woke string
	// SleptTicks counts the ticks the bot lay asleep.
	SleptTicks uint64
	// TimeOfDay is the world's time of day (0–23999) at the end; HasTime
	// is false when the server has not sent the time.
	TimeOfDay int64
	HasTime   bool
	Reason    string
	NextStep  string
}

// UseBlock right-clicks a block, as mc_use_block does, and fails with a
// sentence when the click did not reach the server or was refused.
type UseBlock func(ctx context.Context, p world.BlockPos) error

// bedNotes keeps the last bed line the server showed the bot.
type bedNotes struct {
	mu   sync.Mutex
	seq  uint64
	last string
}

func (n *bedNotes) note(key string) {
	n.mu.Lock()
	n.seq++
	n.last = key
	n.mu.Unlock()
}

func (n *bedNotes) since(seq uint64) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.last, n.seq > seq
}

func (n *bedNotes) mark() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.seq
}

// systemChat notes the lines the game shows when a player cannot sleep
// (block.minecraft.bed.*): they come over the hotbar, which the chat log
// leaves out, and say why a click on a bed did not put the bot to sleep.
func (k *Skills) systemChat(r *wire.Reader) error {
	m := k.c.SystemChat(r)
	if r.Err() != nil {
		return nil
	}
	if key := translationKey(m.Content); strings.HasPrefix(key, bedMessagePrefix) {
		k.beds.note(key)
		k.news.Broadcast()
	}
	return nil
}

// Sleep finds the nearest bed within BedSearchRadius, walks within the
// server's reach of it, right-clicks it with use, and, once the server
// shows the bot asleep, waits until the bot wakes: in the morning when
// every player slept long enough, or when ctx ends (mc_stop), when the bot
// leaves the bed. When the server does not let the bot sleep the result
// says why in the game's terms (day, too far, occupied, monsters nearby).
func (k *Skills) Sleep(ctx context.Context, use UseBlock) (SleepResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return SleepResult{}, err
	}
	defer end()
	me := k.me.Snapshot()
	if me.Sleeping && k.leftBed.Load() {
		// The bot asked to leave its bed (a sleep stopped just before):
		// it is asleep only until the server's answer arrives. Wait for
		// it, so this sleep lies down again rather than taking the old
		// one's end for its own.
		if err := k.waitSelf(ctx, bedAnswerTicks, func() bool { return !k.me.Snapshot().Sleeping }); err != nil && !errors.Is(err, errTimedOut) {
			return SleepResult{}, err
		}
		me = k.me.Snapshot()
	}
	if !me.Sleeping {
		k.leftBed.Store(false)
	}
	res := SleepResult{}
	switch {
	case me.Dead:
		res.Reason, res.NextStep = "the bot is dead", "call mc_respawn first"
		return res, nil
	case me.GameMode == 3:
		res.Reason, res.NextStep = "a spectator cannot use beds", "switch the bot to survival (/gamemode survival) first"
		return res, nil
	case strings.HasSuffix(me.Dimension, "the_nether") || strings.HasSuffix(me.Dimension, "the_end"):
		res.Reason, res.NextStep = "beds explode in the nether and the end; the bot sleeps only in the overworld", "go back to the overworld first"
		return res, nil
	}
	if !me.Sleeping {
		done, err := k.lieDown(ctx, use, &res)
		if err != nil && ctx.Err() != nil && res.HasBed {
			// Stopped around the click: the server may put the bot to
			// sleep after all; leaving is harmless when it did not.
			k.leaveBed()
		}
		if done || err != nil {
			k.finishTime(&res)
			return res, err
		}
	} else if me.HasBed {
		res.Bed, res.HasBed = world.BlockPos(me.Bed), true
	}
	res.Sleeping = true
	err = k.sleepUntilAwake(ctx, &res)
	k.finishTime(&res)
	return res, err
}

// lieDown finds, reaches and clicks the bed, and waits for the server to
// show the bot asleep. done is true when it did not (res says why).
func (k *Skills) lieDown(ctx context.Context, use UseBlock, res *SleepResult) (done bool, err error) {
	bed, ok := k.nearestBed()
	if !ok {
		res.Reason = fmt.Sprintf("there is no bed within %d blocks of the bot", BedSearchRadius)
		res.NextStep = "place a bed (mc_place with a bed the bot carries) or walk near one, then call mc_sleep again"
		return true, nil
	}
	res.Bed, res.HasBed = bed, true
	halves := k.bedHalves(bed)
	if !k.bedInReach(halves) {
		target := geom.Vec3{X: float64(bed.X) + 0.5, Y: float64(bed.Y) + physics.EyeHeight, Z: float64(bed.Z) + 0.5}
		if err := k.body.GoNear(ctx, target, 2); err != nil {
			if ctx.Err() != nil {
				return true, ctx.Err()
			}
			res.Reason = fmt.Sprintf("the bot could not get to the bed at %s: %v", posText(bed), err)
			res.NextStep = "clear a way to the bed or call mc_goto next to it, then mc_sleep again"
			return true, nil
		}
	}
	mark := k.beds.mark()
	if err := use(ctx, bed); err != nil {
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		res.Reason = fmt.Sprintf("the click on the bed at %s failed: %v", posText(bed), err)
		res.NextStep = "call mc_block_at on the bed to see it, then mc_sleep again"
		return true, nil
	}
	var key string
	var told bool
	err = k.waitSelf(ctx, bedAnswerTicks, func() bool {
		key, told = k.beds.since(mark)
		return k.me.Snapshot().Sleeping || told
	})
	switch {
	case k.me.Snapshot().Sleeping:
		return false, nil
	case err != nil && !errors.Is(err, errTimedOut):
		return true, err
	case told:
		res.Reason, res.NextStep = k.bedProblem(key, bed)
	default:
		res.Reason = fmt.Sprintf("the server did not put the bot to sleep within %d ticks of the click on the bed at %s, and said nothing", bedAnswerTicks, posText(bed))
		res.NextStep = "call mc_get_time_weather (beds work only at night or in a thunderstorm) and mc_sleep again"
	}
	return true, nil
}

// sleepUntilAwake waits, on the bot's own state, until the server shows it
// standing again. When ctx ends first, the bot leaves the bed, as the bed
// screen's button does, and the context's error is returned.
func (k *Skills) sleepUntilAwake(ctx context.Context, res *SleepResult) error {
	start := k.s.Tick()
	for {
		changed := k.me.Changed()
		me := k.me.Snapshot()
		if !me.Sleeping {
			res.SleptTicks = k.s.Tick() - start
			res.Woke = "morning"
			if tod, ok := timeOfDay(me); ok && isNight(me, tod) {
				// Awake while it is still night: the bed was broken, or
				// the server stood the bot up for its own reasons.
				res.Woke = "night"
			}
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			res.SleptTicks = k.s.Tick() - start
			k.leaveBed()
			return ctx.Err()
		case <-k.s.Done():
			return core.ErrEnded
		}
	}
}

// leaveBed sends the bed screen's "Leave Bed" (entity_action
// stop_sleeping); the server ignores it from a player who is not asleep.
func (k *Skills) leaveBed() {
	id := k.me.Snapshot().EntityID
	k.leftBed.Store(true)
	_ = k.s.Send(mcdata.ServerboundPlayEntityAction, func(w *wire.Writer) { k.c.WriteLeaveBed(w, id) })
}

// waitSelf waits until cond holds, re-checking at every change of the
// bot's state and every tick, for at most n ticks.
func (k *Skills) waitSelf(ctx context.Context, n uint64, cond func() bool) error {
	return k.waitOn(ctx, n, k.me.Changed, cond)
}

func (k *Skills) finishTime(res *SleepResult) {
	res.TimeOfDay, res.HasTime = timeOfDay(k.me.Snapshot())
}

// timeOfDay is the time of day, 0–23999, when the server has sent one.
// TimeOfDay is the world's time of day, 0 to 23999, when the server has
// said it and the dimension has one.
func TimeOfDay(me self.Snapshot) (int64, bool) { return timeOfDay(me) }

func timeOfDay(me self.Snapshot) (int64, bool) {
	if !me.HasTime || (me.DayCycle != self.DayRunning && me.DayCycle != self.DayStopped) {
		return 0, false
	}
	return ((me.TimeOfDay % 24000) + 24000) % 24000, true
}

// isNight says whether the game lets players sleep at tod.
func isNight(me self.Snapshot, tod int64) bool {
	switch {
	case me.Thundering:
		return true
	case me.Raining:
		return tod >= RainNightStart && tod <= RainNightEnd
	}
	return tod >= NightStart && tod <= NightEnd
}

// bedProblem turns the game's refusal into a reason and a next step.
func (k *Skills) bedProblem(key string, bed world.BlockPos) (reason, next string) {
	me := k.me.Snapshot()
	switch strings.TrimPrefix(key, bedMessagePrefix) {
	case "no_sleep":
		start := int64(NightStart)
		if me.Raining {
			start = RainNightStart
		}
		if tod, ok := timeOfDay(me); ok {
			return fmt.Sprintf("it is day: you can sleep only at night (time %d); try again after %d", tod, start),
				fmt.Sprintf("wait until the time of day passes %d (mc_get_time_weather shows it), then call mc_sleep again", start)
		}
		return "it is day: you can sleep only at night or in a thunderstorm", "call mc_get_time_weather, then mc_sleep again at night"
	case "too_far_away":
		return fmt.Sprintf("the bed at %s is too far away: the server wants the bot within 3 blocks across and 2 up or down", posText(bed)),
			"call mc_goto next to the bed, then mc_sleep again"
	case "occupied":
		return fmt.Sprintf("the bed at %s is occupied", posText(bed)), "use another bed, or wait until it is free"
	case "not_safe":
		return "you may not rest now: there are monsters nearby", "fight them (mc_attack nearest_hostile) or move away from them, then call mc_sleep again"
	case "obstructed":
		return fmt.Sprintf("the bed at %s is obstructed: a block above it is in the way", posText(bed)), "clear the block above the bed (mc_dig), then call mc_sleep again"
	}
	return fmt.Sprintf("the server refused the bed at %s (%s)", posText(bed), key), "call mc_block_at on the bed, then mc_sleep again"
}

// bedStates are every bed's states.
func (k *Skills) bedStates() *mcdata.StateSet {
	k.bedOnce.Do(func() {
		k.bedSet = k.game.StatesOf(func(b *mcdata.Block) bool { return strings.HasSuffix(b.Name, "_bed") })
	})
	return k.bedSet
}

// nearestBed finds the nearest bed block (either half) within
// BedSearchRadius of the bot's feet.
func (k *Skills) nearestBed() (world.BlockPos, bool) {
	p := k.me.Snapshot().Position
	from := world.BlockPos{X: int(math.Floor(p.X)), Y: int(math.Floor(p.Y)), Z: int(math.Floor(p.Z))}
	found := k.world.View().FindBlocks(from, BedSearchRadius, 1, k.bedStates().Has)
	if len(found) == 0 {
		return world.BlockPos{}, false
	}
	return found[0].Pos, true
}

// bedHalves returns the bed at p and its other half, when the other half
// is there (the facing and part properties say where).
func (k *Skills) bedHalves(p world.BlockPos) []world.BlockPos {
	out := []world.BlockPos{p}
	st, ok := k.world.View().BlockAt(p)
	if !ok {
		return out
	}
	s, ok := k.game.StateByID(st)
	if !ok {
		return out
	}
	facing, _ := s.Value("facing")
	part, _ := s.Value("part")
	d := map[string][2]int{"north": {0, -1}, "south": {0, 1}, "west": {-1, 0}, "east": {1, 0}}[facing]
	if part == "foot" {
		out = append(out, world.BlockPos{X: p.X + d[0], Y: p.Y, Z: p.Z + d[1]})
	} else {
		out = append(out, world.BlockPos{X: p.X - d[0], Y: p.Y, Z: p.Z - d[1]})
	}
	return out
}

// bedInReach is the server's rule for reaching a bed (the game's
// ServerPlayer.isReachableBedBlock): the feet within 3 blocks across and 2
// up or down of either half's bottom centre.
func (k *Skills) bedInReach(halves []world.BlockPos) bool {
	p := k.me.Snapshot().Position
	for _, h := range halves {
		if math.Abs(p.X-(float64(h.X)+0.5)) <= 3 && math.Abs(p.Y-float64(h.Y)) <= 2 && math.Abs(p.Z-(float64(h.Z)+0.5)) <= 3 {
			return true
		}
	}
	return false
}

func posText(p world.BlockPos) string { return fmt.Sprintf("%d %d %d", p.X, p.Y, p.Z) }

// translationKey is a chat component's translation key ("" for a
// component that is not a translation).
func translationKey(c any) string {
	m, ok := c.(map[string]any)
	if !ok {
		return ""
	}
	key, _ := m["translate"].(string)
	return key
}
