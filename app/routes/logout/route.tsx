import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { logout } from "~/services/auth.server";
import { readForm } from "~/services/request.server";

/** POST only: a link or an image on another site must not be able to log anyone out. */
export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request);
  return logout(args, form.get("reason") === "idle" ? "idle" : "user");
}

export const loader = () => redirect("/");
