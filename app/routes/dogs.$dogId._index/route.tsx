import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { requireAccess } from "~/services/auth.server";
import { DEFAULT_DOG_TAB } from "../dogs/hooks";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "dogs");
  throw redirect(`/dogs/${args.params.dogId}/${DEFAULT_DOG_TAB}${new URL(args.request.url).search}`);
}

export const action = loader;
