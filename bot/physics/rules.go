package physics

// rules are the movement differences between the versions the bot joins,
// each read from the decompiled client of the versions named (the source
// table of notes/PROTOCOL-CHANGES.md: 1.21.1, 1.21.3, 1.21.4, 1.21.7,
// 1.21.11 and 26.1.2). Where no source exists for a version (1.21.5,
// 1.21.6, 1.21.9) the change is dated to the first version after the last
// source without it, and the doc comment says so.
type rules struct {
	// effectsAfterTravel: the effects of the blocks the player is in
	// (cobweb, berry bush, powder snow, bubble columns, honey) and of the
	// block it stands on (slime) apply after travel() — after friction and
	// gravity — along the path of the tick's movement
	// (LivingEntity.aiStep → applyEffectsFromBlocks), not inside move()
	// before friction (1.21.1's Entity.move → tryCheckInsideBlocks and
	// stepOn). 1.21.2.
	effectsAfterTravel bool
	// jumpKeepsFaster: a jump keeps a faster upward motion
	// (setDeltaMovement(x, max(jumpPower, y), z)) instead of setting it.
	// 1.21.2.
	jumpKeepsFaster bool
	// gravityAfterMove: travelInAir asks for the gravity after the move, so
	// slow falling's "only when falling" test sees the moved velocity
	// (getEffectiveGravity); 1.21.1 decides it before. 1.21.2.
	gravityAfterMove bool
	// sprint is which sprint rules apply: sprint1211 (1.21.1–1.21.3),
	// sprint1214 (1.21.4: crouching stops a sprint, and prevents one), and
	// sprint1215 (1.21.5 on: any forward input may start a sprint, backing
	// off resets the double tap; 1.21.7's LocalPlayer, 26.1.2 the same).
	sprint int
	// squareInput: the movement keys make a normalised vector scaled by
	// 0.98, the sneak speed and then stretched to the unit square
	// (LocalPlayer.modifyInput, KeyboardInput.tick), instead of ±1 per key
	// times the sneak speed, times 0.98 in aiStep. Absent in 1.21.4,
	// present in 1.21.7: dated 1.21.5.
	squareInput bool
	// horizontalDeadzone: a player's horizontal motion is zeroed when its
	// length² is below 9.0E-6 (LivingEntity.aiStep), not each axis below
	// 0.003. Absent in 1.21.4, present in 1.21.7: dated 1.21.5.
	horizontalDeadzone bool
	// fallDouble: fall distance is a double, it grows only out of water and
	// before the landing test (Entity.checkFallDamage), and sneaking's
	// ledge test insets the box by 1.0E-7 (Player.canFallAtLeast). Absent
	// in 1.21.4, present in 1.21.7: dated 1.21.5.
	fallDouble bool
	// doubleSin: Mth.sin and Mth.cos take a double and use the table
	// sin(i/10430.378350470453). Present in 1.21.11, absent in 1.21.7:
	// dated 1.21.9.
	doubleSin bool
	// fluidTracker: fluid contact is EntityFluidInteraction's (26.1): depth
	// measured from the box's bottom, in the fluid only when deeper than 0,
	// eyes inside the fluid column, currents ignored below a length² of
	// 1.0E-5.
	fluidTracker bool
}

const (
	sprint1211 = iota
	sprint1214
	sprint1215
)

func rulesFor(protocol int32) rules {
	r := rules{}
	if protocol >= 768 {
		r.effectsAfterTravel, r.jumpKeepsFaster, r.gravityAfterMove = true, true, true
	}
	switch {
	case protocol >= 770:
		r.sprint = sprint1215
	case protocol >= 769:
		r.sprint = sprint1214
	}
	if protocol >= 770 {
		r.squareInput, r.horizontalDeadzone, r.fallDouble = true, true, true
	}
	if protocol >= 773 {
		r.doubleSin = true
	}
	if protocol >= 775 {
		r.fluidTracker = true
	}
	return r
}
