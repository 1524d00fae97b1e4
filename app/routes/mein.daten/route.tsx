/**
 * Mein Wuff, Meine Daten (issue 32 item 2): name, address and phone kept current by the person,
 * saved with the change history as the staff's edits are (as the person, via Mein Wuff: the home
 * page lists them); a new e-mail address after it confirmed itself by link; the consents, each
 * given to the version of its text shown here and withdrawn as easily. Three kinds of form, each
 * complete without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PortalField, PortalNotice, PortalPage, PortalPart, PortalSelect, PortalSubmit } from "~/components/portal";
import { CONSENT_KINDS, CONSENT_LABELS, consentTextKind } from "~/lib/consents";
import { formatDate, formatDateTime } from "~/lib/format";
import { SALUTATIONS } from "~/lib/labels";
import { consentsOf, currentLegalTexts, setConsent } from "~/models/consents.server";
import { ownData, requestEmailChange, saveOwnData } from "~/models/portal-profile.server";
import { mailEmailChangeLink, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { CONSENT_RESULTS, DATA_CHANGED_MEANWHILE, DATA_SAVED, EMAIL_LIMITED, EMAIL_LINK_SENT, EMAIL_SAME } from "~/lib/portal";
import { consentSchema, newEmailSchema, ownDataSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Meine Daten – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const { db } = args.context;
  const [own, consents, texts] = await Promise.all([
    ownData(db, person.id),
    consentsOf(db, person.id),
    currentLegalTexts(db, CONSENT_KINDS.map(consentTextKind)),
  ]);
  if (!own) throw new Response("Nicht gefunden", { status: 404 });
  return {
    own,
    consents: consents.map((consent) => {
      const text = texts[consentTextKind(consent.kind)] ?? null;
      return {
        kind: consent.kind,
        label: CONSENT_LABELS[consent.kind],
        inForce: consent.given !== null && consent.given.withdrawnOn === null,
        state: consentStateText(consent.given),
        text: text ? { version: text.version, body: text.body, publishedOn: formatDate(text.publishedOn.slice(0, 10)) } : null,
      };
    }),
  };
}

/** 'Erteilt am 29.11.2026, 10:12 (Fassung 2)' / 'Widerrufen am …' / 'Nicht erteilt'. */
function consentStateText(given: { on: string; version: number; withdrawnOn: string | null } | null): string {
  if (!given) return "Nicht erteilt";
  if (given.withdrawnOn) return `Widerrufen am ${formatDateTime(given.withdrawnOn)} (erteilt am ${formatDateTime(given.on)}, Fassung ${given.version})`;
  return `Erteilt am ${formatDateTime(given.on)} (Fassung ${given.version})`;
}

type ActionData =
  | { form: "daten"; result: SubmissionResult<string[]>; conflict?: string }
  | { form: "email"; result: SubmissionResult<string[]>; sent?: string }
  | { form: "einwilligung"; kind?: string; error?: string };

export async function action(args: ActionFunctionArgs) {
  const { person, actor } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const form = await readForm(args.request);
  const intent = form.get("intent");

  if (intent === "email") {
    const submission = parseWithZod(form, { schema: newEmailSchema });
    if (submission.status !== "success") return data<ActionData>({ form: "email", result: submission.reply() }, { status: 400 });
    const own = await ownData(db, person.id);
    const asked = await requestEmailChange(db, { personId: person.id, currentEmail: own?.email ?? null, newEmail: submission.value.email });
    if (asked.status === "same")
      return data<ActionData>({ form: "email", result: submission.reply({ fieldErrors: { email: [EMAIL_SAME] } }) }, { status: 400 });
    if (asked.status === "limited") return data<ActionData>({ form: "email", result: submission.reply({ formErrors: [EMAIL_LIMITED] }) }, { status: 429 });
    if (asked.token) {
      const link = `${new URL(args.request.url).origin}/mein/email/${asked.token}`;
      sendAfterAnswer(args.context, mailEmailChangeLink(cloudflare.env, db, { email: asked.email, person, link }), "Bestätigungslink");
    }
    return data<ActionData>({ form: "email", result: submission.reply({ resetForm: true }), sent: EMAIL_LINK_SENT(asked.email) });
  }

  if (intent === "einwilligung") {
    const parsed = consentSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return data<ActionData>({ form: "einwilligung", error: parsed.error.issues[0].message }, { status: 400 });
    const { kind, give, version } = parsed.data;
    const outcome = await setConsent(db, { personId: person.id, kind, give: give === "ja", versionShown: version ?? null, source: "PORTAL" }, actor);
    if (outcome.status === "refused") return data<ActionData>({ form: "einwilligung", kind, error: outcome.message }, { status: 409 });
    return redirectWithToast(cloudflare.env, "/mein/daten", { type: "success", message: `${CONSENT_LABELS[kind]}: ${CONSENT_RESULTS[outcome.status]}` });
  }

  const submission = parseWithZod(form, { schema: ownDataSchema });
  if (submission.status !== "success") return data<ActionData>({ form: "daten", result: submission.reply() }, { status: 400 });
  const { rowVersion, ...values } = submission.value;
  const outcome = await saveOwnData(db, person.id, rowVersion, values, actor);
  if (outcome.status === "missing") throw new Response("Nicht gefunden", { status: 404 });
  if (outcome.status === "conflict") {
    return data<ActionData>({ form: "daten", result: submission.reply({ resetForm: true }), conflict: DATA_CHANGED_MEANWHILE }, { status: 409 });
  }
  return redirectWithToast(cloudflare.env, "/mein/daten", { type: "success", message: DATA_SAVED });
}

const SALUTATION_OPTIONS = [{ value: "", label: "keine Angabe" }, ...SALUTATIONS.map((value) => ({ value, label: value }))];

export default function MyData() {
  const { own, consents } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <PortalPage id="my-data-title" title="Meine Daten" intro="Was der Verein über dich gespeichert hat, und was du selbst aktuell hältst.">
      <OwnDataForm own={own} actionData={actionData?.form === "daten" ? actionData : undefined} />
      <EmailForm email={own.email} actionData={actionData?.form === "email" ? actionData : undefined} />
      <PortalPart id="consents-title" title="Einwilligungen">
        <p className="mt-1 text-sm text-slate-700">
          Du entscheidest selbst. Eine Einwilligung kannst du jederzeit hier widerrufen, so einfach, wie du sie gegeben hast.
        </p>
        {actionData?.form === "einwilligung" && actionData.error && <PortalNotice tone="error">{actionData.error}</PortalNotice>}
        <ul className="mt-3 space-y-4">
          {consents.map((consent) => (
            <li key={consent.kind} className="rounded border border-slate-200 p-3">
              <h3 className="font-medium text-slate-900">{consent.label}</h3>
              <p className="mt-1 text-sm text-slate-700">{consent.state}</p>
              {consent.text ? (
                <>
                  <details className="mt-2 text-sm" open={!consent.inForce}>
                    <summary className="cursor-pointer text-wuff-700 underline">
                      Text der Einwilligung (Fassung {consent.text.version} vom {consent.text.publishedOn})
                    </summary>
                    <p className="mt-2 whitespace-pre-line text-slate-800">{consent.text.body}</p>
                  </details>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="intent" value="einwilligung" />
                    <input type="hidden" name="kind" value={consent.kind} />
                    <input type="hidden" name="version" value={consent.text.version} />
                    {consent.inForce ? (
                      <button
                        type="submit"
                        name="give"
                        value="nein"
                        className="w-full rounded border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 sm:w-auto"
                      >
                        Einwilligung „{consent.label}“ widerrufen
                      </button>
                    ) : (
                      <PortalSubmit name="give" value="ja">
                        Einwilligen: {consent.label}
                      </PortalSubmit>
                    )}
                  </Form>
                </>
              ) : (
                <p className="mt-1 text-sm text-slate-600">Der Verein hat für diese Einwilligung noch keinen Text hinterlegt.</p>
              )}
            </li>
          ))}
        </ul>
      </PortalPart>
    </PortalPage>
  );
}

function OwnDataForm({ own, actionData }: { own: Awaited<ReturnType<typeof loader>>["own"]; actionData?: Extract<ActionData, { form: "daten" }> }) {
  const [form, fields] = useForm({
    id: `own-data-${own.rowVersion}`,
    lastResult: actionData?.result,
    defaultValue: { ...own, salutation: own.salutation ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ownDataSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <PortalPart id="own-data-title" title="Name, Anschrift, Telefon">
      {actionData?.conflict && <PortalNotice tone="error">{actionData.conflict}</PortalNotice>}
      <Form method="post" {...getFormProps(form)} aria-labelledby="own-data-title" className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="daten" />
        <input type="hidden" name="rowVersion" value={own.rowVersion} />
        <PortalSelect meta={fields.salutation} label="Anrede" options={SALUTATION_OPTIONS} />
        <PortalField meta={fields.title} label="Titel" autoComplete="honorific-prefix" />
        <PortalField meta={fields.firstName} label="Vorname" autoComplete="given-name" />
        <PortalField meta={fields.lastName} label="Nachname" autoComplete="family-name" />
        <PortalField meta={fields.streetNumber} label="Straße und Hausnummer" autoComplete="street-address" className="sm:col-span-2" />
        <PortalField meta={fields.zip} label="PLZ" autoComplete="postal-code" inputMode="numeric" />
        <PortalField meta={fields.city} label="Ort" autoComplete="address-level2" />
        <PortalField meta={fields.homePhone} label="Telefon" type="tel" autoComplete="tel" inputMode="tel" />
        <PortalField meta={fields.mobilePhone} label="Mobil" type="tel" autoComplete="tel" inputMode="tel" />
        {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
        <div className="sm:col-span-2">
          <PortalSubmit>Daten speichern</PortalSubmit>
        </div>
      </Form>
    </PortalPart>
  );
}

function EmailForm({ email, actionData }: { email: string | null; actionData?: Extract<ActionData, { form: "email" }> }) {
  const [form, fields] = useForm({
    id: "new-email",
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newEmailSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <PortalPart id="email-title" title="E-Mail-Adresse">
      <p className="mt-1 text-sm text-slate-700">
        {/* A long address breaks rather than pushing a phone's page sideways. */}
        Jetzt: <strong className="break-all">{email ?? "keine"}</strong>. Mit dieser Adresse meldest du dich bei Mein Wuff an. Eine neue Adresse gilt, sobald du
        den Link öffnest, den wir an sie schicken.
      </p>
      {actionData?.sent && <PortalNotice tone="success">{actionData.sent}</PortalNotice>}
      {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
      <Form method="post" {...getFormProps(form)} aria-labelledby="email-title" className="mt-2">
        <input type="hidden" name="intent" value="email" />
        <PortalField meta={fields.email} label="Neue E-Mail-Adresse" type="email" autoComplete="email" inputMode="email" />
        <PortalSubmit>Bestätigungslink schicken</PortalSubmit>
      </Form>
    </PortalPart>
  );
}
