import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseId } from "~/lib/ids";
import { invoiceTemplateData, SAMPLE_INVOICE } from "~/lib/invoice-document";
import { downloadResponse } from "~/lib/download";
import { renderHtmlTemplate, templateProblem } from "~/lib/templates";
import { getTemplate } from "~/models/templates.server";
import { requireAccess } from "~/services/auth.server";
import { withPdfRenderer } from "~/services/pdf.server";

/**
 * GET /templates/preview/{id}: an invoice template (as stored) rendered with sample data, as HTML
 * or, with ?format=pdf, as the PDF Chromium makes of it (ADMIN). The app's CSP lets no script of a
 * template run here either.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "templates");
  const id = parseId(args.params.templateId);
  const template = id ? await getTemplate(args.context.db, id) : undefined;
  if (!template) return downloadResponse({ status: "missing", message: "Diese Vorlage gibt es nicht (mehr)." });
  if (template.kind !== "INVOICE")
    return downloadResponse({ status: "missing", message: "Eine Vorschau mit Beispieldaten gibt es nur für Rechnungsvorlagen." });
  const problem = templateProblem(template.html);
  if (problem) return downloadResponse({ status: "unusable", message: problem });
  const html = renderHtmlTemplate(template.html, invoiceTemplateData(SAMPLE_INVOICE));
  if (new URL(args.request.url).searchParams.get("format") !== "pdf") {
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  try {
    const pdf = await withPdfRenderer(args.context.cloudflare.env, (renderer) => renderer.render(html));
    const name = `Vorschau_${template.name.replace(/[^A-Za-z0-9-]+/g, "-")}.pdf`;
    return downloadResponse({ status: "found", body: pdf as Uint8Array<ArrayBuffer>, fileName: name, contentType: "application/pdf", disposition: "inline" });
  } catch (error) {
    console.error("Vorschau-PDF fehlgeschlagen", error);
    return downloadResponse({ status: "unavailable", message: "Das PDF konnte nicht erzeugt werden (Browser Rendering nicht erreichbar)." });
  }
}
