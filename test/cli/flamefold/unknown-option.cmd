$TOOL --nope
