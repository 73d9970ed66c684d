$TOOL --colours java arch
