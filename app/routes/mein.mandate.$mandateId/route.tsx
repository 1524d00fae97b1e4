/**
 * Mein Wuff: the PDF of one of the person's own SEPA mandates given online, as it was confirmed.
 * Anyone else's mandate, one without PDF or an id that is none answer 404, alike.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { mandateFileName } from "~/lib/mandate-document";
import { ownMandateDocument } from "~/models/portal-mandates.server";
import { requirePortalPerson } from "~/services/portal.server";

const NOT_FOUND = "Dieses Mandat gibt es nicht (oder noch nicht als PDF).";

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const mandateId = parseId(args.params.mandateId);
  const document = mandateId ? await ownMandateDocument(db, person.id, mandateId) : null;
  const object = document ? await cloudflare.env.PAPERS.get(document.key) : null;
  if (!document || !object) return downloadResponse({ status: "missing", message: NOT_FOUND });
  return downloadResponse({
    status: "found",
    body: object.body,
    size: object.size,
    fileName: mandateFileName(document.reference),
    contentType: "application/pdf",
    disposition: "attachment",
  });
}
