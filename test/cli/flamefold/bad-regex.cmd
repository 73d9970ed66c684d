$TOOL --include "a(" /dev/null
