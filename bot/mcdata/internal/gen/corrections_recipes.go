package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// The dye recipes. The game dyes a wool block, carpet, bed or harness of
// any other colour in one craft (recipe "dye_blue_wool": blue_dye and any
// of fifteen wools), but minecraft-data writes each such recipe with the
// first alternative only, so blue wool is made from black wool and black
// wool from blue: a plan can never start. correctDyeRecipes adds the white
// alternative to each (white wool is what a player dyes, from string), so
// the colours are reached; the other alternatives stay out, as in
// minecraft-data.
const dyeRecipeCorrection = "the dye recipes (a dye and a wool, carpet, bed or harness of another colour) keep only minecraft-data's first alternative colour; the white one is added to each, the one a player dyes"

// correctDyeRecipes adds, for every shapeless recipe of a C_dye and an
// X_S making C_S (X and C colours, C not white), the recipe with white_S.
func (s *gameSource) correctDyeRecipes() error {
	name := make(map[int]string, len(s.items))
	id := make(map[string]int, len(s.items))
	for _, it := range s.items {
		name[it.ID] = it.Name
		id[it.Name] = it.ID
	}
	colour := func(n string) bool { _, ok := id[n+"_dye"]; return ok }
	added := 0
	for key, rs := range s.recipes {
		result, err := strconv.Atoi(key)
		if err != nil {
			return fmt.Errorf("recipes.json: result %q: %w", key, err)
		}
		out := name[result]
		var extra []mdRecipe
		for _, r := range rs {
			if len(r.Ingredients) != 2 {
				continue
			}
			a, b := name[r.Ingredients[0]], name[r.Ingredients[1]]
			if !strings.HasSuffix(a, "_dye") {
				a, b = b, a
			}
			c, ok := strings.CutSuffix(a, "_dye")
			if !ok || c == "white" || !strings.HasPrefix(out, c+"_") {
				continue
			}
			suffix := strings.TrimPrefix(out, c)
			x, ok := strings.CutSuffix(b, suffix)
			if !ok || !colour(x) || x == c {
				continue
			}
			white, ok := id["white"+suffix]
			if !ok {
				continue
			}
			fixed := r
			fixed.Ingredients = []int{id[a], white}
			extra = append(extra, fixed)
		}
		for _, e := range extra {
			dup := false
			for _, r := range rs {
				dup = dup || (len(r.Ingredients) == 2 && ((r.Ingredients[0] == e.Ingredients[0] && r.Ingredients[1] == e.Ingredients[1]) || (r.Ingredients[0] == e.Ingredients[1] && r.Ingredients[1] == e.Ingredients[0])))
			}
			if !dup {
				s.recipes[key] = append(s.recipes[key], e)
				added++
			}
		}
	}
	if added == 0 {
		return fmt.Errorf("no dye recipe to correct in %s: minecraft-data may list every colour now; drop correctDyeRecipes", s.release.version)
	}
	return nil
}
