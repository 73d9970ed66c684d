$TOOL --help
