# --format takes one of four names.
$TOOL --format=svg < /dev/null
