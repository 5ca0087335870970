#!/usr/bin/env bash
# Regenerates screenshots/*.png: re-seeds the sandbox namespace (default redrive_demo, or the first argument), opens
# the console on it under a virtual X server with the demo tools and a worker running in-process, walks through the
# screens and writes one PNG per screen into screenshots/ (1600x1000) and screenshots/1280x800/.
#   installer/screenshots.sh [NAMESPACE]
# Needs PostgreSQL and Redis as configured by the REDRIVE_* variables, and Xvfb + GTK 3:
#   apt-get install -y xvfb libgtk-3-0
# The tool itself is dev.redrive.demo.screenshots.ConsoleScreenshots (test sources: it drives JavaFX, which only the
# console's own packages may do in production code).
set -euo pipefail
cd "$(dirname "$0")/.."

namespace=${1:-redrive_demo}
mvn -B -q -DskipTests package
# The window sizes the console is made for: 1600x1000 into screenshots/, the smallest, 1280x800, into
# screenshots/1280x800/. Each run seeds the sandbox afresh, so both show the same incident.
for size in 1600x1000 1280x800; do
    out=screenshots
    [ "$size" = 1600x1000 ] || out=screenshots/$size
    mkdir -p "$out"
    xvfb-run -a -s "-screen 0 1920x1200x24" \
        java -Dprism.order=sw -Dprism.lcdtext=false \
             -cp target/redrive.jar:target/test-classes \
             dev.redrive.demo.screenshots.ConsoleScreenshots "$out" "$namespace" --size "$size"
done
ls -1 screenshots/*.png screenshots/1280x800/*.png
