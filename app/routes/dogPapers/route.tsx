/**
 * Nachweise prüfen (issue 32 item 3): the papers members uploaded in Mein Wuff for their dogs,
 * the oldest first. Staff open the file (a download), compare it with what the member entered, and
 * confirm it (the dates reach the dog) or decline it with a reason the member reads in Mein Wuff.
 * Plain forms: works without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageAlert } from "~/components/error-message";
import { SCREEN_TITLES } from "~/components/navigation";
import { ReviewScreen } from "~/components/review-screen";
import { DOG_PAPER_LABELS } from "~/lib/dog-papers";
import { formatDate, formatDateTime } from "~/lib/format";
import { decidePaper, pendingPapers, type PendingPaper } from "~/models/dog-papers.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

const TITLE = SCREEN_TITLES.dogPapers;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "dogPapers");
  return { papers: await pendingPapers(args.context.db) };
}

const decisionSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("confirm"), paperId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
  z.object({
    decision: z.literal("decline"),
    paperId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    reason: z.string().trim().min(1, "Bitte einen Grund angeben: Das Mitglied liest ihn in Mein Wuff.").max(300, "Höchstens 300 Zeichen"),
  }),
]);

type ActionData = { error: string; paperId?: number };

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "dogPapers");
  const form = await readForm(args.request);
  const parsed = decisionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const paperId = Number(form.get("paperId")) || undefined;
    return data<ActionData>({ error: parsed.error.issues[0].message, paperId }, { status: 400 });
  }
  const input = parsed.data;
  const outcome = await decidePaper(
    args.context.db,
    { paperId: input.paperId, confirm: input.decision === "confirm", reason: input.decision === "decline" ? input.reason : null },
    user,
  );
  if (outcome.status === "missing") return data<ActionData>({ error: "Diesen Nachweis gibt es nicht." }, { status: 404 });
  if (outcome.status === "already") return data<ActionData>({ error: "Dieser Nachweis wurde inzwischen schon geprüft." }, { status: 409 });
  const message = input.decision === "confirm" ? "Nachweis bestätigt: Das Datum gilt jetzt für den Hund." : "Nachweis abgelehnt.";
  return redirectWithToast(args.context.cloudflare.env, "/dogPapers", { type: "success", message });
}

/** What the member says the paper proves. */
function claimText(paper: PendingPaper): string {
  if (paper.kind === "RABIES") return `Impfung gültig bis ${formatDate(paper.rabiesValidUntil!)}`;
  const policy = paper.insurancePolicyNr ? `, Nr. ${paper.insurancePolicyNr}` : "";
  return `${paper.insuranceCompany ?? ""}${policy}, gültig bis ${formatDate(paper.insuranceValidUntil!)}`;
}

export default function DogPapers() {
  const { papers } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <ReviewScreen
      id="dog-papers-title"
      title={TITLE}
      intro={
        <>
          Nachweise, die Mitglieder in Mein Wuff hochgeladen haben. Erst nach deiner Bestätigung gilt das Datum für den Hund (und für die Warnung auf der
          Startseite).
        </>
      }
    >
      <PageAlert message={actionData && !actionData.paperId ? actionData.error : null} />
      {papers.length === 0 ? (
        <p className="text-slate-700">Keine Nachweise zu prüfen.</p>
      ) : (
        <ul className="space-y-3">
          {papers.map((paper) => (
            <li key={paper.id} className="rounded border border-slate-200 bg-white p-4">
              <h2 className="font-semibold text-slate-900">
                {DOG_PAPER_LABELS[paper.kind]}: {paper.dogName}{" "}
                <span className="font-normal text-slate-600">
                  (
                  <Link to={`/people?selectedPersonId=${paper.ownerId}`} className="text-wuff-700 underline">
                    {paper.ownerName}
                  </Link>
                  )
                </span>
              </h2>
              <p className="mt-1 text-sm text-slate-700">
                {claimText(paper)} · hochgeladen am {formatDateTime(paper.uploadedOn)} ·{" "}
                <a href={`/dogPapers/${paper.id}`} className="text-wuff-700 underline">
                  Datei {paper.fileName} öffnen
                </a>
              </p>
              <PageAlert message={actionData?.paperId === paper.id ? actionData.error : null} />
              <div className="mt-3 flex flex-wrap items-end gap-3">
                <Form method="post">
                  <input type="hidden" name="paperId" value={paper.id} />
                  <button
                    type="submit"
                    name="decision"
                    value="confirm"
                    className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800"
                  >
                    Bestätigen
                    <span className="sr-only">
                      {" "}
                      ({DOG_PAPER_LABELS[paper.kind]} {paper.dogName})
                    </span>
                  </button>
                </Form>
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="paperId" value={paper.id} />
                  <div>
                    <label htmlFor={`reason-${paper.id}`} className="block text-xs text-slate-700">
                      Grund der Ablehnung
                    </label>
                    <input id={`reason-${paper.id}`} name="reason" maxLength={300} className="rounded border border-slate-300 px-2 py-1 text-sm" />
                  </div>
                  <button
                    type="submit"
                    name="decision"
                    value="decline"
                    className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
                  >
                    Ablehnen
                    <span className="sr-only">
                      {" "}
                      ({DOG_PAPER_LABELS[paper.kind]} {paper.dogName})
                    </span>
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </ReviewScreen>
  );
}
