# --off-cpu counts time, --weight a field: not both (exit 2).
$TOOL --off-cpu --weight bytes_alloc < /dev/null
