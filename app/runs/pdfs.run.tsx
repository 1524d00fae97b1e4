import { defineRun } from "./declare";

/** 'PDFs erzeugen' (Tasks; server half: pdfs.run.server.ts): the confirmation says how many. */
export const pdfsCard = defineRun({
  type: "PDFS",
  resumeIntent: "task:resume",
  id: "pdfs",
  title: "PDFs erzeugen",
  text: "Erzeugt für jede Rechnung, die noch kein PDF hat, das PDF aus der Vorlage „invoice“ und speichert es. Rechnungen mit PDF bleiben, wie sie sind; ein zweiter Lauf erzeugt nichts doppelt.",
  start: { dialog: "pdfRun-start", label: "PDFs erzeugen …", busyLabel: "PDFs werden erzeugt …" },
});
