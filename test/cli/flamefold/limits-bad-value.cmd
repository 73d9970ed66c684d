# Limit values out of range are usage errors (exit 2) in every tool.
$TOOL --max-stack-depth 0 /dev/null; echo "flamefold $?"
$TOOLS/flamesvg --max-frame-length 3 /dev/null; echo "flamesvg $?"
$TOOLS/flamediff --max-stack-depth=x a b; echo "flamediff $?"
$TOOLS/flamereport --max-frame-length -5 /dev/null; echo "flamereport $?"
