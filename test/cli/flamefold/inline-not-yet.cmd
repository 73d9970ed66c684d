$TOOL --inline /dev/null
