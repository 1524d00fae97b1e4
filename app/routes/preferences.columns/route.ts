import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { saveGridColumns } from "~/models/preferences.server";
import { requireUser, safeReturnPath } from "~/services/auth.server";
import { readForm } from "~/services/request.server";

const identifier = z.string().regex(/^[A-Za-z][A-Za-z0-9.]{0,60}$/);
const columnChoice = z.object({
  grid: identifier,
  visible: z.array(identifier).max(60),
  redirectTo: z.string().optional(),
});

/** POST from the column chooser: remembers the visible columns of a grid for this user. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireUser(args);
  const form = await readForm(args.request);
  const parsed = columnChoice.safeParse({
    grid: form.get("grid"),
    visible: form.getAll("visible"),
    redirectTo: form.get("redirectTo") ?? undefined,
  });
  if (!parsed.success) return Response.json({ message: "Ungültige Spaltenauswahl" }, { status: 400 });
  // Without JavaScript the form carries redirectTo and the browser goes back to the grid; with it
  // the chooser posts in the background (no redirectTo) and gets JSON. Checked first: a refused
  // return path (400) saves nothing.
  const back = parsed.data.redirectTo ? safeReturnPath(parsed.data.redirectTo) : null;
  await saveGridColumns(args.context.db, user.id, parsed.data.grid, parsed.data.visible);
  return back ? redirect(back) : Response.json({ ok: true });
}

export const loader = () => redirect("/");
