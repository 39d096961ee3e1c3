// Package bot is blockmate's headless Minecraft: Java Edition client.
//
// The client is built from small parts: bot/conn (transport), bot/codec
// (per-version wire layouts), bot/core (the session: read loop, router,
// the tick service), and feature packages that own their packets and
// state (bot/link, bot/registry, bot/self, bot/players, bot/talk,
// bot/inventory, bot/worldfeat, bot/entity, bot/move, bot/skill,
// bot/combat, bot/dig). This package wires the features onto each new
// session (session.go) and runs the join/leave life cycle (client.go). The
// mc_* tools that drive it are in bot/tools, which imports this package,
// never the reverse: Session is the narrow view of the attached features
// they get.
package bot
