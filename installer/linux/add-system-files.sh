#!/usr/bin/env bash
# Adds to the .deb that jpackage made what a command-line tool and a service need beyond the application image:
#   /usr/bin/redrive -> /opt/redrive/bin/redrive-cli   (the CLI on the PATH)
#   /lib/systemd/system/redrive-worker@.service        (a worker per /etc/redrive/NAME.env)
#   /usr/share/doc/redrive/worker.env.example          (the settings that file holds)
#   /opt/redrive/lib/cds-archive.sh                    (makes the launchers' class-data-sharing archive)
# and to its maintainer scripts: the system user `redrive` the workers run as, /etc/redrive, and the archive, made
# where the program is installed because JDK 17 uses it only for the jar path it was made with.
#   installer/linux/add-system-files.sh target/installer/linux/redrive_<version>_<arch>.deb   (rewrites it in place)
set -euo pipefail
deb=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dpkg-deb -R "$deb" "$work/root"
root=$work/root
mkdir -p "$root/usr/bin" "$root/lib/systemd/system" "$root/usr/share/doc/redrive"
ln -s /opt/redrive/bin/redrive-cli "$root/usr/bin/redrive"
install -m 644 "$here/redrive-worker@.service" "$root/lib/systemd/system/redrive-worker@.service"
install -m 644 "$here/worker.env.example" "$root/usr/share/doc/redrive/worker.env.example"
install -m 755 "$here/../cds-archive.sh" "$root/opt/redrive/lib/cds-archive.sh"

# A server without a desktop has no menu directory, and jpackage's xdg-desktop-menu calls would fail the install.
sed -i 's|^\(xdg-desktop-menu .*\)$|\1 \|\| echo "no desktop menu here: menu entry skipped"|' \
    "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
# jpackage's postinst ends with `exit 0`; what follows runs on every configure, so each step is idempotent.
sed -i '/^exit 0$/d' "$root/DEBIAN/postinst"
cat >> "$root/DEBIAN/postinst" <<'SCRIPT'
if [ "$1" = configure ]; then
    getent group redrive >/dev/null || groupadd --system redrive
    getent passwd redrive >/dev/null || useradd --system --gid redrive --home-dir /nonexistent \
        --no-create-home --shell /usr/sbin/nologin --comment "Redrive worker" redrive
    install -d -m 750 -o root -g redrive /etc/redrive
    # Start-up from a class-data-sharing archive; without one the launchers start as before, a little slower.
    /opt/redrive/lib/cds-archive.sh /opt/redrive || true
    if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
fi
exit 0
SCRIPT
sed -i '/^exit 0$/d' "$root/DEBIAN/prerm"
cat >> "$root/DEBIAN/prerm" <<'SCRIPT'
# Running workers finish their attempts in flight and stop before their program goes away.
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    systemctl stop 'redrive-worker@*.service' || true
fi
# The archive the postinst made is no file of the package: it goes with it.
if [ "$1" = remove ]; then
    rm -f /opt/redrive/lib/app/redrive.jsa
fi
exit 0
SCRIPT
sed -i 's/^Depends: \(.*\)$/Depends: \1, passwd/' "$root/DEBIAN/control"
dpkg-deb --root-owner-group -b "$root" "$deb" >/dev/null
echo "added to $deb: /usr/bin/redrive, redrive-worker@.service, worker.env.example, cds-archive.sh"
