# --time-range needs START,END: a time alone is a usage error naming it.
$TOOL --time-range 3450.5 /dev/null
