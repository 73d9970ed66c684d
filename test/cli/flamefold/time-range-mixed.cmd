# Relative (+S) and absolute times cannot be mixed in one --time-range.
$TOOL --time-range '+1,2' /dev/null
