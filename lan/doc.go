// Package lan finds Minecraft: Java Edition worlds on the local network: the
// game's own "Open to LAN" announcements (UDP multicast 224.0.2.60:4445),
// servers that advertise themselves over mDNS, and a status ping of each
// (bot/ping, the bot's own transport) for its version, players and MOTD.
package lan
