import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { parseId } from "~/lib/ids";
import { formatMoney } from "~/lib/format";
import { requireAccess } from "~/services/auth.server";
import { fromMollieValue, paymentLinkForFee, toMollieValue } from "~/services/payments.server";
import { getFee } from "~/models/fees.server";

/**
 * POST /api/public/mollie/createpaymentlink (spec 001 §7) with JSON {feeId, amount, description,
 * currency: "EUR"}: the fee's payment link, answered as {data: {description, ...}}. Despite the
 * "public" in the spec's path it changes money state (a link is stored on the fee), so it needs a
 * logged-in ADMIN or FINANCE session (the Kontenblatt's roles) and a request from Wuff's own pages:
 * a JSON body with the Origin (or Sec-Fetch-Site) of this site, which no other site can send.
 * The amount must be the fee's open amount (euros as a number, or "12.50"); the link is for that.
 */
const bodySchema = z.object({
  feeId: z.union([z.number(), z.string()]),
  amount: z.union([z.number(), z.string()]).optional(),
  description: z.string().max(255).optional(),
  currency: z.literal("EUR").optional(),
});

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

function isSameSite(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin) return origin === new URL(request.url).origin;
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}

/** Euros as the client sends them (12.5, "12.50", "12,50") in cents, or null. */
function centsOf(amount: number | string): number | null {
  if (typeof amount === "number")
    return Number.isFinite(amount) && Math.round(amount * 100) === Number((amount * 100).toFixed(6)) ? Math.round(amount * 100) : null;
  const normalized = amount.trim().replace(",", ".");
  return fromMollieValue(/^\d+$/.test(normalized) ? `${normalized}.00` : /^\d+\.\d$/.test(normalized) ? `${normalized}0` : normalized);
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  await requireAccess(args, "fees");
  if (request.method !== "POST") return json(405, { message: "Nur POST" });
  if (!isSameSite(request)) return json(403, { message: "Anfrage von einer fremden Seite abgelehnt." });
  if (!(request.headers.get("Content-Type") ?? "").includes("application/json"))
    return json(415, { message: "Bitte JSON senden (Content-Type: application/json)." });
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return json(400, { message: "Der Inhalt ist kein gültiges JSON." });
  }
  const parsed = bodySchema.safeParse(raw);
  const feeId = parsed.success ? parseId(parsed.data.feeId) : null;
  if (!parsed.success || !feeId) return json(400, { message: "Ungültige Angaben: feeId (Zahl) ist erforderlich, currency muss EUR sein." });
  const { db } = context;
  const env = context.cloudflare.env;
  if (parsed.data.amount !== undefined) {
    const cents = centsOf(parsed.data.amount);
    const fee = await getFee(db, feeId);
    if (fee && fee.openAmount > 0 && cents !== fee.openAmount) {
      return json(400, { message: `Der Betrag muss dem offenen Betrag des Postens entsprechen (${formatMoney(fee.openAmount)}).` });
    }
  }
  const outcome = await paymentLinkForFee({ db, env }, feeId, { description: parsed.data.description });
  switch (outcome.status) {
    case "missing":
      return json(404, { message: `Der offene Posten ${feeId} existiert nicht.` });
    case "refused":
      return json(409, { message: outcome.message });
    case "failed":
      return json(502, { message: outcome.message });
    case "ok": {
      const { link } = outcome;
      return json(link.created ? 201 : 200, {
        data: {
          feeId: link.feeId,
          id: link.id,
          description: link.description,
          amount: { currency: "EUR", value: toMollieValue(link.amount) },
          paymentLink: link.url,
          created: link.created,
        },
      });
    }
  }
}

export function loader() {
  return json(405, { message: "Nur POST" });
}
