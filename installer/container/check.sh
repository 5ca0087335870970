#!/usr/bin/env bash
# Runs the image that build.sh made the way a container runtime would, without one: its layers unpacked into a
# root, /proc and /dev mounted, its entrypoint as its user in a chroot (needs root). With no arguments it prints the
# version; otherwise the arguments replace the image's (e.g. `worker --tools /etc/redrive/tools.yaml`, with REDRIVE_*
# settings in the environment).
#   installer/container/check.sh [ARGS...]
set -euo pipefail
image=$(realpath "$(dirname "$0")/../../target/container/redrive-worker.tar")
work=$(mktemp -d)
root=$work/root
cleanup() {
    umount "$root/proc" "$root/dev" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/image" "$root"
tar -xf "$image" -C "$work/image"
read -r config layers < <(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))[0]
print(m["Config"], " ".join(m["Layers"]))' "$work/image/manifest.json")
for layer in $layers; do
    tar --warning=no-unknown-keyword -xzf "$work/image/$layer" -C "$root"
done
# The config's user, then its environment (one line, words), then its entrypoint (one word per line).
{ read -r user; read -r -a environment; mapfile -t entrypoint; } < <(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["config"]
print(c["User"]); print(" ".join(c["Env"])); print("\n".join(c["Entrypoint"]))' "$work/image/$config")
mkdir -p "$root/proc" "$root/dev"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
(($#)) || set -- --version
env -i "${environment[@]}" $(env | grep '^REDRIVE_' || true) /usr/sbin/chroot --userspec="$user" "$root" "${entrypoint[@]}" "$@"
