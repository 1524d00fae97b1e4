import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { checkHealth } from "~/models/health.server";
import { requireAccess } from "~/services/auth.server";
import { createTestPaymentLink } from "~/services/payments.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

/**
 * POST /tasks/checks (ADMIN, the Tasks screen's card 'Prüfungen'): 'Server testen' runs the health
 * check of /api/public/test, 'Zahlungsanbieter testen' makes a test payment link at the configured
 * provider. Back to Tasks with the result as a toast (a plain form post: no JavaScript needed).
 */
const PARTS = { d1: "Datenbank", r2: "Speicher", queue: "Warteschlange" } as const;

export async function action(args: ActionFunctionArgs) {
  await requireAccess(args, "tasks");
  const { db, cloudflare } = args.context;
  const { env } = cloudflare;
  const intent = (await readForm(args.request)).get("intent");
  if (intent === "server") {
    const report = await checkHealth(db, env);
    const parts = (Object.keys(PARTS) as (keyof typeof PARTS)[]).map((key) => {
      const check = report.checks[key];
      return `${PARTS[key]}: ${check.ok ? "ok" : `gestört (${check.error})`}`;
    });
    return redirectWithToast(env, "/tasks", { type: report.healthy ? "success" : "error", message: `${report.message} ${parts.join(", ")}.` });
  }
  if (intent === "payment") {
    const result = await createTestPaymentLink(db, env);
    return redirectWithToast(env, "/tasks", { type: result.ok ? "success" : "error", message: result.message });
  }
  return new Response("Unbekannte Prüfung", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "tasks");
  return new Response("Nur POST", { status: 405, headers: { Allow: "POST" } });
}
