/**
 * Widerrufe (issue 33 item 4): the withdrawals declared without signing in on the public page
 * 'Vertrag widerrufen' (§ 356a BGB), the oldest first. Each shows what was declared and when it
 * was received, and the online bookings with a right of withdrawal of the people with its address:
 * staff apply it to the booking it names (the booking ends, its open fee is cancelled through the
 * journal, timed by the declaration's receipt) or close it with a note (no such booking, settled
 * by mail). Plain forms: works without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageAlert } from "~/components/error-message";
import { SCREEN_TITLES } from "~/components/navigation";
import { ReviewScreen } from "~/components/review-screen";
import { formatDateTime } from "~/lib/format";
import { applyDeclaration, closeDeclaration, openDeclarations, type OpenDeclaration } from "~/models/withdrawal-declarations.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

const TITLE = SCREEN_TITLES.withdrawals;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "withdrawals");
  return { declarations: await openDeclarations(args.context.db) };
}

const positive = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const settleSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("apply"), id: positive, rowVersion: positive, membershipId: positive, membershipVersion: positive }),
  z.object({
    decision: z.literal("close"),
    id: positive,
    rowVersion: positive,
    note: z.string().trim().min(1, "Bitte kurz notieren, wie der Widerruf erledigt ist.").max(300, "Höchstens 300 Zeichen"),
  }),
]);

type ActionData = { error: string; id?: number };

const DECLARATION_GONE = "Diesen Widerruf gibt es nicht (mehr).";
const DECLARATION_CHANGED = "Dieser Widerruf oder die Buchung wurde inzwischen geändert. Bitte noch einmal prüfen.";

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "withdrawals");
  const form = await readForm(args.request);
  const parsed = settleSchema.safeParse(Object.fromEntries(form));
  const id = Number(form.get("id")) || undefined;
  if (!parsed.success) return data<ActionData>({ error: parsed.error.issues[0].message, id }, { status: 400 });
  const input = parsed.data;
  const outcome = input.decision === "apply" ? await applyDeclaration(args.context.db, input, user) : await closeDeclaration(args.context.db, input, user);
  if (outcome.status === "missing") return data<ActionData>({ error: DECLARATION_GONE, id }, { status: 404 });
  if (outcome.status === "changed") return data<ActionData>({ error: DECLARATION_CHANGED, id }, { status: 409 });
  if (outcome.status === "refused") return data<ActionData>({ error: outcome.message, id }, { status: 409 });
  const message =
    outcome.status === "cancelled"
      ? `Widerruf angewendet: Die Buchung „${outcome.courseName}“ mit ${outcome.dogName} ist beendet. ${outcome.feeText}`.trim()
      : "Widerruf als erledigt vermerkt.";
  return redirectWithToast(args.context.cloudflare.env, "/withdrawals", { type: "success", message });
}

export default function Withdrawals() {
  const { declarations } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <ReviewScreen
      id="withdrawals-title"
      title={TITLE}
      intro={
        <>
          Widerrufe, die ohne Anmeldung über „Vertrag widerrufen“ eingegangen sind. Der Eingang ist schon per E-Mail bestätigt; ordne jeden der Buchung zu, die
          er nennt (die Buchung endet und die offene Kursgebühr wird storniert), oder vermerke, wie er erledigt ist.
        </>
      }
    >
      <PageAlert message={actionData && !actionData.id ? actionData.error : null} />
      {declarations.length === 0 ? (
        <p className="text-slate-700">Keine Widerrufe zuzuordnen.</p>
      ) : (
        <ul className="space-y-3">
          {declarations.map((declaration) => (
            <DeclarationItem key={declaration.id} declaration={declaration} error={actionData?.id === declaration.id ? actionData.error : null} />
          ))}
        </ul>
      )}
    </ReviewScreen>
  );
}

function DeclarationItem({ declaration, error }: { declaration: OpenDeclaration; error: string | null }) {
  const label = `${declaration.name}, ${formatDateTime(declaration.receivedOn)}`;
  return (
    <li className="rounded border border-slate-200 bg-white p-4">
      <h2 className="font-semibold text-slate-900">
        {declaration.name} <span className="font-normal text-slate-600">({declaration.email})</span>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Eingegangen am {formatDateTime(declaration.receivedOn)} ·{" "}
        {declaration.confirmationSentOn ? `Bestätigung versendet am ${formatDateTime(declaration.confirmationSentOn)}` : "Bestätigung nicht versendet"}
      </p>
      <p className="mt-2 whitespace-pre-line rounded bg-slate-50 p-2 text-sm text-slate-800">„{declaration.contract}“</p>
      <PageAlert message={error} />
      <h3 className="mt-3 text-sm font-semibold text-slate-800">Online-Buchungen mit Widerrufsrecht unter dieser Adresse</h3>
      {declaration.candidates.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">Keine. Prüfe, ob die Person unter einer anderen Adresse gebucht hat.</p>
      ) : (
        <ul className="mt-1 space-y-2">
          {declaration.candidates.map((candidate) => (
            <li key={candidate.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                <Link to={`/people?selectedPersonId=${candidate.personId}`} className="text-wuff-700 underline">
                  {candidate.personName}
                </Link>
                : {candidate.courseName} mit {candidate.dogName} · online gebucht am {formatDateTime(candidate.contractOn)} · {candidate.status}
              </span>
              {candidate.withdrawable ? (
                <Form method="post">
                  <input type="hidden" name="id" value={declaration.id} />
                  <input type="hidden" name="rowVersion" value={declaration.rowVersion} />
                  <input type="hidden" name="membershipId" value={candidate.id} />
                  <input type="hidden" name="membershipVersion" value={candidate.rowVersion} />
                  <button
                    type="submit"
                    name="decision"
                    value="apply"
                    className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800"
                  >
                    Widerruf anwenden
                    <span className="sr-only">
                      {" "}
                      ({candidate.courseName} mit {candidate.dogName})
                    </span>
                  </button>
                </Form>
              ) : (
                <span className="text-slate-600">nicht widerrufbar (Frist beim Eingang abgelaufen oder Buchung beendet)</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
        <input type="hidden" name="id" value={declaration.id} />
        <input type="hidden" name="rowVersion" value={declaration.rowVersion} />
        <div className="min-w-64 grow">
          <label htmlFor={`note-${declaration.id}`} className="block text-xs text-slate-700">
            Vermerk (z. B. „per E-Mail geklärt“)
          </label>
          <input id={`note-${declaration.id}`} name="note" maxLength={300} className="w-full rounded border border-slate-300 px-2 py-1 text-sm" />
        </div>
        <button
          type="submit"
          name="decision"
          value="close"
          className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
        >
          Ohne Buchung erledigen<span className="sr-only"> ({label})</span>
        </button>
      </Form>
    </li>
  );
}
