import { defineRun } from "./declare";

/** 'Rechnungen schreiben' (Tasks; server half: invoices.run.server.ts, with the undo's state). */
export const invoicesCard = defineRun({
  type: "INVOICES",
  resumeIntent: "task:resume",
  id: "invoices",
  title: "Rechnungen schreiben",
  text: "Schreibt für alle offenen Posten, die per Rechnung abgerechnet werden und noch keine Rechnung haben, je Person eine Rechnung (oder ergänzt ihre noch nicht versandte). Rechnungsdatum ist heute, fällig in 30 Tagen; die Nummern folgen auf die „Letzte Rechnungs Nr“.",
  start: { dialog: "task-invoices", label: "Rechnungen schreiben …", busyLabel: "Rechnungen werden geschrieben …" },
  undo: { dialog: "task-undo", label: "Letzten Lauf rückgängig machen …" },
});
