#!/usr/bin/env bash
# Builds the Linux application image and .deb from the shaded jar.
#   installer/linux/build.sh            -> target/installer/linux/Redrive/ (app image) and target/installer/linux/redrive_<version>_<arch>.deb
#                                          (with /usr/bin/redrive and the redrive-worker@.service unit: add-system-files.sh)
#   SKIP_DEB=1 installer/linux/build.sh -> the app image only
# Both start from a class-data-sharing archive (installer/cds-archive.sh): the image's made here, after the .deb is
# built from the image without one, the installed one's by the .deb's postinst, where it runs.
# Needs JDK 17+ (jpackage), and for the .deb: fakeroot and binutils (apt-get install -y fakeroot binutils).
# Builds target/redrive.jar first when it is missing (mvn -B -DskipTests package). JPACKAGE=/path/to/jpackage picks
# another JDK's jpackage (17 ignores linux-shortcut=false, so its .deb also lists redrive-cli in the menu; 18+ does not).
set -euo pipefail
cd "$(dirname "$0")/../.."

version=${REDRIVE_VERSION:-$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)}
[[ -f target/redrive.jar ]] || mvn -B -q -DskipTests package

input=target/installer/input
dest=target/installer/linux
rm -rf "$input" "$dest"
mkdir -p "$input" "$dest"
cp target/redrive.jar "$input/"

"${JPACKAGE:-jpackage}" @installer/jpackage/app-image.args \
    --type app-image \
    --app-version "$version" \
    --input "$input" \
    --dest "$dest" \
    --icon installer/icons/redrive.png \
    --add-launcher redrive-cli=installer/jpackage/redrive-cli.properties
echo "app image: $dest/Redrive (bin/Redrive opens the console, bin/redrive-cli runs commands)"

if [[ "${SKIP_DEB:-0}" != "1" ]]; then
    "${JPACKAGE:-jpackage}" @installer/jpackage/package.args \
        --type deb \
        --app-version "$version" \
        --app-image "$dest/Redrive" \
        --dest "$dest" \
        --linux-package-name redrive \
        --linux-app-category devel \
        --linux-menu-group "Development" \
        --linux-shortcut \
        --linux-package-deps libgtk-3-0 \
        --linux-deb-maintainer redrive@example.org \
        --icon installer/icons/redrive.png
    installer/linux/add-system-files.sh "$dest"/*.deb
    echo "package: $(ls "$dest"/*.deb)"
fi
installer/cds-archive.sh "$dest/Redrive"
