# Binary garbage (fixed seed) is refused, not folded into nonsense.
python3 -c "import random,sys; random.seed(7); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(5000)))" > noise.bin
$TOOL noise.bin
