// Package link is the bot's connection-level feature: the handshake and
// login, the configuration state and its round trips back from play,
// keep-alives, pings, cookies, plugin messages, resource packs, known packs,
// transfers, kicks and disconnect reasons, dialogs (1.21.6+) and the code
// of conduct (1.21.9+). Each of these is handled once, for every state it
// can come in. (Chunk-batch acknowledgements belong to the world feature,
// bot/worldfeat, which measures the rate to ask for.)
package link

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/untrusted"
)

// Options tune the link.
type Options struct {
	// Host and Port are what the handshake says the bot connected to.
	Host string
	Port int
	// ViewDistance is the view distance the bot asks for, in chunks; 0
	// means 10. The server sends the smaller of it and its own.
	ViewDistance int8
	// Brand is the client brand the bot announces.
	Brand string
}

// Link is the connection-level feature of one session.
type Link struct {
	s    *core.Session
	c    *codec.Codec
	reg  *registry.Registry
	opts Options

	dialogs dialogs
}

// Attach registers the link's handlers on s. reg resolves the dialogs a
// server shows by their registry entry.
func Attach(s *core.Session, reg *registry.Registry, opts Options) *Link {
	if opts.ViewDistance <= 0 {
		// Far enough to find things ("where is the nearest oak log?")
		// without the memory of the game's 12 or more.
		opts.ViewDistance = 10
	}
	if opts.Brand == "" {
		opts.Brand = "blockmate"
	}
	l := &Link{s: s, c: s.Codec, reg: reg, opts: opts}

	// Login.
	s.Handle(mcdata.ClientboundLoginCompress, l.compress)
	s.Handle(mcdata.ClientboundLoginEncryptionBegin, l.encryption)
	s.Handle(mcdata.ClientboundLoginLoginPluginRequest, l.pluginRequest)
	s.Handle(mcdata.ClientboundLoginDisconnect, l.loginDisconnect)
	s.Handle(mcdata.ClientboundLoginSuccess, l.loginSuccess)

	// What login, configuration and play share, handled once each.
	s.Handle(mcdata.ClientboundLoginCookieRequest, l.cookie(mcdata.ServerboundLoginCookieResponse))
	s.Handle(mcdata.ClientboundConfigCookieRequest, l.cookie(mcdata.ServerboundConfigCookieResponse))
	s.Handle(mcdata.ClientboundPlayCookieRequest, l.cookie(mcdata.ServerboundPlayCookieResponse))
	s.Handle(mcdata.ClientboundConfigKeepAlive, l.keepAlive(mcdata.ServerboundConfigKeepAlive))
	s.Handle(mcdata.ClientboundPlayKeepAlive, l.keepAlive(mcdata.ServerboundPlayKeepAlive))
	s.Handle(mcdata.ClientboundConfigPing, l.ping(mcdata.ServerboundConfigPong))
	s.Handle(mcdata.ClientboundPlayPing, l.ping(mcdata.ServerboundPlayPong))
	s.Handle(mcdata.ClientboundConfigAddResourcePack, l.resourcePack(mcdata.ServerboundConfigResourcePackReceive))
	s.Handle(mcdata.ClientboundPlayAddResourcePack, l.resourcePack(mcdata.ServerboundPlayResourcePackReceive))
	s.Handle(mcdata.ClientboundConfigTransfer, l.transfer)
	s.Handle(mcdata.ClientboundPlayTransfer, l.transfer)
	s.Handle(mcdata.ClientboundConfigDisconnect, l.disconnect)
	s.Handle(mcdata.ClientboundPlayKickDisconnect, l.disconnect)

	// Configuration and the switches between it and play.
	s.Handle(mcdata.ClientboundConfigSelectKnownPacks, l.knownPacks)
	s.Handle(mcdata.ClientboundConfigFinishConfiguration, l.finishConfiguration)
	s.Handle(mcdata.ClientboundPlayStartConfiguration, l.startConfiguration)

	// Dialogs (1.21.6+) and the code of conduct (1.21.9+), in the versions
	// that have them.
	if l.c.ShowDialog != nil {
		s.Handle(mcdata.ClientboundConfigShowDialog, l.showDialog(l.c.ShowConfigDialog, mcdata.ServerboundConfigCustomClickAction))
		s.Handle(mcdata.ClientboundPlayShowDialog, l.showDialog(l.c.ShowDialog, mcdata.ServerboundPlayCustomClickAction))
		s.Handle(mcdata.ClientboundConfigClearDialog, l.clearDialog)
		s.Handle(mcdata.ClientboundPlayClearDialog, l.clearDialog)
	}
	if l.c.CodeOfConduct != nil {
		s.Handle(mcdata.ClientboundConfigCodeOfConduct, l.codeOfConduct)
	}
	s.Handle(mcdata.ClientboundPlayLogin, l.playLogin)
	return l
}

// Login sends the handshake and the login start. Call it after every
// feature has attached and before the session starts.
func (l *Link) Login() error {
	err := l.s.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, func(w *wire.Writer) {
		l.c.WriteHandshake(w, codec.Handshake{Protocol: l.c.Protocol, Host: l.opts.Host, Port: uint16(l.opts.Port), Intent: codec.IntentLogin})
	}, mcdata.StateLogin)
	if err != nil {
		return err
	}
	return l.s.Send(mcdata.ServerboundLoginLoginStart, func(w *wire.Writer) {
		l.c.WriteLoginStart(w, codec.LoginStart{Name: l.s.Username(), UUID: l.s.UUID()})
	})
}

func (l *Link) compress(r *wire.Reader) error {
	if t := l.c.LoginCompress(r); r.Err() == nil {
		l.s.SetCompression(int(t))
	}
	return nil
}

func (l *Link) encryption(*wire.Reader) error {
	return core.Ended(core.EndReason{
		Reason:   "this server wants a Mojang login (online mode); blockmate joins worlds opened to LAN and servers in offline mode",
		NextStep: "open a single-player world to LAN and join that, or set online-mode=false on your own server",
		Final:    true,
	})
}

func (l *Link) pluginRequest(r *wire.Reader) error {
	req := l.c.LoginPluginRequest(r)
	if r.Err() != nil {
		return nil
	}
	// The bot understands no login plugin channel.
	return l.s.Send(mcdata.ServerboundLoginLoginPluginResponse, func(w *wire.Writer) {
		l.c.WriteLoginPluginResponse(w, codec.PluginResponse{MessageID: req.MessageID})
	})
}

func (l *Link) loginDisconnect(r *wire.Reader) error {
	reason := chat.Plain(l.c.LoginDisconnect(r))
	if r.Err() != nil {
		return nil
	}
	return kick("the server refused the bot", reason)
}

func (l *Link) loginSuccess(r *wire.Reader) error {
	s := l.c.LoginSuccess(r)
	if r.Err() != nil {
		return nil
	}
	if s.Name != "" {
		l.s.SetProfile(s.Name, s.UUID)
	}
	if err := l.s.SwitchAfter(mcdata.ServerboundLoginLoginAcknowledged, nil, mcdata.StateConfig); err != nil {
		return err
	}
	return l.s.Batch(
		core.Out{Packet: mcdata.ServerboundConfigSettings, Build: l.clientInformation},
		core.Out{Packet: mcdata.ServerboundConfigCustomPayload, Build: func(w *wire.Writer) {
			var brand wire.Writer
			brand.String(l.opts.Brand)
			l.c.WriteCustomPayload(w, "minecraft:brand", brand.Bytes())
		}},
	)
}

// clientInformation writes the bot's settings.
func (l *Link) clientInformation(w *wire.Writer) {
	l.c.WriteClientInformation(w, codec.ClientInformation{
		Locale: "en_us", ViewDistance: l.opts.ViewDistance, ChatColors: true, SkinParts: 0x7f, MainHand: 1,
		AllowServerListing: true, ParticleStatus: 2, // minimal: the bot draws none
	})
}

// playLogin sends the settings again once in play, as mineflayer does:
// flying-squid reads the view distance only from a play-state client
// information (its player object does not exist in configuration), and
// without one it never sends more than the first 6×6 chunks. The game's
// server takes the settings in either state.
func (l *Link) playLogin(*wire.Reader) error {
	return l.s.Send(mcdata.ServerboundPlaySettings, l.clientInformation)
}

// cookie answers a cookie request in any state: the bot keeps no cookies.
func (l *Link) cookie(response mcdata.Packet) core.Handler {
	return func(r *wire.Reader) error {
		key := l.c.CookieRequest(r)
		if r.Err() != nil {
			return nil
		}
		return l.s.Send(response, func(w *wire.Writer) { l.c.WriteCookieResponse(w, codec.CookieResponse{Key: key}) })
	}
}

// keepAlive echoes a keep-alive in configuration or play. The read
// deadline, renewed by every packet, is what notices a silent server.
func (l *Link) keepAlive(response mcdata.Packet) core.Handler {
	return func(r *wire.Reader) error {
		id := l.c.KeepAlive(r)
		if r.Err() != nil {
			return nil
		}
		return l.s.Send(response, func(w *wire.Writer) { l.c.WriteKeepAlive(w, id) })
	}
}

func (l *Link) ping(response mcdata.Packet) core.Handler {
	return func(r *wire.Reader) error {
		id := l.c.Ping(r)
		if r.Err() != nil {
			return nil
		}
		return l.s.Send(response, func(w *wire.Writer) { l.c.WritePong(w, id) })
	}
}

// resourcePack never lets a pack hang the bot: it answers accepted,
// downloaded and loaded at once, in one batch.
func (l *Link) resourcePack(response mcdata.Packet) core.Handler {
	return func(r *wire.Reader) error {
		pack := l.c.AddResourcePack(r)
		if r.Err() != nil {
			return nil
		}
		var out []core.Out
		for _, result := range []int32{codec.PackAccepted, codec.PackDownloaded, codec.PackLoaded} {
			out = append(out, core.Out{Packet: response, Build: func(w *wire.Writer) {
				l.c.WriteResourcePackResponse(w, codec.ResourcePackResponse{UUID: pack.UUID, Result: result})
			}})
		}
		return l.s.Batch(out...)
	}
}

func (l *Link) transfer(r *wire.Reader) error {
	t := l.c.Transfer(r)
	if r.Err() != nil {
		return nil
	}
	// The host is whatever the server's operator wrote.
	return core.Ended(core.EndReason{
		Reason:    fmt.Sprintf("the server sent the bot on to another server (%s:%d), which blockmate does not follow", untrusted.Line(t.Host), t.Port),
		NextStep:  "call mc_join with that server's port if it is a LAN world",
		Untrusted: true,
		Final:     true,
	})
}

func (l *Link) disconnect(r *wire.Reader) error {
	reason := chat.Plain(l.c.Disconnect(r))
	if r.Err() != nil {
		return nil
	}
	return kick("the server disconnected the bot", reason)
}

// knownPacks says the bot knows no data pack, so the server sends every
// registry entry in full.
func (l *Link) knownPacks(r *wire.Reader) error {
	_ = l.c.SelectKnownPacks(r)
	if r.Err() != nil {
		return nil
	}
	return l.s.Send(mcdata.ServerboundConfigSelectKnownPacks, func(w *wire.Writer) { l.c.WriteSelectKnownPacks(w, nil) })
}

func (l *Link) finishConfiguration(*wire.Reader) error {
	return l.s.SwitchAfter(mcdata.ServerboundConfigFinishConfiguration, nil, mcdata.StatePlay)
}

func (l *Link) startConfiguration(*wire.Reader) error {
	return l.s.SwitchAfter(mcdata.ServerboundPlayConfigurationAcknowledged, nil, mcdata.StateConfig)
}

// kick is the end of a session the server ended with reason: what says
// what happened, e.g. "the server disconnected the bot". The reason is text
// the server's operator wrote: it goes through the one sanitiser, and the
// end is marked Untrusted when it quotes any.
func kick(what, reason string) error {
	reason = untrusted.Text(reason)
	if strings.TrimSpace(reason) == "" {
		return core.Ended(core.EndReason{Reason: what + " without giving a reason", NextStep: nextStepForKick(""), Kicked: true})
	}
	return core.Ended(core.EndReason{Reason: what + ": " + reason, NextStep: nextStepForKick(reason), Kicked: true, Untrusted: true, Final: kickFinal.MatchString(reason)})
}

// nextStepForKick suggests what to do after a server's own message.
func nextStepForKick(reason string) string {
	switch {
	case kickVersion.MatchString(reason):
		return "the world runs another game version; check it with mc_ping_server"
	case kickAccess.MatchString(reason):
		return "ask the world's owner to let the bot in, then call mc_join again"
	case kickName.MatchString(reason):
		return "try mc_join with another username"
	}
	return "call mc_join again if the world is still open; tell the player what the server said"
}

var (
	kickVersion = regexp.MustCompile(`(?i)outdated|incompatible|version`)
	kickAccess  = regexp.MustCompile(`(?i)banned|whitelist|white-listed|not allowed`)
	kickName    = regexp.MustCompile(`(?i)name|already`)
	// kickFinal is a kick that joining again would only repeat, so the bot
	// does not reconnect after it: a ban or a whitelist, the same name
	// already playing (vanilla's multiplayer.disconnect.duplicate_login,
	// "You logged in from another location", and servers' "already
	// connected"), a version the server refuses, and an operator's /kick
	// (a person removed the bot on purpose).
	kickFinal = regexp.MustCompile(`(?i)banned|whitelist|white-listed|not allowed|already (connected|logged|online|playing)|another location|duplicate|outdated|incompatible|kicked by an operator`)
)
