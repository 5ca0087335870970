#!/usr/bin/env bash
# Builds the worker's container image as a tar, without a Docker daemon or a registry:
#   installer/container/build.sh   -> target/container/redrive-worker.tar (docker load -i / podman load -i)
# The image holds a Java runtime made here with jlink (the modules the app image has), the shared libraries it links
# against, taken from this machine, and the application's classes and libraries in the layers Jib makes; it runs
# `redrive worker --tools /etc/redrive/tools.yaml` as user 10001, settings from REDRIVE_* variables.
set -euo pipefail
cd "$(dirname "$0")/../.."

rootfs=target/container/rootfs
java_home=$rootfs/opt/java/openjdk
rm -rf target/container
mkdir -p "$rootfs/tmp" "$rootfs/etc/redrive"

modules=$(sed -n 's/^--add-modules //p' installer/jpackage/app-image.args)
"${JLINK:-jlink}" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=2 \
    --output "$java_home"

# Every library the runtime's programs and libraries need, with the dynamic loader, at the paths they were found at.
find "$java_home" -type f \( -name '*.so' -o -path '*/bin/*' -o -name jspawnhelper \) -print0 \
    | xargs -0 ldd 2>/dev/null | awk '/^\t/ { if ($2 == "=>" && $3 ~ /^\//) print $3; else if ($1 ~ /^\//) print $1 }' \
    | sort -u | while read -r library; do
        case "$library" in "$(realpath "$rootfs")"/*) continue ;; esac
        mkdir -p "$rootfs$(dirname "$library")"
        cp -L "$library" "$rootfs$library"
    done
printf 'root:x:0:0:root:/root:/sbin/nologin\nredrive:x:10001:10001:Redrive worker:/tmp:/sbin/nologin\n' \
    > "$rootfs/etc/passwd"
printf 'root:x:0:\nredrive:x:10001:\n' > "$rootfs/etc/group"

mvn -B -q -DskipTests compile jib:buildTar
echo "image: target/container/redrive-worker.tar (redrive-worker:$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1))"
