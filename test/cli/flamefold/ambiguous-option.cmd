$TOOL --a
