/**
 * The confirmation of the run 'PDFs erzeugen' (Tasks, ADMIN): how many invoices have no PDF yet,
 * and whether the template 'invoice' is there. Confirmed, the declared run goes to the queue.
 */
import { pdfRunPreview, type PdfRunPreview } from "~/jobs/pdf-run.server";
import { startDeclaredRun } from "~/jobs/start.server";
import { pdfsRun } from "~/runs/pdfs.run.server";
import { defineDialog } from "../define.server";

export type { PdfRunPreview };

export const dialog = defineDialog({
  area: "tasks",
  views: { start: async ({ db }) => pdfRunPreview(db) },
  actions: { start: (context) => startDeclaredRun(pdfsRun, context) },
});
