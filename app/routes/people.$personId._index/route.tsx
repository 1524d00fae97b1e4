import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { requireAccess } from "~/services/auth.server";
import { DEFAULT_TAB } from "../people/hooks";

/** A person without a tab opens the default tab. */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "people");
  const url = new URL(args.request.url);
  throw redirect(`/people/${args.params.personId}/${DEFAULT_TAB}${url.search}`);
}

export const action = loader;
