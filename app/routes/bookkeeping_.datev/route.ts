/**
 * POST /bookkeeping/datev (ADMIN, FINANCE): the DATEV file of a period as a download, from the
 * form on Buchhaltung (a native form post, so it works without JavaScript). intent 'bookings': the
 * Buchungsstapel; 'debtors': the Debitoren of the people booked in the period. A refusal goes back
 * to Buchhaltung with its German message. Every file handed out is logged; the same records of the
 * same period give the same file (app/lib/datev-export.ts).
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { buildDatevExport, datevExportFileName, DATEV_PERIOD_ERRORS } from "~/lib/datev-export";
import { parseGermanDate } from "~/lib/format";
import { bookingsOfPeriod, bookkeepingSettings, debtorsOf, recordDatevExport } from "~/models/bookkeeping.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

/** Nothing to show here: the form is on Buchhaltung. */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "bookkeeping");
  return redirect("/bookkeeping");
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "bookkeeping");
  const form = await readForm(args.request);
  const db = args.context.db;
  const refuse = (message: string) => redirectWithToast(args.context.cloudflare.env, "/bookkeeping", { type: "error", message });
  const intent = form.get("intent");
  if (intent !== "bookings" && intent !== "debtors") return refuse("Unbekannte Aktion.");
  const from = parseGermanDate(String(form.get("from") ?? ""));
  const to = parseGermanDate(String(form.get("to") ?? ""));
  if (!from.success) return refuse(DATEV_PERIOD_ERRORS.from);
  if (!to.success) return refuse(DATEV_PERIOD_ERRORS.to);
  const kind = intent === "bookings" ? "BOOKINGS" : "DEBTORS";
  const settings = await bookkeepingSettings(db);
  const { bookings, personIds } = await bookingsOfPeriod(db, from.value, to.value);
  const debtors = kind === "DEBTORS" ? await debtorsOf(db, personIds, settings.accountLength) : [];
  const built = await buildDatevExport({ kind, from: from.value, to: to.value, settings, bookings, debtors }, (records) =>
    recordDatevExport(db, records, user),
  );
  if (built.status === "refused") return refuse(built.message);
  return new Response(built.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "text/csv; charset=windows-1252",
      "Content-Disposition": `attachment; filename="${datevExportFileName(kind, from.value, to.value)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
