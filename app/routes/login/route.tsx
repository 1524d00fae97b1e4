import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { beginLogin, getOptionalUser, safeReturnPath } from "~/services/auth.server";

/** GET /login?redirectTo=/people: off to the identity provider, back to redirectTo afterwards. */
export async function loader(args: LoaderFunctionArgs) {
  const returnTo = safeReturnPath(new URL(args.request.url).searchParams.get("redirectTo") ?? "/");
  if (await getOptionalUser(args)) return redirect(returnTo);
  return beginLogin(args.request, args.context.cloudflare.env, returnTo);
}
