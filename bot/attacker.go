package bot

import "github.com/blockmate/blockmate/bot/entity"

// attackerType names an entity for mc_hurt: "player" for another player,
// else its type ("zombie").
func attackerType(ents *entity.Entities) func(id int32) (string, bool) {
	return func(id int32) (string, bool) {
		e, ok := ents.Get(id)
		if !ok {
			return "", false
		}
		if e.Player {
			return "player", true
		}
		return e.Type, e.Type != ""
	}
}
