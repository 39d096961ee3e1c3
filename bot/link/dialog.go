package link

import (
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/untrusted"
)

// Dialogs (1.21.6+) and the code of conduct (1.21.9+): screens a server
// shows the player. A bot has no screen, so it reports what the server
// showed (an event and the console) and then does what a player closing the
// screen does, so that it is never stuck behind one.
//
// Closing a dialog (the game's DialogScreen.onClose, 26.1.2) runs the
// dialog's cancel action, if it has one: a notice's button, a
// confirmation's "no", a list's exit button. The bot runs it only when it
// is a custom action, which sends custom_click_action to the server; a
// command, a link, a page or another dialog is left alone (the bot runs no
// command a server operator wrote). Without a cancel action nothing is
// sent, as in the game: a vanilla server never waits for an answer.

// Dialog is a dialog the server showed, as the bot read it. Text in it was
// written by the server's operator: it is data, never instructions.
type Dialog struct {
	Title string
	// Body is the dialog's plain messages, in order.
	Body []string
	// Buttons are the labels of the dialog's buttons, in order.
	Buttons []string
	// Type is the dialog type without "minecraft:", e.g. "notice".
	Type string
	// cancel is the action the game runs when the dialog is closed.
	cancel map[string]any
}

// dialogs is the link's dialog state.
type dialogs struct {
	mu sync.Mutex
	// last is the last dialog shown, open says whether the server has not
	// cleared it since (the bot closed it at once either way).
	last *Dialog
	open bool
}

// LastDialog is the last dialog the server showed, and false when none
// came.
func (l *Link) LastDialog() (Dialog, bool) {
	l.dialogs.mu.Lock()
	defer l.dialogs.mu.Unlock()
	if l.dialogs.last == nil {
		return Dialog{}, false
	}
	return *l.dialogs.last, true
}

// showDialog handles show_dialog in configuration (inline) or play (inline
// or a minecraft:dialog registry entry); clickAction is the state's
// custom_click_action packet.
func (l *Link) showDialog(decode func(r *wire.Reader) codec.DialogRef, clickAction mcdata.Packet) core.Handler {
	return func(r *wire.Reader) error {
		ref := decode(r)
		if r.Err() != nil {
			return nil
		}
		data, name := ref.Inline, ""
		if ref.Registry >= 0 {
			entry, ok := l.reg.Dialog(ref.Registry)
			if !ok {
				l.s.Log.Warn("the server showed a dialog that is not in its dialog registry", "index", ref.Registry)
				return nil
			}
			data, name = entry.Data, entry.Name
		}
		d := parseDialog(data)
		if d.Title == "" {
			d.Title = strings.TrimPrefix(name, "minecraft:")
		}
		l.dialogs.mu.Lock()
		l.dialogs.last, l.dialogs.open = &d, true
		l.dialogs.mu.Unlock()
		l.s.Emit("mc_dialog", "", struct {
			Title     string   `json:"title"`
			Body      []string `json:"body,omitempty"`
			Buttons   []string `json:"buttons,omitempty"`
			Untrusted bool     `json:"untrusted"`
		}{d.Title, d.Body, d.Buttons, true})
		return l.dismiss(d, clickAction)
	}
}

// clearDialog handles clear_dialog: the server closed its dialog.
func (l *Link) clearDialog(*wire.Reader) error {
	l.dialogs.mu.Lock()
	l.dialogs.open = false
	l.dialogs.mu.Unlock()
	return nil
}

// maxClickPayload is the game's limit on a custom click payload, in bytes.
const maxClickPayload = 65536

// dismiss closes a dialog the way the game does: it runs the cancel action
// when that is a custom action, and sends nothing otherwise.
func (l *Link) dismiss(d Dialog, clickAction mcdata.Packet) error {
	typ := strings.TrimPrefix(str(d.cancel["type"]), "minecraft:")
	id := str(d.cancel["id"])
	if id == "" {
		return nil
	}
	var payload any
	switch typ {
	case "custom":
		payload = d.cancel["payload"]
	case "dynamic/custom":
		// The game sends the action's additions with the dialog's input
		// values added; the bot fills in no inputs.
		additions, _ := d.cancel["additions"].(map[string]any)
		if additions == nil {
			additions = map[string]any{}
		}
		payload = additions
	default:
		return nil
	}
	a := codec.CustomClickAction{ID: id}
	if payload != nil {
		var w wire.Writer
		if err := w.NBT(payload); err != nil || len(w.Bytes()) > maxClickPayload {
			l.s.Log.Warn("a dialog's cancel action has a payload the bot cannot send back; closing it without an answer", "id", id)
			return nil
		}
		a.Payload = w.Bytes()
	}
	return l.s.Send(clickAction, func(w *wire.Writer) { l.c.WriteCustomClickAction(w, a) })
}

// parseDialog reads the parts of a dialog's NBT a person needs (GAME
// 26.1.2 server/dialog: CommonDialogData and the types' buttons).
func parseDialog(data any) Dialog {
	m, _ := data.(map[string]any)
	d := Dialog{Type: strings.TrimPrefix(str(m["type"]), "minecraft:"), Title: text(m["title"])}
	switch body := m["body"].(type) {
	case []any:
		for _, b := range body {
			d.Body = appendBody(d.Body, b)
		}
	case nil:
	default:
		d.Body = appendBody(d.Body, body)
	}
	button := func(v any, fallback string) {
		b, ok := v.(map[string]any)
		if !ok {
			if fallback != "" {
				d.Buttons = append(d.Buttons, fallback)
			}
			return
		}
		if label := text(b["label"]); label != "" {
			d.Buttons = append(d.Buttons, label)
		}
	}
	action := func(v any) map[string]any {
		b, _ := v.(map[string]any)
		a, _ := b["action"].(map[string]any)
		return a
	}
	switch d.Type {
	case "notice":
		// Without a button of its own, a notice has the game's "OK".
		button(m["action"], gameText("gui.ok"))
		d.cancel = action(m["action"])
	case "confirmation":
		button(m["yes"], "")
		button(m["no"], "")
		d.cancel = action(m["no"])
	case "multi_action":
		if list, ok := m["actions"].([]any); ok {
			for _, b := range list {
				button(b, "")
			}
		}
		button(m["exit_action"], "")
		d.cancel = action(m["exit_action"])
	case "server_links", "dialog_list":
		button(m["exit_action"], "")
		d.cancel = action(m["exit_action"])
	}
	return d
}

// appendBody adds one body element: a plain message (or a bare text) as
// its text; an item as its id.
func appendBody(out []string, b any) []string {
	if m, ok := b.(map[string]any); ok {
		switch strings.TrimPrefix(str(m["type"]), "minecraft:") {
		case "plain_message":
			b = m["contents"]
		case "item":
			item, _ := m["item"].(map[string]any)
			return append(out, "["+strings.TrimPrefix(str(item["id"]), "minecraft:")+"]")
		}
	}
	if t := text(b); t != "" {
		out = append(out, t)
	}
	return out
}

// text renders a text component a server operator wrote: plain, with what
// could act on a terminal or hide text removed (the one sanitiser).
func text(v any) string {
	if v == nil {
		return ""
	}
	return strings.TrimSpace(untrusted.Text(chat.Plain(v)))
}

// gameText is a translation of the game's own (en_us), or the key.
func gameText(key string) string {
	if s, ok := mcdata.Translate(key); ok {
		return s
	}
	return key
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// codeOfConduct shows the server's code of conduct and accepts it, in
// answer to the server's packet only: the server waits for the accept, and
// one it did not ask for ends the connection.
func (l *Link) codeOfConduct(r *wire.Reader) error {
	contents := l.c.CodeOfConduct(r)
	if r.Err() != nil {
		return nil
	}
	l.s.Emit("mc_code_of_conduct", "", struct {
		Text      string `json:"text"`
		Accepted  bool   `json:"accepted"`
		Untrusted bool   `json:"untrusted"`
	}{strings.TrimSpace(untrusted.Text(contents)), true, true})
	return l.s.Send(mcdata.ServerboundConfigAcceptCodeOfConduct, nil)
}
