import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { mailsGrid } from "~/grids/mails.grid";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";

const list = screenLoader(mailsGrid);

/**
 * Mail-Protokoll (ADMIN, FINANCE): every mail sent. The spec's `mailer?invoiceHeaderId=` (and
 * `?personId=`) lead to the tab 'Mails' of that invoice (or person), where the same grid lists
 * only its mails.
 */
export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const invoiceId = parseId(search.get("invoiceHeaderId"));
  const personId = parseId(search.get("personId"));
  if (invoiceId || personId) {
    await requireAccess(args, "mailer");
    throw redirect(invoiceId ? `/invoices/${invoiceId}/mails` : `/people/${personId}/mails`);
  }
  return list(args);
}
export const action = screenAction(mailsGrid);
export const meta = gridMeta;
export default GridScreen;
