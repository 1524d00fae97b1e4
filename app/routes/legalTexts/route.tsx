/**
 * Texte für Mein Wuff (ADMIN, issue 32): the consent texts, the privacy notice (Art. 13 DSGVO), the
 * imprint (§ 5 DDG), the statutes, and for booking courses online the terms (AGB) and the withdrawal
 * notice (issue 33). Saving a changed text publishes it as a new version; earlier versions stay
 * unchanged, since consents name the version they were given to. Plain forms: works without
 * JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageAlert } from "~/components/error-message";
import { SCREEN_TITLES } from "~/components/navigation";
import { LEGAL_TEXT_KINDS, LEGAL_TEXT_LABELS, type LegalTextKind } from "~/lib/consents";
import { formatDateTime } from "~/lib/format";
import { currentLegalTexts, publishLegalText } from "~/models/consents.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

const TITLE = SCREEN_TITLES.legalTexts;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

/** What each text is for, as the screen explains it. */
const PURPOSES: Record<LegalTextKind, string> = {
  CONSENT_MAIL: "Einwilligung, Post (Rechnungen, Mitteilungen) per E-Mail statt auf Papier zu bekommen.",
  CONSENT_PHOTOS: "Einwilligung, Fotos und Videos zu veröffentlichen (Website, soziale Medien, Vereinszeitung).",
  CONSENT_DATA: "Einwilligung in die Nutzung der Daten über das für Mitgliedschaft und Kurse Nötige hinaus.",
  PRIVACY: "Datenschutzhinweise nach Art. 13 DSGVO: in Mein Wuff und im Mitgliedsantrag verlinkt.",
  IMPRINT: "Impressum nach § 5 DDG: in Mein Wuff verlinkt.",
  STATUTES: "Satzung des Vereins: im Mitgliedsantrag zu bestätigen.",
  TERMS: "Allgemeine Geschäftsbedingungen für die Online-Buchung von Kursen: in Mein Wuff verlinkt.",
  WITHDRAWAL: "Widerrufsbelehrung für die Online-Buchung von Kursen (Art. 246a § 1 Abs. 2 EGBGB): in Mein Wuff verlinkt.",
};

/** The texts that get a taller box: several paragraphs each. */
const LONG_TEXTS = new Set<LegalTextKind>(["PRIVACY", "STATUTES", "TERMS", "WITHDRAWAL"]);

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "legalTexts");
  const texts = await currentLegalTexts(args.context.db, LEGAL_TEXT_KINDS);
  return {
    texts: LEGAL_TEXT_KINDS.map((kind) => {
      const text = texts[kind];
      return {
        kind,
        label: LEGAL_TEXT_LABELS[kind],
        purpose: PURPOSES[kind],
        body: text?.body ?? "",
        state: text ? `Fassung ${text.version} vom ${formatDateTime(text.publishedOn)}` : "Noch kein Text",
      };
    }),
  };
}

const textSchema = z.object({
  kind: z.enum(LEGAL_TEXT_KINDS, { error: "Unbekannte Art von Text" }),
  body: z.string({ error: "Bitte einen Text eingeben" }).trim().min(1, "Bitte einen Text eingeben").max(50_000, "Höchstens 50.000 Zeichen"),
});

type ActionData = { kind?: string; error: string };

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "legalTexts");
  const form = await readForm(args.request);
  const parsed = textSchema.safeParse({ kind: form.get("kind") ?? undefined, body: form.get("body") ?? undefined });
  if (!parsed.success) return data<ActionData>({ kind: String(form.get("kind") ?? ""), error: parsed.error.issues[0].message }, { status: 400 });
  const { kind, body } = parsed.data;
  const outcome = await publishLegalText(args.context.db, kind, body, user);
  const message = outcome.changed
    ? `${LEGAL_TEXT_LABELS[kind]}: Fassung ${outcome.version} veröffentlicht.`
    : `${LEGAL_TEXT_LABELS[kind]}: unverändert (Fassung ${outcome.version}).`;
  return redirectWithToast(args.context.cloudflare.env, "/legalTexts", { type: "success", message });
}

export default function LegalTexts() {
  const { texts } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <section aria-labelledby="legal-texts-title" className="max-w-3xl">
      <h1 id="legal-texts-title" className="mb-2 text-2xl font-semibold text-wuff-800">
        {TITLE}
      </h1>
      <p className="mb-4 text-sm text-slate-600">
        Ein geänderter Text wird als neue Fassung veröffentlicht. Frühere Fassungen bleiben unverändert gespeichert: Jede Einwilligung nennt die Fassung, der
        zugestimmt wurde (Art. 7 Abs. 1 DSGVO). Wer einer früheren Fassung zugestimmt hat, bleibt eingewilligt.
      </p>
      <ul className="space-y-4">
        {texts.map((text) => (
          <li key={text.kind} className="rounded border border-slate-200 bg-white p-4">
            <Form method="post" aria-labelledby={`text-${text.kind}-title`}>
              <h2 id={`text-${text.kind}-title`} className="font-semibold text-slate-900">
                {text.label}
              </h2>
              <p className="text-sm text-slate-600">
                {text.purpose} {text.state}.
              </p>
              {actionData?.kind === text.kind && <PageAlert message={actionData.error} />}
              <input type="hidden" name="kind" value={text.kind} />
              <label htmlFor={`text-${text.kind}`} className="mt-2 block text-sm font-medium text-slate-700">
                Text
              </label>
              <textarea
                id={`text-${text.kind}`}
                name="body"
                rows={LONG_TEXTS.has(text.kind) ? 10 : 4}
                defaultValue={text.body}
                className="block w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
              />
              <button type="submit" className="mt-2 rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800">
                Als neue Fassung veröffentlichen<span className="sr-only"> ({text.label})</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
