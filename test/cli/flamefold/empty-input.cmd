$TOOL < /dev/null
