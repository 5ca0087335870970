#!/usr/bin/env bash
# Builds the macOS application bundle and .dmg from the shaded jar.
#   installer/macos/build.sh            -> target/installer/macos/Redrive.app and target/installer/macos/Redrive-<version>.dmg
#   SKIP_DMG=1 installer/macos/build.sh -> the .app only
# Needs JDK 17+ (jpackage) on macOS. Set MAC_SIGNING_KEY_USER_NAME to sign with a Developer ID certificate.
# The CLI is inside the bundle: Redrive.app/Contents/MacOS/redrive-cli.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=${REDRIVE_VERSION:-$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)}
[[ -f target/redrive.jar ]] || mvn -B -q -DskipTests package

input=target/installer/input
dest=target/installer/macos
rm -rf "$input" "$dest"
mkdir -p "$input" "$dest"
cp target/redrive.jar "$input/"

signing=()
if [[ -n "${MAC_SIGNING_KEY_USER_NAME:-}" ]]; then
    signing=(--mac-sign --mac-signing-key-user-name "$MAC_SIGNING_KEY_USER_NAME")
fi

"${JPACKAGE:-jpackage}" @installer/jpackage/app-image.args \
    --type app-image \
    --app-version "$version" \
    --input "$input" \
    --dest "$dest" \
    --icon installer/icons/redrive.icns \
    --mac-package-identifier dev.redrive.console \
    --mac-package-name Redrive \
    --add-launcher redrive-cli=installer/jpackage/redrive-cli.properties \
    ${signing[@]+"${signing[@]}"}
echo "app bundle: $dest/Redrive.app"

if [[ "${SKIP_DMG:-0}" != "1" ]]; then
    "${JPACKAGE:-jpackage}" @installer/jpackage/package.args \
        --type dmg \
        --app-version "$version" \
        --app-image "$dest/Redrive.app" \
        --dest "$dest" \
        --mac-package-identifier dev.redrive.console \
        ${signing[@]+"${signing[@]}"}
    echo "package: $(ls "$dest"/*.dmg)"
fi
