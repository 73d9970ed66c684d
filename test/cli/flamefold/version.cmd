$TOOL --version
