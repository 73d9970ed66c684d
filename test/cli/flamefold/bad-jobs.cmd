$TOOL --jobs=-1 /dev/null
