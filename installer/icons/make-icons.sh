#!/usr/bin/env bash
# Draws the Redrive icon with DrawIcon.java (Java2D) and writes it in the three formats jpackage wants:
# redrive.png (Linux), redrive.ico (Windows, ImageMagick), redrive.icns (macOS, PNG entries written by python3).
# The outputs are committed; run this only to change the icon.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for size in 16 32 48 64 128 256 512; do
    java -Djava.awt.headless=true DrawIcon.java "$work/icon-$size.png" "$size"
done
cp "$work/icon-512.png" redrive.png
convert "$work"/icon-{256,128,64,48,32,16}.png redrive.ico

python3 - "$work" <<'PY'
import struct, sys
work = sys.argv[1]
entries = []
for kind, size in ((b'ic07', 128), (b'ic08', 256), (b'ic09', 512)):
    png = open(f'{work}/icon-{size}.png', 'rb').read()
    entries.append(kind + struct.pack('>I', len(png) + 8) + png)
body = b''.join(entries)
with open('redrive.icns', 'wb') as out:
    out.write(b'icns' + struct.pack('>I', len(body) + 8) + body)
PY
echo "wrote redrive.png, redrive.ico, redrive.icns"
