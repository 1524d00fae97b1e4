/** The erasure dialog's texts that the form and the server both use. */
export const BIN_KEEPS_NOTHING =
  "Das Löschen ist endgültig: Der Papierkorb behält nichts davon, auch frühere Papierkorb-Einträge der Person werden gelöscht. Es gibt kein Rückgängig.";
