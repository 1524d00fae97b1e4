#!/usr/bin/env bash
# `npm run test:repeat -- N`: runs the whole suite (`npm test`) N times on this checkout and prints,
# per run, its closing line and duration, then every test that failed at least once and how often.
# A test that fails in one run of many is a defect (issue 28): this is how it is found.
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "Aufruf: npm run test:repeat -- N (N ≥ 1 Läufe)" >&2
  exit 2
fi
REPEAT=tests/.repeat
rm -rf "$REPEAT" && mkdir -p "$REPEAT"
status=0
for run in $(seq 1 "$runs"); do
  started=$SECONDS
  failed=0
  bash scripts/test.sh >"$REPEAT/run-$run.log" 2>&1 || failed=1
  # The next run wipes tests/.artifacts: a failed run's traces and screenshots are kept here.
  if [ "$failed" = 1 ]; then
    status=1
    cp -r tests/.artifacts "$REPEAT/run-$run" 2>/dev/null || true
  fi
  cp tests/.artifacts/failed-tests.txt "$REPEAT/failed-$run.txt" 2>/dev/null || echo "(kein Bericht)" >"$REPEAT/failed-$run.txt"
  summary="$(grep -E '^Tests: ' "$REPEAT/run-$run.log" | tail -1)"
  times="$(grep -E '^Zeiten: ' "$REPEAT/run-$run.log" | tail -1)"
  echo "Lauf $run/$runs ($((SECONDS - started)) s): ${summary:-kein Ergebnis, siehe $REPEAT/run-$run.log}"
  [ -n "$times" ] && echo "  $times"
  [ "$failed" = 1 ] && echo "  Spuren und Bildschirmfotos: $REPEAT/run-$run/"
done
echo
# (A process substitution has no size for `-s`: read the reports' lines instead.)
if cat "$REPEAT"/failed-*.txt | grep -q .; then
  echo "Mindestens einmal fehlgeschlagen (Anzahl Läufe):"
  cat "$REPEAT"/failed-*.txt | sort | uniq -c | sort -rn
else
  echo "In keinem der $runs Läufe ist ein Test fehlgeschlagen."
fi
exit $status
