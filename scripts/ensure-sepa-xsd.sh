#!/usr/bin/env bash
# Makes sure the official ISO 20022 schema pain.008.001.08.xsd and an xmllint are there (the tests
# validate every direct-debit file Wuff writes against it). Both come from Debian's archive without
# root and without installing anything: `apt-get download` of libhbci4j-core-java (the XSD sits at
# the root of hbci4j-core.jar) and libxml2-utils (xmllint, uses the system's libxml2), unpacked into
# the git-ignored .cache/sepa-xsd/. A no-op when both are there. Prints nothing on success.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.cache/sepa-xsd
XSD="$DIR/pain.008.001.08.xsd"
XMLLINT="$DIR/xmllint"
[ -s "$XSD" ] && [ -x "$XMLLINT" ] && exit 0

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null && command -v unzip >/dev/null || {
  echo "SEPA-XSD fehlt und kann nicht geholt werden: apt-get, dpkg-deb und unzip werden gebraucht." >&2
  exit 1
}
mkdir -p "$DIR"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
download() { (cd "$WORK" && apt-get download libhbci4j-core-java libxml2-utils >/dev/null 2>&1); }
# A clean machine may have no package lists yet: as root they are fetched once, then tried again.
download || { [ "$(id -u)" = "0" ] && apt-get update -qq >/dev/null 2>&1 && download; } || {
  echo "SEPA-XSD: apt-get download libhbci4j-core-java libxml2-utils fehlgeschlagen (Netz? Paketlisten: sudo apt-get update)." >&2
  exit 1
}
dpkg-deb -x "$WORK"/libhbci4j-core-java_*.deb "$WORK/hbci"
dpkg-deb -x "$WORK"/libxml2-utils_*.deb "$WORK/xml"
unzip -p "$WORK/hbci/usr/share/java/hbci4j-core.jar" pain.008.001.08.xsd > "$XSD.tmp"
grep -q 'urn:iso:std:iso:20022:tech:xsd:pain.008.001.08' "$XSD.tmp" || { echo "SEPA-XSD: pain.008.001.08.xsd nicht im Paket gefunden." >&2; rm -f "$XSD.tmp"; exit 1; }
mv "$XSD.tmp" "$XSD"
cp "$WORK/xml/usr/bin/xmllint" "$XMLLINT"
chmod +x "$XMLLINT"
"$XMLLINT" --version >/dev/null 2>&1 || { echo "SEPA-XSD: xmllint läuft nicht (fehlt libxml2?)." >&2; rm -f "$XMLLINT"; exit 1; }
