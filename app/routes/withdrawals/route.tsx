/**
 * Widerrufe (issue 33 item 4): the withdrawals declared without signing in on the public page
 * 'Vertrag widerrufen' (§ 356a BGB), the oldest first. Each shows what was declared and when it
 * was received, and the online bookings with a right of withdrawal of the people with its address:
 * staff apply it to the booking it names (the booking ends, its open fee is cancelled through the
 * journal, timed by the declaration's receipt) or close it with a note (no such booking, settled
 * by mail). Below them the notices given with 'Verträge hier kündigen' (§ 312k BGB) that wait for
 * staff (signed out, or for cause): applied to an Abo of a person with its address (the Abo ends as
 * the notice sets; the end is confirmed by mail, § 312k Abs. 4) or closed with a note. Plain forms:
 * works without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageAlert } from "~/components/error-message";
import { SCREEN_TITLES } from "~/components/navigation";
import { ReviewScreen } from "~/components/review-screen";
import { NOTICE_KIND_LABELS } from "~/lib/cards";
import { formatDate, formatDateTime } from "~/lib/format";
import type { Actor } from "~/models/audit.server";
import { applyNotice, closeNotice, openNotices, type OpenNotice } from "~/models/notice-declarations.server";
import { mailNoticeReceipt, sendAfterAnswer } from "~/services/portal.server";
import { applyDeclaration, closeDeclaration, openDeclarations, type OpenDeclaration } from "~/models/withdrawal-declarations.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

const TITLE = SCREEN_TITLES.withdrawals;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "withdrawals");
  const [declarations, notices] = await Promise.all([openDeclarations(args.context.db), openNotices(args.context.db)]);
  return { declarations, notices };
}

const positive = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const settleSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("apply"), id: positive, rowVersion: positive, membershipId: positive, membershipVersion: positive }),
  z.object({ decision: z.literal("applyNotice"), id: positive, rowVersion: positive, cardId: positive }),
  z.object({
    decision: z.literal("closeNotice"),
    id: positive,
    rowVersion: positive,
    note: z.string().trim().min(1, "Bitte kurz notieren, wie die Kündigung erledigt ist.").max(300, "Höchstens 300 Zeichen"),
  }),
  z.object({
    decision: z.literal("close"),
    id: positive,
    rowVersion: positive,
    note: z.string().trim().min(1, "Bitte kurz notieren, wie der Widerruf erledigt ist.").max(300, "Höchstens 300 Zeichen"),
  }),
]);

type ActionData = { error: string; id?: number; notice?: boolean };

const DECLARATION_GONE = "Diesen Widerruf gibt es nicht (mehr).";
const DECLARATION_CHANGED = "Dieser Widerruf oder die Buchung wurde inzwischen geändert. Bitte noch einmal prüfen.";

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "withdrawals");
  const form = await readForm(args.request);
  const parsed = settleSchema.safeParse(Object.fromEntries(form));
  const id = Number(form.get("id")) || undefined;
  if (!parsed.success) return data<ActionData>({ error: parsed.error.issues[0].message, id }, { status: 400 });
  const input = parsed.data;
  if (input.decision === "applyNotice" || input.decision === "closeNotice") return settleNotice(args, input, user);
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

const NOTICE_GONE = "Diese Kündigung gibt es nicht (mehr).";
const NOTICE_CHANGED = "Diese Kündigung oder das Abo wurde inzwischen geändert. Bitte noch einmal prüfen.";

/** Applies a notice to an Abo (and confirms its end by mail) or closes it with a note. */
async function settleNotice(
  args: ActionFunctionArgs,
  input:
    { decision: "applyNotice"; id: number; rowVersion: number; cardId: number } | { decision: "closeNotice"; id: number; rowVersion: number; note: string },
  user: Actor,
) {
  const { db, cloudflare } = args.context;
  const outcome = input.decision === "applyNotice" ? await applyNotice(db, input, user) : await closeNotice(db, input, user);
  if (outcome.status === "missing") return data<ActionData>({ error: NOTICE_GONE, id: input.id, notice: true }, { status: 404 });
  if (outcome.status === "changed") return data<ActionData>({ error: NOTICE_CHANGED, id: input.id, notice: true }, { status: 409 });
  if (outcome.status === "refused") return data<ActionData>({ error: outcome.message, id: input.id, notice: true }, { status: 409 });
  if (outcome.status === "applied") {
    const { status: _status, ...notice } = outcome;
    sendAfterAnswer(args.context, mailNoticeReceipt(cloudflare.env, db, { ...notice, id: input.id }), "Bestätigung des Kündigungsendes");
  }
  const message =
    outcome.status === "applied"
      ? `Kündigung angewendet: Das Abo endet am ${formatDate(outcome.end)}. Die Bestätigung geht per E-Mail an ${outcome.email}.`
      : "Kündigung als erledigt vermerkt.";
  return redirectWithToast(cloudflare.env, "/withdrawals", { type: "success", message });
}

export default function Withdrawals() {
  const { declarations, notices } = useLoaderData<typeof loader>();
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
            <DeclarationItem
              key={declaration.id}
              declaration={declaration}
              error={actionData?.id === declaration.id && !actionData.notice ? actionData.error : null}
            />
          ))}
        </ul>
      )}
      <h2 id="notices" className="mt-8 text-lg font-semibold text-slate-900">
        Kündigungen
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Über „Verträge hier kündigen“ eingegangen, ohne Anmeldung oder aus wichtigem Grund. Der Eingang ist schon per E-Mail bestätigt; wende jede auf das Abo
        an, das sie nennt (das Ende geht per E-Mail an die Person), oder vermerke, wie sie erledigt ist.
      </p>
      {notices.length === 0 ? (
        <p className="mt-2 text-slate-700">Keine Kündigungen zuzuordnen.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {notices.map((notice) => (
            <NoticeItem key={notice.id} notice={notice} error={actionData?.id === notice.id && actionData.notice ? actionData.error : null} />
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
      <CloseWithNote
        item={declaration}
        decision="close"
        noteId={`note-${declaration.id}`}
        example="per E-Mail geklärt"
        button="Ohne Buchung erledigen"
        label={label}
      />
    </li>
  );
}

function NoticeItem({ notice, error }: { notice: OpenNotice; error: string | null }) {
  const label = `${notice.name}, ${formatDateTime(notice.receivedOn)}`;
  return (
    <li className="rounded border border-slate-200 bg-white p-4">
      <h3 className="font-semibold text-slate-900">
        {notice.name} <span className="font-normal text-slate-600">({notice.email})</span>
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Eingegangen am {formatDateTime(notice.receivedOn)} · {NOTICE_KIND_LABELS[notice.kind]} · gewünschtes Ende{" "}
        {notice.wantedEnd ? formatDate(notice.wantedEnd) : "nächstmöglich"} ·{" "}
        {notice.confirmationSentOn ? `Bestätigung versendet am ${formatDateTime(notice.confirmationSentOn)}` : "Bestätigung nicht versendet"}
      </p>
      <p className="mt-2 whitespace-pre-line rounded bg-slate-50 p-2 text-sm text-slate-800">
        „{notice.contract}“{notice.reason ? ` Grund: ${notice.reason}` : ""}
      </p>
      <PageAlert message={error} />
      <h4 className="mt-3 text-sm font-semibold text-slate-800">Laufende Abos unter dieser Adresse</h4>
      {notice.candidates.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">Keine. Prüfe, ob die Person unter einer anderen Adresse bei uns ist.</p>
      ) : (
        <ul className="mt-1 space-y-2">
          {notice.candidates.map((candidate) => (
            <li key={candidate.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                <Link to={`/people/${candidate.personId}/cards`} className="text-wuff-700 underline">
                  {candidate.personName}
                </Link>
                : {candidate.name} seit {formatDate(candidate.validFrom)} · endet damit am {formatDate(candidate.end)}
              </span>
              <Form method="post">
                <input type="hidden" name="id" value={notice.id} />
                <input type="hidden" name="rowVersion" value={notice.rowVersion} />
                <input type="hidden" name="cardId" value={candidate.id} />
                <button
                  type="submit"
                  name="decision"
                  value="applyNotice"
                  className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800"
                >
                  Kündigung anwenden
                  <span className="sr-only">
                    {" "}
                    ({candidate.name}, {candidate.personName})
                  </span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <CloseWithNote
        item={notice}
        decision="closeNotice"
        noteId={`notice-note-${notice.id}`}
        example="Grund nicht ausreichend, per E-Mail geklärt"
        button="Ohne Abo erledigen"
        label={label}
      />
    </li>
  );
}

/** Settles a declaration without applying it: the note says how it was settled. */
function CloseWithNote(props: {
  item: { id: number; rowVersion: number };
  decision: "close" | "closeNotice";
  noteId: string;
  example: string;
  button: string;
  label: string;
}) {
  return (
    <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
      <input type="hidden" name="id" value={props.item.id} />
      <input type="hidden" name="rowVersion" value={props.item.rowVersion} />
      <div className="min-w-64 grow">
        <label htmlFor={props.noteId} className="block text-xs text-slate-700">
          {`Vermerk (z. B. „${props.example}“)`}
        </label>
        <input id={props.noteId} name="note" maxLength={300} className="w-full rounded border border-slate-300 px-2 py-1 text-sm" />
      </div>
      <button
        type="submit"
        name="decision"
        value={props.decision}
        className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
      >
        {props.button}
        <span className="sr-only"> ({props.label})</span>
      </button>
    </Form>
  );
}
