import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readForm } from "~/services/request.server";
import { handleMollieWebhook } from "~/services/payments.server";

/**
 * POST /api/public/mollie/webhook (beyond the spec): Mollie reports a payment of a fee's payment
 * link (form-encoded `id=tr_...`). Public, as Mollie has no login: the signed fee reference in
 * the URL and the payment read back from Mollie are what count (app/services/payments.server.ts).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response("Nur POST", { status: 405 });
  const form = await readForm(request);
  const answer = await handleMollieWebhook({ db: context.db, env: context.cloudflare.env }, request, form);
  return new Response(answer.message, { status: answer.status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export function loader() {
  return new Response("Nur POST", { status: 405, headers: { Allow: "POST" } });
}
