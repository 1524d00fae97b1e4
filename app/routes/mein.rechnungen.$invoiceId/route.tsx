/**
 * Mein Wuff: the PDF of one of the person's own issued invoices (Storno and Gutschrift included),
 * as stored when it was issued. Anyone else's invoice, a draft or an id that is none answer 404,
 * alike.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { isOwnIssuedInvoice } from "~/models/portal-money.server";
import { storedInvoicePdf } from "~/services/invoice-pdfs.server";
import { requirePortalPerson } from "~/services/portal.server";

const NOT_FOUND = "Diese Rechnung gibt es nicht.";

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const invoiceId = parseId(args.params.invoiceId);
  if (!invoiceId || !(await isOwnIssuedInvoice(db, person.id, invoiceId))) return downloadResponse({ status: "missing", message: NOT_FOUND });
  const pdf = await storedInvoicePdf(cloudflare.env, db, invoiceId);
  if (pdf.status !== "found") return downloadResponse({ status: "missing", message: "Für diese Rechnung liegt noch kein PDF vor. Bitte sprich uns an." });
  return downloadResponse({
    status: "found",
    body: pdf.body,
    size: pdf.size,
    fileName: pdf.fileName,
    contentType: "application/pdf",
    disposition: "attachment",
  });
}
