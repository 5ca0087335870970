# Builds the Windows application image and .msi from the shaded jar.
#   powershell -ExecutionPolicy Bypass -File installer\windows\build.ps1          -> app image + .msi
#   powershell -ExecutionPolicy Bypass -File installer\windows\build.ps1 -SkipMsi -> the app image only
# Needs JDK 17+ (jpackage; $env:JPACKAGE picks another one) and, for the .msi, the WiX Toolset 3.x on PATH
# (candle.exe, light.exe; jpackage from JDK 24 on wants WiX 4+).
# Outputs: target\installer\windows\Redrive\ (Redrive.exe opens the console, redrive-cli.exe runs commands)
#          target\installer\windows\Redrive-<version>.msi
param([switch]$SkipMsi)
$ErrorActionPreference = 'Stop'
Set-Location (Join-Path $PSScriptRoot '..\..')

$version = $env:REDRIVE_VERSION
if (-not $version) {
    $version = ([xml](Get-Content pom.xml)).project.version
}
if (-not (Test-Path target\redrive.jar)) {
    mvn -B -q -DskipTests package
    if ($LASTEXITCODE -ne 0) { throw "mvn package failed" }
}

$jpackage = if ($env:JPACKAGE) { $env:JPACKAGE } else { 'jpackage' }
$inputDir = 'target\installer\input'
$dest = 'target\installer\windows'
Remove-Item -Recurse -Force $inputDir, $dest -ErrorAction SilentlyContinue
New-Item -ItemType Directory -Force $inputDir, $dest | Out-Null
Copy-Item target\redrive.jar $inputDir

& $jpackage '@installer/jpackage/app-image.args' `
    --type app-image `
    --app-version $version `
    --input $inputDir `
    --dest $dest `
    --icon installer\icons\redrive.ico `
    --add-launcher redrive-cli=installer\jpackage\redrive-cli.properties
if ($LASTEXITCODE -ne 0) { throw "jpackage app-image failed" }
Write-Host "app image: $dest\Redrive"

if (-not $SkipMsi) {
    # A fixed upgrade code lets a newer .msi replace an installed older one.
    & $jpackage '@installer/jpackage/package.args' `
        --type msi `
        --app-version $version `
        --app-image "$dest\Redrive" `
        --dest $dest `
        --win-upgrade-uuid 6f1d7c2e-3b8a-4e55-9a61-2d7f0c9e4b13 `
        --win-menu `
        --win-menu-group Redrive `
        --win-shortcut `
        --win-dir-chooser `
        --win-per-user-install
    if ($LASTEXITCODE -ne 0) { throw "jpackage msi failed" }
    Get-ChildItem "$dest\*.msi" | ForEach-Object { Write-Host "package: $($_.FullName)" }
}
