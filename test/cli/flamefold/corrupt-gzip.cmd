# A bit flipped inside the deflate data.
printf 'perf 1 1.0: 1 cycles:\n\tffff main (/bin/x)\n\n%.0s' $(seq 200) | gzip -c > ok.gz
python3 -c "import sys; b=bytearray(open('ok.gz','rb').read()); b[20]^=0xff; open('bad.gz','wb').write(b)"
$TOOL bad.gz
