package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/blockmate/blockmate/untrusted"
)

// EventKind says what an event is about, for a reader that colours or
// sorts events (the console's events pane).
type EventKind string

// The kinds of events.
const (
	KindChat       EventKind = "chat"       // what players said
	KindSystem     EventKind = "system"     // the server's own lines and screens
	KindDanger     EventKind = "danger"     // the bot is in trouble
	KindGood       EventKind = "good"       // good news: items, players, a respawn
	KindWorld      EventKind = "world"      // worlds found and lost
	KindProgress   EventKind = "progress"   // a long call's progress
	KindConnection EventKind = "connection" // the connection to the world
	KindOther      EventKind = "other"
)

// EventFields are the payload fields an event's sentence reads: the union
// of what the catalog's events carry, decoded from the payload by name.
type EventFields struct {
	Username  string          `json:"username"`
	Message   string          `json:"message"`
	Reason    string          `json:"reason"`
	MOTD      string          `json:"motd"`
	Health    *float64        `json:"health"`
	MaxHealth *float64        `json:"max_health"`
	Food      *int            `json:"food"`
	Attacker  string          `json:"attacker"`
	Type      string          `json:"type"`
	Distance  *float64        `json:"distance"`
	Item      string          `json:"item"`
	Count     *int            `json:"count"`
	Tool      string          `json:"tool"`
	Done      *int            `json:"done"`
	Total     *int            `json:"total"`
	Step      string          `json:"step"`
	Position  json.RawMessage `json:"position"`
	NextStep  string          `json:"next_step"`
	Title     string          `json:"title"`
	Body      []string        `json:"body"`
	Buttons   []string        `json:"buttons"`
	Text      string          `json:"text"`
	Accepted  bool            `json:"accepted"`
	TaskID    string          `json:"task_id"`
	OK        *bool           `json:"ok"`
	Error     string          `json:"error"`
	Did       string          `json:"did"`
	WillRetry bool            `json:"will_retry"`
	Server    string          `json:"server"`
}

// EventSentence is an event as one sentence for people: "alex joined",
// "Hurt by zombie, health 12", "World found: Eduard - Survival", from the
// catalog entry's Sentence; chat as "<alex> hi". Text from the payload is
// cleaned as untrusted text. An event the catalog does not know is named
// plainly.
func EventSentence(e Event) string {
	var f EventFields
	_ = json.Unmarshal(e.Payload, &f)
	if spec, ok := EventSpecFor(e.Name); ok && spec.Sentence != nil {
		return spec.Sentence(f)
	}
	return strings.ReplaceAll(strings.TrimPrefix(untrusted.Line(e.Name), "mc_"), "_", " ")
}

// The pieces sentences are made of.

// name is a payload text (a name, a game id) for a sentence, or d when
// empty: cleaned, one line, without minecraft:.
func name(v, d string) string {
	v = strings.TrimPrefix(untrusted.Line(v), "minecraft:")
	if v == "" {
		return d
	}
	return v
}

// thing is a game id (oak_log, minecraft:zombie) as words.
func thing(v, d string) string { return strings.ReplaceAll(name(v, d), "_", " ") }

// num is a number to one decimal, trimmed, or ? when absent.
func num(f *float64) string {
	if f == nil {
		return "?"
	}
	return strconv.FormatFloat(float64(int(*f*10))/10, 'f', -1, 64)
}

func chatSentence(f EventFields) string {
	return "<" + name(f.Username, "someone") + "> " + untrusted.Line(f.Message)
}

func whisperSentence(f EventFields) string {
	return name(f.Username, "someone") + " whispers: " + untrusted.Line(f.Message)
}

func systemSentence(f EventFields) string { return untrusted.Line(f.Message) }

func joinedSentence(f EventFields) string { return name(f.Username, "Someone") + " joined" }

func leftSentence(f EventFields) string { return name(f.Username, "Someone") + " left" }

func lowHealthSentence(f EventFields) string {
	max := f.MaxHealth
	if max == nil {
		twenty := 20.0
		max = &twenty
	}
	return "Low health: " + num(f.Health) + " of " + num(max)
}

func lowFoodSentence(f EventFields) string {
	food := "?"
	if f.Food != nil {
		food = strconv.Itoa(*f.Food)
	}
	return "Hungry: food " + food + " of 20"
}

func hurtSentence(f EventFields) string {
	text := "Hurt"
	if f.Attacker != "" {
		text += " by " + thing(f.Attacker, "something")
	}
	if f.Health != nil {
		text += ", health " + num(f.Health)
	}
	return text
}

func hostileSentence(f EventFields) string {
	text := thing(f.Type, "A hostile mob") + " nearby"
	if f.Distance != nil {
		text += " (" + num(f.Distance) + " blocks)"
	}
	return text
}

func deathSentence(f EventFields) string { return name(f.Message, "The bot died") }

func respawnedSentence(EventFields) string { return "Back on its feet" }

func pickedUpSentence(f EventFields) string {
	if f.Count != nil && *f.Count != 1 {
		return fmt.Sprintf("Picked up %d %s", *f.Count, thing(f.Item, "items"))
	}
	return "Picked up " + thing(f.Item, "something")
}

func progressSentence(f EventFields) string {
	text := strings.TrimPrefix(name(f.Tool, "Task"), "mc_")
	if f.Done != nil && f.Total != nil {
		text += fmt.Sprintf(": %d of %d", *f.Done, *f.Total)
	}
	if f.Step != "" {
		text += ", " + untrusted.Line(f.Step)
	}
	return text
}

func behaviorSentence(f EventFields) string {
	did := untrusted.Line(f.Did)
	if did == "" {
		return "Looked after itself"
	}
	return strings.ToUpper(did[:1]) + did[1:]
}

func taskDoneSentence(f EventFields) string {
	text := "Task " + name(f.TaskID, "?") + " (" + strings.TrimPrefix(name(f.Tool, "a tool"), "mc_") + ")"
	if f.OK != nil && !*f.OK {
		return text + " failed: " + untrusted.Line(f.Error)
	}
	return text + " finished"
}

func stuckSentence(f EventFields) string {
	if f.Reason != "" {
		return "Stuck: " + name(f.Reason, "")
	}
	return "Stuck"
}

// quoteLines joins lines a server operator wrote into one quoted run,
// each line's spaces collapsed and empty lines left out.
func quoteLines(lines []string) string {
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		if l = strings.Join(strings.Fields(untrusted.Line(l)), " "); l != "" {
			parts = append(parts, l)
		}
	}
	return "“" + strings.Join(parts, " / ") + "”"
}

func dialogSentence(f EventFields) string {
	// The server's own words, quoted, so nobody takes them for
	// blockmate's.
	text := "The server showed a dialog"
	if t := untrusted.Line(f.Title); t != "" {
		text += " “" + t + "”"
	}
	if len(f.Body) > 0 {
		text += ": " + quoteLines(f.Body)
	}
	if len(f.Buttons) > 0 {
		text += " (buttons: " + untrusted.Line(strings.Join(f.Buttons, ", ")) + ")"
	}
	return text + "; the bot closed it"
}

func conductSentence(f EventFields) string {
	text := "The server's code of conduct"
	if t := untrusted.Line(f.Text); t != "" {
		text += ": " + quoteLines([]string{t})
	}
	if f.Accepted {
		text += "; the bot accepted it to join"
	}
	return text
}

func droppedSentence(f EventFields) string {
	text := "Some events were missed"
	if f.Count != nil {
		text = fmt.Sprintf("%d events were missed", *f.Count)
	}
	return text + " (the console fell behind)"
}

func disconnectedSentence(f EventFields) string {
	s := "Left the world"
	if f.Reason != "" {
		s += ": " + name(f.Reason, "")
	}
	if f.WillRetry {
		s += "; reconnecting"
	}
	return s
}

func reconnectedSentence(f EventFields) string {
	return "Back in the world at " + name(f.Server, "the server")
}

func worldFoundSentence(f EventFields) string { return "World found: " + name(f.MOTD, "a LAN world") }

func worldLostSentence(f EventFields) string { return "World closed: " + name(f.MOTD, "a LAN world") }
