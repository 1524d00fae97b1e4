/** Nachweise prüfen: a paper's file, as a download for staff (never shown inline). */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseId } from "~/lib/ids";
import { paperFile } from "~/models/dog-papers.server";
import { requireAccess } from "~/services/auth.server";
import { paperDownload } from "~/services/papers.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "dogPapers");
  const paperId = parseId(args.params.paperId);
  return paperDownload(args.context.cloudflare.env.PAPERS, paperId ? await paperFile(args.context.db, paperId) : undefined);
}
