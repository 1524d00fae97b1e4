/**
 * Mitglied werden (issue 32 item 6): the public application for membership. The form sends
 * nothing to the club yet: a link goes to the address entered, and only its button does
 * (mitglied-werden_.bestaetigen.$token). A field people never see catches bots (answered alike,
 * stored nowhere); per address and network address only a few applications a day. The statutes
 * and the privacy notice are the versions in force, and the application keeps which ones were
 * accepted. Complete without JavaScript (adding a dog is a post that comes back with one more).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PortalCheckbox, PortalField, PortalMandateFields, PortalNotice, PortalPart, PortalSelect, PortalSubmit, PortalTextArea } from "~/components/portal";
import { formatMoney, todayInBerlin } from "~/lib/format";
import { DOG_GENDER_LABELS, SALUTATIONS } from "~/lib/labels";
import {
  APPLICATION_CONFIRMED,
  APPLICATION_SENT,
  APPLICATIONS_CLOSED,
  APPLICATIONS_LIMITED,
  isMinorOn,
  MAX_APPLICATION_DOGS,
  MINOR_NEEDS_GUARDIAN,
  TEXTS_CHANGED,
} from "~/lib/membership-applications";
import { annualFeePrices } from "~/models/annual-fees.server";
import { getConfiguration } from "~/models/configuration.server";
import { currentLegalTexts } from "~/models/consents.server";
import { applicableMemberTypes, submitApplication } from "~/models/membership-applications.server";
import { clientAddress, mailApplicationLink, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import type { z } from "zod";
import { applicationSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Mitglied werden – Mein Wuff" }];

const PAGE = "/mitglied-werden";

async function applicationOffer(db: Parameters<typeof applicableMemberTypes>[0]) {
  const [texts, types, prices, configuration] = await Promise.all([
    currentLegalTexts(db, ["STATUTES", "PRIVACY"]),
    applicableMemberTypes(db),
    annualFeePrices(db),
    getConfiguration(db),
  ]);
  return { texts, types, prices, configuration };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { texts, types, prices, configuration } = await applicationOffer(context.db);
  const { searchParams } = new URL(request.url);
  const priceOf = (tier: string) => (tier === "NONE" || !prices ? null : prices.prices[tier as keyof typeof prices.prices]);
  return {
    notice: searchParams.has("bestaetigt") ? APPLICATION_CONFIRMED : searchParams.has("gesendet") ? APPLICATION_SENT : null,
    club: configuration?.clubName ?? "dem Verein",
    versions: texts.STATUTES && texts.PRIVACY ? { statutes: texts.STATUTES.version, privacy: texts.PRIVACY.version } : null,
    types: types.map((type) => {
      const price = priceOf(type.annualFeeTier);
      return { value: String(type.id), label: price ? `${type.name} (Jahresbeitrag ${formatMoney(price)})` : type.name };
    }),
    enrollmentFee: prices && prices.enrollmentFee > 0 ? formatMoney(prices.enrollmentFee) : null,
    mandateOffer:
      configuration?.creditorId && configuration.mandateText
        ? { club: configuration.clubName ?? "", creditorId: configuration.creditorId, text: configuration.mandateText }
        : null,
  };
}

type ActionData = { result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const { db, cloudflare } = context;
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: applicationSchema });
  // Adding or removing a dog without JavaScript: the form comes back as it was, with the change.
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: submission.status === "error" ? 400 : 200 });
  const value = submission.value;
  // A bot filled the field people never see: it is answered as if it had worked, nothing is kept.
  if (value.website) return redirect(`${PAGE}?gesendet=1`);
  const refuse = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status = 400) =>
    data<ActionData>({ result: submission.reply(errors) }, { status });
  const { texts, types, configuration } = await applicationOffer(db);
  if (!texts.STATUTES || !texts.PRIVACY) return refuse({ formErrors: [APPLICATIONS_CLOSED] }, 409);
  if (texts.STATUTES.version !== value.statutesVersion || texts.PRIVACY.version !== value.privacyVersion) return refuse({ formErrors: [TEXTS_CHANGED] }, 409);
  if (!types.some((type) => type.id === value.memberTypeId)) return refuse({ fieldErrors: { memberTypeId: ["Diese Mitgliedsart gibt es nicht"] } });
  if (isMinorOn(value.dateOfBirth, todayInBerlin()) && !value.guardianName) return refuse({ fieldErrors: { guardianName: [MINOR_NEEDS_GUARDIAN] } });
  const mandateOffered = Boolean(configuration?.creditorId && configuration.mandateText);
  const outcome = await submitApplication(
    db,
    {
      salutation: value.salutation,
      firstName: value.firstName,
      lastName: value.lastName,
      streetNumber: value.streetNumber,
      zip: value.zip,
      city: value.city,
      email: value.email,
      phone: value.phone,
      dateOfBirth: value.dateOfBirth,
      guardianName: value.guardianName,
      memberTypeId: value.memberTypeId,
      dogs: value.dogs,
      mandate:
        mandateOffered && value.withMandate && value.accountHolder && value.iban
          ? { accountHolder: value.accountHolder, iban: value.iban, bic: value.bic }
          : null,
      message: value.message,
      statutesTextId: texts.STATUTES.id,
      privacyTextId: texts.PRIVACY.id,
    },
    { ip: clientAddress(request) },
  );
  if (outcome.status === "limited") return refuse({ formErrors: [APPLICATIONS_LIMITED] }, 429);
  const link = `${new URL(request.url).origin}${PAGE}/bestaetigen/${outcome.token}`;
  sendAfterAnswer(context, mailApplicationLink(cloudflare.env, db, value, link), "Bestätigungslink des Mitgliedsantrags");
  return redirect(`${PAGE}?gesendet=1`);
}

const SALUTATION_OPTIONS = [{ value: "", label: "keine Angabe" }, ...SALUTATIONS.map((value) => ({ value, label: value }))];
const GENDER_OPTIONS = [1, 2, 0].map((gender) => ({ value: String(gender), label: DOG_GENDER_LABELS[gender] }));
const newDog = { gender: "0" };

export default function BecomeAMember() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const [form, fields] = useForm<z.input<typeof applicationSchema>, z.output<typeof applicationSchema>>({
    id: "membership-application",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: applicationSchema }),
    defaultValue: {
      memberTypeId: loaded.types[0]?.value,
      dogs: [newDog],
      statutesVersion: String(loaded.versions?.statutes ?? ""),
      privacyVersion: String(loaded.versions?.privacy ?? ""),
    },
  });
  const dogs = fields.dogs.getFieldList();
  return (
    <section aria-labelledby="apply-title">
      <h1 id="apply-title" className="text-2xl font-semibold text-wuff-800">
        Mitglied werden
      </h1>
      {loaded.notice ? (
        <PortalNotice tone="success">{loaded.notice}</PortalNotice>
      ) : !loaded.versions ? (
        <p className="mt-4 text-slate-700">{APPLICATIONS_CLOSED}</p>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            Werde Mitglied bei {loaded.club}. Nach dem Absenden bestätigst du deine E-Mail-Adresse mit einem Link; dann entscheidet der Verein über deine
            Aufnahme und schreibt dir.
          </p>
          <Form method="post" {...getFormProps(form)} className="space-y-3" aria-labelledby="apply-title">
            {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
            <input type="hidden" name={fields.statutesVersion.name} value={loaded.versions.statutes} />
            <input type="hidden" name={fields.privacyVersion.name} value={loaded.versions.privacy} />
            {/* For bots only: people neither see nor reach it. */}
            <div className="hidden" aria-hidden="true">
              <label htmlFor="apply-website">Webseite</label>
              <input id="apply-website" name={fields.website.name} type="text" tabIndex={-1} autoComplete="off" />
            </div>
            <PortalPart id="apply-person-title" title="Über dich">
              <div className="mt-2 space-y-3">
                <PortalSelect meta={fields.salutation} label="Anrede" options={SALUTATION_OPTIONS} />
                <PortalField meta={fields.firstName} label="Vorname" autoComplete="given-name" />
                <PortalField meta={fields.lastName} label="Nachname" autoComplete="family-name" />
                <PortalField meta={fields.streetNumber} label="Straße und Hausnummer" autoComplete="street-address" />
                <PortalField meta={fields.zip} label="PLZ" autoComplete="postal-code" inputMode="numeric" />
                <PortalField meta={fields.city} label="Ort" autoComplete="address-level2" />
                <PortalField meta={fields.email} label="E-Mail-Adresse" type="email" autoComplete="email" inputMode="email" />
                <PortalField meta={fields.phone} label="Telefon (freiwillig)" type="tel" autoComplete="tel" inputMode="tel" />
                <PortalField meta={fields.dateOfBirth} label="Geburtsdatum (TT.MM.JJJJ)" autoComplete="bday" />
                <PortalField meta={fields.guardianName} label="Nur für Minderjährige: Name eines Erziehungsberechtigten, der zustimmt" autoComplete="off" />
              </div>
            </PortalPart>
            <PortalPart id="apply-membership-title" title="Mitgliedschaft">
              <div className="mt-2 space-y-3">
                <PortalSelect meta={fields.memberTypeId} label="Mitgliedsart" options={loaded.types} />
                {loaded.enrollmentFee && (
                  <p className="text-sm text-slate-700">Neue Mitglieder zahlen einmal eine Aufnahmegebühr von {loaded.enrollmentFee}.</p>
                )}
              </div>
            </PortalPart>
            <PortalPart id="apply-dogs-title" title="Deine Hunde">
              {dogs.length === 0 && <p className="mt-2 text-slate-700">Kein Hund angegeben.</p>}
              {dogs.map((dog, index) => {
                const dogFields = dog.getFieldset();
                return (
                  <fieldset key={dog.key} className="mt-3 space-y-3 border-t border-slate-200 pt-3">
                    <legend className="pr-2 font-medium text-slate-800">Hund {index + 1}</legend>
                    <PortalField meta={dogFields.commonName} label="Name" autoComplete="off" />
                    <PortalField meta={dogFields.breed} label="Rasse (freiwillig)" autoComplete="off" />
                    <PortalSelect meta={dogFields.gender} label="Geschlecht" options={GENDER_OPTIONS} />
                    <PortalField meta={dogFields.dateOfBirth} label="Geburtsdatum (TT.MM.JJJJ, freiwillig)" autoComplete="off" />
                    <PortalField meta={dogFields.chipNr} label="Chipnummer (freiwillig)" autoComplete="off" inputMode="numeric" />
                    <button
                      {...form.remove.getButtonProps({ name: fields.dogs.name, index })}
                      className="rounded border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-50"
                    >
                      Hund {index + 1} entfernen
                    </button>
                  </fieldset>
                );
              })}
              {dogs.length < MAX_APPLICATION_DOGS && (
                <button
                  {...form.insert.getButtonProps({ name: fields.dogs.name, defaultValue: newDog })}
                  className="mt-3 rounded border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-50"
                >
                  {dogs.length === 0 ? "Hund angeben" : "Weiteren Hund angeben"}
                </button>
              )}
            </PortalPart>
            {loaded.mandateOffer && (
              <PortalPart id="apply-mandate-title" title="Beiträge per Lastschrift (freiwillig)">
                <div className="mt-2 space-y-3">
                  <PortalMandateFields
                    offer={loaded.mandateOffer}
                    titleId="apply-mandate-form-title"
                    fields={{ accountHolder: fields.accountHolder, iban: fields.iban, bic: fields.bic, agree: fields.withMandate }}
                  />
                  <p className="text-sm text-slate-600">Ohne Mandat bekommst du für die Beiträge eine Rechnung.</p>
                </div>
              </PortalPart>
            )}
            <PortalPart id="apply-consent-title" title="Satzung und Datenschutz">
              <div className="mt-2 space-y-3">
                <PortalTextArea meta={fields.message} label="Nachricht an den Verein (freiwillig)" rows={3} />
                <p className="text-sm text-slate-700">
                  <a href="/mein/satzung" target="_blank" rel="noreferrer" className="text-wuff-700 underline">
                    Satzung (Fassung {loaded.versions.statutes}, öffnet in neuem Tab)
                  </a>
                  {" · "}
                  <a href="/mein/datenschutz" target="_blank" rel="noreferrer" className="text-wuff-700 underline">
                    Datenschutzhinweise (Fassung {loaded.versions.privacy}, öffnet in neuem Tab)
                  </a>
                </p>
                <PortalCheckbox meta={fields.statutes} label="Ich erkenne die Satzung des Vereins an." />
                <PortalCheckbox meta={fields.privacy} label="Ich habe die Datenschutzhinweise gelesen." />
              </div>
            </PortalPart>
            <PortalSubmit>Mitgliedsantrag senden</PortalSubmit>
          </Form>
        </>
      )}
    </section>
  );
}
