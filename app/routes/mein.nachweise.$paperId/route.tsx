/**
 * Mein Wuff: a paper of one of the person's own dogs, as a download. Anyone else's paper (or an id
 * that is none) answers 404, alike.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseId } from "~/lib/ids";
import { paperFile } from "~/models/dog-papers.server";
import { paperDownload } from "~/services/papers.server";
import { requirePortalPerson } from "~/services/portal.server";

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const paperId = parseId(args.params.paperId);
  const file = paperId ? await paperFile(args.context.db, paperId, person.id) : undefined;
  return paperDownload(args.context.cloudflare.env.PAPERS, file);
}
