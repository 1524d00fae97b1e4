import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseId } from "~/lib/ids";
import { invoiceTemplateData, SAMPLE_INVOICE } from "~/lib/invoice-document";
import { contentDisposition } from "~/lib/file-names";
import { renderHtmlTemplate, templateProblem } from "~/lib/templates";
import { getTemplate } from "~/models/templates.server";
import { requireAccess } from "~/services/auth.server";
import { withPdfRenderer } from "~/services/pdf.server";

const text = (message: string, status: number) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /templates/preview/{id}: an invoice template (as stored) rendered with sample data, as HTML
 * or, with ?format=pdf, as the PDF Chromium makes of it (ADMIN). The app's CSP lets no script of a
 * template run here either.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "templates");
  const id = parseId(args.params.templateId);
  const template = id ? await getTemplate(args.context.db, id) : undefined;
  if (!template) return text("Diese Vorlage gibt es nicht (mehr).", 404);
  if (template.kind !== "INVOICE") return text("Eine Vorschau mit Beispieldaten gibt es nur für Rechnungsvorlagen.", 404);
  const problem = templateProblem(template.html);
  if (problem) return text(problem, 422);
  const html = renderHtmlTemplate(template.html, invoiceTemplateData(SAMPLE_INVOICE));
  if (new URL(args.request.url).searchParams.get("format") !== "pdf") {
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  try {
    const pdf = await withPdfRenderer(args.context.cloudflare.env, (renderer) => renderer.render(html));
    const name = `Vorschau_${template.name.replace(/[^A-Za-z0-9-]+/g, "-")}.pdf`;
    return new Response(pdf as Uint8Array<ArrayBuffer>, {
      headers: { "Content-Type": "application/pdf", "Content-Disposition": contentDisposition("inline", name), "Cache-Control": "no-store" },
    });
  } catch (error) {
    console.error("Vorschau-PDF fehlgeschlagen", error);
    return text("Das PDF konnte nicht erzeugt werden (Browser Rendering nicht erreichbar).", 503);
  }
}
