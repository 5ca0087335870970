#!/usr/bin/env bash
# Makes the class-data-sharing archive (AppCDS) of a Linux application image where it runs, and points its launchers
# at it: lib/app/redrive.jsa, the classes a command loads, mapped in at start instead of read from the jar and verified.
#   installer/cds-archive.sh /opt/redrive                     (the .deb's postinst, after every install or upgrade)
#   installer/cds-archive.sh target/installer/linux/Redrive   (installer/linux/build.sh, for the image in place)
# A static archive, the JDK's classes with Redrive's: the image's runtime has no java command (jlink
# --strip-native-commands) to make the JDK's base archive that a dynamic one builds on, and no base archive of its own,
# so this also shares the JDK's classes, which the image's launchers did not. JDK 17 maps Redrive's classes from it only
# for the jar path it was made with: an image moved elsewhere starts as without them, silently, until this runs again
# there.
set -euo pipefail
image=$(cd "$1" && pwd)
app=$image/lib/app
archive=$app/redrive.jsa
use='java-options=-XX:SharedArchiveFile=$APPDIR/redrive.jsa'

# While the archive is made the launchers must not name it: the training run loads every class from the jar and the
# runtime, and the dump writes where this script says.
for cfg in "$app"/*.cfg; do
    grep -v -x -F -e "$use" "$cfg" > "$cfg.new" || true
    mv "$cfg.new" "$cfg"
done
rm -f "$archive"

# The training run lists the classes a command loads: dlq list against servers that are not there loads what a
# command loads before it connects (picocli, the configuration, the JDBC driver, the pool) and exits 4 at once. The
# dump then maps them into the archive. Picocli's own classes are Java 5 class files, which CDS cannot hold; they are
# still read from the jar.
classes=$(mktemp)
trap 'rm -f "$classes"' EXIT
JAVA_TOOL_OPTIONS="-XX:DumpLoadedClassList=$classes" "$image/bin/redrive-cli" \
    dlq list --pg-url jdbc:postgresql://127.0.0.1:1/none --redis-uri redis://127.0.0.1:1 >/dev/null 2>&1 || true
JAVA_TOOL_OPTIONS="-Xshare:dump -XX:SharedClassListFile=$classes -XX:SharedArchiveFile=$archive -Xlog:cds=off" \
    "$image/bin/redrive-cli" >/dev/null 2>&1 || true
if [[ ! -s "$archive" ]]; then
    echo "no CDS archive made at $archive: the launchers start without one" >&2
    exit 1
fi
chmod 644 "$archive"
for cfg in "$app"/*.cfg; do
    awk -v use="$use" '{ print } /^\[JavaOptions\]$/ { print use }' "$cfg" > "$cfg.new"
    mv "$cfg.new" "$cfg"
done
echo "CDS archive: $archive ($(du -h "$archive" | cut -f1)), used by $(ls "$app"/*.cfg | wc -l) launcher(s)"
