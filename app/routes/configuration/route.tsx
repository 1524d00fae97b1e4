import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  AuditBlock,
  CheckboxField,
  DateField,
  FormErrors,
  LockedField,
  MoneyField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
} from "~/components/forms/fields";
import { useHydrated } from "~/components/use-hydrated";
import { auditText, formatDate, formatDateTimeWithSeconds, formatMoneyInput } from "~/lib/format";
import { getConfiguration, hasIssuedInvoices, isRefusedValue, saveConfiguration, type ConfigurationRecord } from "~/models/configuration.server";
import { requireAccess } from "~/services/auth.server";
import { saveClubLogo } from "~/models/club-look.server";
import { PageAlert } from "~/components/error-message";
import type { User } from "~/lib/access";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { getReminderLevels, reminderTemplateChoices, saveReminderLevels, type ReminderLevel } from "~/models/reminders.server";
import { baseRateSchema, configurationSchema, reminderLevelsSchema, type ConfigurationFormValues, type ReminderLevelsFormValues } from "./schema";
import { listBaseRates, saveBaseRate } from "~/models/default-interest.server";
import { formatRate } from "~/lib/default-interest";
import { SaveGateReason, useSaveGate } from "~/components/forms/save-gate";
import { CLUB_TAX_STATUS_LABELS, CLUB_TAX_STATUSES, TAX_CASE_OPTIONS } from "~/lib/tax";
import { EXEMPTION_NOTICE_KINDS, EXEMPTION_NOTICE_LABELS } from "~/lib/donations";

export const meta: MetaFunction = () => [{ title: "Einstellungen – Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "configuration");
  const [configuration, reminderLevels, templateChoices, counterLocked, baseRates] = await Promise.all([
    getConfiguration(args.context.db),
    getReminderLevels(args.context.db),
    reminderTemplateChoices(args.context.db),
    hasIssuedInvoices(args.context.db),
    listBaseRates(args.context.db),
  ]);
  return { configuration: configuration ?? null, reminderLevels, templateChoices, counterLocked, baseRates };
}

type ActionData = { result: SubmissionResult<string[]>; conflict?: string; current?: ConfigurationRecord };
type LevelsActionData = { levelsResult: SubmissionResult<string[]>; conflict?: string; currentLevels?: ReminderLevel[] };
type BaseRateActionData = { baseRateResult: SubmissionResult<string[]> };

const LEVELS_INTENT = "reminderLevels";
const LOGO_INTENT = "logo";
type LogoActionData = { logoError: string };

/** The club's logo for Mein Wuff: a new one, or 'Logo entfernen'. */
async function saveLogo(args: ActionFunctionArgs, form: FormData, user: User) {
  const file = form.get("logo");
  const remove = form.get("remove") === "1";
  const chosen = file instanceof File && file.size > 0 ? file : null;
  if (!remove && !chosen) return data<LogoActionData>({ logoError: "Bitte eine Bilddatei auswählen." }, { status: 400 });
  const outcome = await saveClubLogo(args.context.cloudflare.env.PAPERS, args.context.db, remove ? null : chosen, user);
  if (outcome.status === "refused") return data<LogoActionData>({ logoError: outcome.message }, { status: 400 });
  const message = outcome.status === "saved" ? "Das Logo wurde gespeichert." : "Das Logo wurde entfernt.";
  return redirectWithToast(args.context.cloudflare.env, "/configuration", { type: "success", message });
}
const BASE_RATE_INTENT = "baseRate";

/** Verzugszinsen: a half-year's base rate entered or corrected (reminders written keep theirs). */
async function saveRate(args: ActionFunctionArgs, form: FormData, user: { name: string }) {
  const submission = parseWithZod(form, { schema: baseRateSchema });
  if (submission.status !== "success") return data<BaseRateActionData>({ baseRateResult: submission.reply() }, { status: 400 });
  const { year, validFrom, rate } = submission.value;
  const outcome = await saveBaseRate(args.context.db, { validFrom: `${year}-${validFrom}`, rate }, user);
  const half = validFrom === "01-01" ? `1. Januar ${year}` : `1. Juli ${year}`;
  return redirectWithToast(args.context.cloudflare.env, "/configuration", {
    type: "success",
    message: `Basiszinssatz ab ${half} ${outcome === "created" ? "eingetragen" : "korrigiert"}: ${formatRate(rate)}`,
  });
}

/** Mahnwesen: the three reminder levels, saved together; templates must exist with their kind. */
async function saveLevels(args: ActionFunctionArgs, form: FormData, user: { name: string }) {
  const submission = parseWithZod(form, { schema: reminderLevelsSchema });
  if (submission.status !== "success") return data<LevelsActionData>({ levelsResult: submission.reply() }, { status: 400 });
  const choices = await reminderTemplateChoices(args.context.db);
  const fieldErrors: Record<string, string[]> = {};
  submission.value.levels.forEach((level, index) => {
    if (!choices.mail.includes(level.mailTemplate)) fieldErrors[`levels[${index}].mailTemplate`] = [`Die Mail-Vorlage „${level.mailTemplate}“ gibt es nicht`];
    if (!choices.letter.includes(level.letterTemplate))
      fieldErrors[`levels[${index}].letterTemplate`] = [`Die Brief-Vorlage „${level.letterTemplate}“ gibt es nicht (Vorlagen der Art Rechnung/Brief)`];
  });
  if (Object.keys(fieldErrors).length > 0) return data<LevelsActionData>({ levelsResult: submission.reply({ fieldErrors }) }, { status: 400 });
  const outcome = await saveReminderLevels(args.context.db, submission.value.levels, user);
  if (outcome.status === "conflict") {
    return data<LevelsActionData>(
      {
        levelsResult: submission.reply({ resetForm: true }),
        conflict: "Die Mahnstufen wurden inzwischen von jemand anderem geändert. Die aktuellen Werte werden angezeigt: Bitte prüfe sie und speichere erneut.",
        currentLevels: outcome.current,
      },
      { status: 409 },
    );
  }
  return redirectWithToast(args.context.cloudflare.env, "/configuration", { type: "success", message: "Mahnstufen wurden gespeichert" });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "configuration");
  const form = await readForm(args.request);
  if (form.get("intent") === LEVELS_INTENT) return saveLevels(args, form, user);
  if (form.get("intent") === BASE_RATE_INTENT) return saveRate(args, form, user);
  if (form.get("intent") === LOGO_INTENT) return saveLogo(args, form, user);
  const submission = parseWithZod(form, { schema: configurationSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const { rowVersion, ...input } = submission.value;
  try {
    const outcome = await saveConfiguration(args.context.db, input, rowVersion ?? null, user);
    if (outcome.status === "refused") {
      return data<ActionData>({ result: submission.reply({ formErrors: [outcome.message] }) }, { status: 400 });
    }
    if (outcome.status === "conflict") {
      const { current } = outcome;
      const when = current.lastModifiedOn ? ` am ${formatDateTimeWithSeconds(current.lastModifiedOn)}` : "";
      return data<ActionData>(
        {
          result: submission.reply({ resetForm: true }),
          conflict: `Die Einstellungen wurden inzwischen von ${current.lastModifiedBy ?? "jemand anderem"}${when} geändert. Die aktuellen Werte werden angezeigt: Bitte prüfe sie und speichere erneut.`,
          current,
        },
        { status: 409 },
      );
    }
    const message = outcome.status === "created" ? "Einstellungen wurden angelegt" : "Einstellungen wurden aktualisiert";
    return redirectWithToast(args.context.cloudflare.env, "/configuration", { type: "success", message });
  } catch (error) {
    // A value the database refuses (its check rules) is the user's to correct: 422 in German. Anything
    // else is ours: logged, and a German message without the database's English text.
    if (isRefusedValue(error)) {
      return data<ActionData>(
        { result: submission.reply({ formErrors: ["Ein Wert ist nicht zulässig: Die Einstellungen wurden nicht gespeichert. Bitte die Eingaben prüfen."] }) },
        { status: 422 },
      );
    }
    console.error("Einstellungen konnten nicht gespeichert werden", error);
    return data<ActionData>(
      { result: submission.reply({ formErrors: ["Die Einstellungen konnten nicht gespeichert werden (Fehler 120). Bitte später noch einmal versuchen."] }) },
      { status: 500 },
    );
  }
}

/** Form values as the inputs show them: money as 1.234,56. */
function defaults(config: ConfigurationRecord | null) {
  if (!config) return {};
  return {
    ...config,
    clubMembershipEnrollmentFee: formatMoneyInput(config.clubMembershipEnrollmentFee),
    clubMembershipPriceFull: formatMoneyInput(config.clubMembershipPriceFull),
    clubMembershipPriceReduced1: formatMoneyInput(config.clubMembershipPriceReduced1),
    clubMembershipPriceReduced2: formatMoneyInput(config.clubMembershipPriceReduced2),
    returnCharge: formatMoneyInput(config.returnCharge),
    exemptionNoticeDate: formatDate(config.exemptionNoticeDate),
  };
}

/** Einstellungen: the club's settings (ADMIN only). */
const CONFIGURATION_LABELS = {
  hsvrmVereinName: "HSVRM Verein Name",
  hsvrmKG: "HSVRM KG",
  hsvrmVereinNr: "HSVRM Verein Nr",
  smtpTestAccount: "SMTP Test Account",
  clubMembershipEnrollmentFee: "Aufnahmegebühr",
  clubMembershipPriceFull: "Jahresbeitrag (Standard)",
  clubMembershipPriceReduced1: "Jahresbeitrag (Reduziert 1)",
  clubMembershipPriceReduced2: "Jahresbeitrag (Reduziert 2)",
  lastInvoiceNumber: "Letzte Rechnungs Nr",
  clubEmail: "E-Mail des Vereins",
  taxStatus: "Umsatzsteuer",
  taxNumber: "Steuernummer",
  vatId: "USt-IdNr.",
  taxExemptionNote: "Hinweis zur Umsatzsteuer",
  taxCaseAnnual: "Umsatzsteuer auf Jahresbeiträge",
  taxCaseEnrollment: "Umsatzsteuer auf Aufnahmegebühren",
  taxCaseCourse: "Umsatzsteuer auf Kursgebühren",
  taxCaseOther: "Umsatzsteuer auf sonstige Posten",
  iban: "IBAN",
  bic: "BIC",
  creditorId: "Gläubiger-ID",
  mandateText: "Text des SEPA-Lastschriftmandats",
  prenotificationDays: "Vorabankündigung (Tage vor dem Einzug)",
  returnCharge: "Rücklastschriftgebühr weiterberechnen",
  debitAutoSettle: "Lastschriften automatisch als bezahlt buchen",
  defaultInterest: "Verzugszinsen berechnen",
  waitlistOfferHours: "Angebot aus der Warteliste gilt (Stunden)",
  exemptionNoticeKind: "Bescheid des Finanzamts",
  exemptionTaxOffice: "Finanzamt",
  exemptionNoticeDate: "Datum des Bescheids",
  exemptionAssessmentPeriod: "Veranlagungszeitraum",
  exemptionPurposes: "Steuerbegünstigte Zwecke",
};

export default function ConfigurationScreen() {
  const { configuration: loaded, counterLocked } = useLoaderData<typeof loader>();
  const anyActionData = useActionData<ActionData | LevelsActionData | BaseRateActionData | LogoActionData>();
  const actionData = anyActionData && "result" in anyActionData ? anyActionData : undefined;
  const config = actionData?.current ?? loaded;
  const hydrated = useHydrated();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<ConfigurationFormValues>({
    id: `configuration-${config?.rowVersion ?? 0}`,
    lastResult: actionData?.result,
    defaultValue: defaults(config) as Record<string, unknown>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: configurationSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const gate = useSaveGate(configurationSchema, CONFIGURATION_LABELS);
  return (
    <section className="max-w-2xl">
      <h1 id="configuration-title" className="mb-4 text-2xl font-semibold text-wuff-800">
        Einstellungen
      </h1>
      <Form
        method="post"
        {...getFormProps(form)}
        aria-labelledby="configuration-title"
        ref={gate.form}
        onInput={gate.check}
        className="rounded border border-slate-200 bg-white p-5"
      >
        {config && <input type="hidden" name="rowVersion" value={config.rowVersion} />}
        <div className="grid grid-cols-2 gap-4">
          <TextField meta={fields.hsvrmVereinName} label="HSVRM Verein Name" className="col-span-2" />
          <NumberField meta={fields.hsvrmKG} label="HSVRM KG" />
          <NumberField meta={fields.hsvrmVereinNr} label="HSVRM Verein Nr" />
          <TextField meta={fields.smtpTestAccount} label="SMTP Test Account" type="email" className="col-span-2" />
          <MoneyField meta={fields.clubMembershipEnrollmentFee} label="Aufnahmegebühr" />
          <MoneyField meta={fields.clubMembershipPriceFull} label="Jahresbeitrag (Standard)" />
          <MoneyField meta={fields.clubMembershipPriceReduced1} label="Jahresbeitrag (Reduziert 1)" />
          <MoneyField meta={fields.clubMembershipPriceReduced2} label="Jahresbeitrag (Reduziert 2)" />
          {counterLocked && config ? (
            <div>
              <LockedField
                name="lastInvoiceNumber"
                label="Letzte Rechnungs Nr"
                id={config.lastInvoiceNumber}
                text={String(config.lastInvoiceNumber)}
                className=""
              />
              <p className="mt-1 text-xs text-slate-600">Wird beim Ausstellen lückenlos weitergezählt.</p>
            </div>
          ) : (
            <NumberField meta={fields.lastInvoiceNumber} label="Letzte Rechnungs Nr" />
          )}
          <CheckboxField meta={fields.mollieIntegration} label="Mollie Integration" className="self-end" />
        </div>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Verein auf Rechnungen</legend>
          <p className="mb-3 text-sm text-slate-600">
            Name, Anschrift, Steuernummer oder USt-IdNr. des Vereins und, wo keine Umsatzsteuer berechnet wird, der Grund dafür stehen auf jeder Rechnung (§ 14
            Abs. 4 UStG, für Kleinunternehmer § 34a UStDV).
          </p>
          <div className="grid grid-cols-2 gap-4">
            <TextField meta={fields.clubName} label="Vereinsname" className="col-span-2" />
            <TextField meta={fields.clubStreet} label="Straße und Hausnummer" className="col-span-2" />
            <TextField meta={fields.clubZip} label="PLZ" inputMode="numeric" />
            <TextField meta={fields.clubCity} label="Ort" />
            <TextField meta={fields.clubPhone} label="Telefon" type="tel" />
            <TextField meta={fields.clubEmail} label="E-Mail des Vereins" type="email" />
            <SelectField
              meta={fields.taxStatus}
              label="Umsatzsteuer"
              className="col-span-2"
              options={CLUB_TAX_STATUSES.map((status) => ({ value: status, label: CLUB_TAX_STATUS_LABELS[status] }))}
            />
            <TextField meta={fields.taxNumber} label="Steuernummer" />
            <TextField meta={fields.vatId} label="USt-IdNr." />
            <TextAreaField
              meta={fields.taxExemptionNote}
              label="Hinweis zur Umsatzsteuer auf Rechnungen (Kleinunternehmer: leer für den Standardtext zu § 19 UStG; steuerbefreit und steuerfreie Zeilen: der Grund der Befreiung)"
              className="col-span-2"
            />
          </div>
          <p className="mt-4 mb-3 text-sm text-slate-600">
            Bei Regelbesteuerung: wie eine neue Rechnungszeile versteuert wird, je Art des Postens (eine Kursart kann eine eigene Vorgabe haben; jede Zeile
            eines Entwurfs lässt sich ändern). Die Rechnung weist je Steuersatz Netto, Umsatzsteuer und Brutto aus.
          </p>
          <div className="grid grid-cols-2 gap-4">
            <SelectField meta={fields.taxCaseAnnual} label="Jahresbeiträge" options={TAX_CASE_OPTIONS} />
            <SelectField meta={fields.taxCaseEnrollment} label="Aufnahmegebühren" options={TAX_CASE_OPTIONS} />
            <SelectField meta={fields.taxCaseCourse} label="Kursgebühren" options={TAX_CASE_OPTIONS} />
            <SelectField meta={fields.taxCaseOther} label="Sonstige Posten und neue Zeilen" options={TAX_CASE_OPTIONS} />
          </div>
        </fieldset>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Steuerbegünstigung (Zuwendungsbestätigungen)</legend>
          <p className="mb-3 text-sm text-slate-600">
            Nur ein steuerbegünstigter Verein stellt Zuwendungsbestätigungen für Spenden aus. Art, Finanzamt und Datum des Bescheids, die Steuernummer und die
            Zwecke stehen auf jeder Bestätigung. Ein Freistellungsbescheid trägt Bestätigungen fünf Jahre, eine Feststellung nach § 60a AO drei Jahre (§ 63 Abs.
            5 AO). Ohne Bescheid bleibt das Feld leer: dann stellt Wuff keine Bestätigung aus.
          </p>
          <div className="grid grid-cols-2 gap-4">
            <SelectField
              meta={fields.exemptionNoticeKind}
              label="Bescheid des Finanzamts"
              className="col-span-2"
              placeholder="Kein Bescheid (keine Zuwendungsbestätigungen)"
              options={EXEMPTION_NOTICE_KINDS.map((kind) => ({ value: kind, label: EXEMPTION_NOTICE_LABELS[kind] }))}
            />
            <TextField meta={fields.exemptionTaxOffice} label="Finanzamt" />
            <DateField meta={fields.exemptionNoticeDate} label="Datum des Bescheids" />
            <TextField meta={fields.exemptionAssessmentPeriod} label="Veranlagungszeitraum (Freistellungsbescheid, z. B. 2024)" />
            <TextField
              meta={fields.exemptionPurposes}
              label="Steuerbegünstigte Zwecke: Förderung …"
              placeholder="des Sports (§ 52 Abs. 2 Satz 1 Nr. 21 AO)"
              className="col-span-2"
            />
          </div>
        </fieldset>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Bankverbindung und SEPA-Lastschrift</legend>
          <p className="mb-3 text-sm text-slate-600">
            Das Konto des Vereins steht in der Zahlungsaufforderung jeder Rechnung und im GiroCode (QR-Code zum Bezahlen mit der Banking-App) auf Rechnungen und
            in Zahlungsmails. Gläubiger-ID und Mandatstext braucht der Verein für SEPA-Lastschriften.
          </p>
          <div className="grid grid-cols-2 gap-4">
            <TextField meta={fields.bankAccountHolder} label="Kontoinhaber" className="col-span-2" />
            <TextField meta={fields.iban} label="IBAN" className="col-span-2" />
            <TextField meta={fields.bic} label="BIC (bei deutscher IBAN freiwillig)" />
            <TextField meta={fields.bankName} label="Bank" />
            <TextField meta={fields.creditorId} label="Gläubiger-ID" className="col-span-2" />
            <TextAreaField meta={fields.mandateText} label="Text des SEPA-Lastschriftmandats" className="col-span-2" />
            <NumberField meta={fields.prenotificationDays} label="Vorabankündigung (Tage vor dem Einzug)" />
            <p className="col-span-2 -mt-2 text-sm text-slate-600 sm:col-span-1 sm:mt-6">
              Jede Lastschrift wird der Person vorab mit Betrag und Tag angekündigt, nach dem SEPA-Regelwerk 14 Tage vorher. Eine kürzere Frist (mindestens 1
              Tag) nur, wenn sie mit den Zahlungspflichtigen vereinbart ist, z. B. im Mandat oder in der Beitragsordnung.
            </p>
            <MoneyField meta={fields.returnCharge} label="Rücklastschriftgebühr weiterberechnen" />
            <p className="col-span-2 -mt-2 text-sm text-slate-600 sm:col-span-1 sm:mt-6">
              Die Gebühr, die die Bank für eine Rücklastschrift berechnet, als offener Posten an die Person (0,00: trägt der Verein). Nur bei Rücklastschriften,
              die die Person zu vertreten hat (Deckung unzureichend, Konto erloschen oder gesperrt), und nur in Höhe der tatsächlichen Bankgebühr (§ 280 BGB;
              eine höhere Pauschale ist gegenüber Verbrauchern unwirksam, § 309 Nr. 5 BGB).
            </p>
            <CheckboxField meta={fields.debitAutoSettle} label="Lastschriften automatisch als bezahlt buchen" className="col-span-2" />
            <p className="col-span-2 -mt-2 text-sm text-slate-600">
              Eine eingereichte Lastschrift gilt als bezahlt, sobald der Kontoauszug ihre Gutschrift bucht. Angehakt gilt sie schon zwei Bankarbeitstage nach
              dem Einzugstag als bezahlt (nur für Läufe, die an die Bank übergeben sind); eine spätere Rücklastschrift macht das rückgängig.
            </p>
          </div>
        </fieldset>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Verzugszinsen</legend>
          <CheckboxField meta={fields.defaultInterest} label="Verzugszinsen berechnen" />
          <p className="mt-1 text-sm text-slate-600">
            Angehakt berechnet jede Mahnung nach der ersten Verzugszinsen auf den offenen Betrag (ohne Mahngebühren): ab dem Tag nach der Zahlungsfrist der
            ersten versandten Mahnung (dann ist die Person in Verzug, § 286 BGB), bis zum Tag der Mahnung, jeden Tag nur einmal. Zinssatz: 5 Prozentpunkte über
            dem Basiszinssatz, bei Unternehmern (Haken „Unternehmer“ bei der Person) 9 Prozentpunkte (§ 288 BGB). Die Zinsen stehen in der Mahnung und in ihrer
            Mahngebühr; eigene Vorlagen nennen sie mit {"{{interest}}"} (Mail) und {"{{#interests}}…{{/interests}}"} (Brief).
          </p>
        </fieldset>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Online-Buchung</legend>
          <NumberField meta={fields.waitlistOfferHours} label="Angebot aus der Warteliste gilt (Stunden)" />
          <p className="mt-1 text-sm text-slate-600">
            Wird in einem vollen Kurs ein Platz frei, bietet Wuff ihn dem Ersten auf der Warteliste per Mail an. Nimmt er ihn in dieser Zeit nicht an, geht das
            Angebot an den Nächsten.
          </p>
        </fieldset>
        <FormErrors errors={form.errors} conflict={actionData?.conflict} id={form.errorId} />
        {config && <AuditBlock audit={auditText(config)} />}
        <SaveGateReason id="configuration-save-reason" reason={hydrated ? gate.reason : null} />
        <SubmitRow
          label="Speichern"
          disabled={(hydrated && gate.reason !== null) || busy}
          describedBy={hydrated && gate.reason ? "configuration-save-reason" : undefined}
        />
      </Form>
      <ReminderLevelsForm actionData={anyActionData && "levelsResult" in anyActionData ? anyActionData : undefined} />
      <BaseRatesForm actionData={anyActionData && "baseRateResult" in anyActionData ? anyActionData : undefined} />
      <LogoForm error={anyActionData && "logoError" in anyActionData ? anyActionData.logoError : null} hasLogo={Boolean(loaded?.clubLogoKey)} />
      <p className="mt-4 text-sm">
        Weitere Stammdaten:{" "}
        <Link to="/certificationMasters" className="text-wuff-700 underline">
          Erfolgsarten
        </Link>
      </p>
      <p className="mt-2 text-sm">
        10er-Karten und Abos für fortlaufende Gruppen:{" "}
        <Link to="/cardProducts" className="text-wuff-700 underline">
          Karten- und Abo-Produkte
        </Link>
      </p>
      <p className="mt-2 text-sm">
        Rechnungs- und Mail-Texte:{" "}
        <Link to="/templates" className="text-wuff-700 underline">
          Vorlagen
        </Link>
      </p>
      <p className="mt-2 text-sm">
        Einwilligungen, Datenschutzhinweise, Impressum und Satzung:{" "}
        <Link to="/legalTexts" className="text-wuff-700 underline">
          Texte für Mein Wuff
        </Link>
      </p>
      <p className="mt-2 text-sm">
        Termine im Handy-Kalender:{" "}
        <Link to="/calendarFeeds" className="text-wuff-700 underline">
          Kalender-Abos
        </Link>
      </p>
    </section>
  );
}

const levelDefaults = (levels: ReminderLevel[]) => ({
  levels: levels.map((level) => ({
    level: level.level,
    rowVersion: level.rowVersion,
    enabled: level.enabled ? "on" : undefined,
    days: level.days,
    fee: formatMoneyInput(level.fee),
    mailFee: formatMoneyInput(level.mailFee),
    paymentTermDays: level.paymentTermDays,
    mailTemplate: level.mailTemplate,
    letterTemplate: level.letterTemplate,
  })),
});

/** Mahnwesen: the three reminder levels (their own form: saving them leaves the club's data alone). */
function ReminderLevelsForm({ actionData }: { actionData?: LevelsActionData }) {
  const loaded = useLoaderData<typeof loader>();
  const levels = actionData?.currentLevels ?? loaded.reminderLevels;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<ReminderLevelsFormValues>({
    id: `reminder-levels-${levels.map((level) => level.rowVersion).join("-")}`,
    lastResult: actionData?.levelsResult,
    defaultValue: levelDefaults(levels) as Record<string, unknown>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reminderLevelsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const options = (names: string[]) => names.map((name) => ({ value: name, label: name }));
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="reminder-levels-title" className="mt-6 rounded border border-slate-200 bg-white p-5">
      <input type="hidden" name="intent" value={LEVELS_INTENT} />
      <h2 id="reminder-levels-title" className="text-base font-semibold text-wuff-800">
        Mahnwesen
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Eine Stufe wird fällig, so viele Tage nach dem Fälligkeitsdatum (1. Stufe) oder nach der neuen Zahlungsfrist der vorigen Mahnung. Fällt eine Frist auf
        ein Wochenende oder einen bundesweiten Feiertag, zählt der nächste Werktag (§ 193 BGB).
      </p>
      <p className="mb-3 text-sm text-slate-600">
        Mahngebühr: nur die tatsächlichen Kosten, also Porto und Material eines Briefs (etwa 1,50 €), per Mail nichts. Eine höhere Pauschale ist gegenüber
        Verbrauchern nicht durchsetzbar, wenn sie den zu erwartenden Schaden übersteigt (§ 309 Nr. 5 BGB); die Mahnung, die den Verzug erst auslöst, kostet
        nichts (§ 286 BGB), daher die Zahlungserinnerung mit 0,00 €.
      </p>
      {fields.levels.getFieldList().map((meta, index) => {
        const level = meta.getFieldset();
        const title = levels[index]?.title ?? `Stufe ${index + 1}`;
        return (
          <fieldset key={meta.key} className="mt-4 border-t border-slate-200 pt-3">
            <legend className="pr-2 text-sm font-semibold text-wuff-800">
              Stufe {index + 1}: {title}
            </legend>
            <input type="hidden" name={level.level.name} value={levels[index]?.level ?? index + 1} />
            <input type="hidden" name={level.rowVersion.name} value={levels[index]?.rowVersion ?? 1} />
            <div className="grid grid-cols-2 gap-4">
              <CheckboxField meta={level.enabled} label="Aktiv" className="col-span-2" />
              <NumberField meta={level.days} label="Tage bis zur Mahnung" />
              <MoneyField meta={level.fee} label="Mahngebühr per Brief" />
              <MoneyField meta={level.mailFee} label="Mahngebühr per Mail" />
              <NumberField meta={level.paymentTermDays} label="Neue Zahlungsfrist (Tage)" />
              <SelectField meta={level.mailTemplate} label="Mail-Vorlage" options={options(loaded.templateChoices.mail)} />
              <SelectField meta={level.letterTemplate} label="Brief-Vorlage (PDF)" options={options(loaded.templateChoices.letter)} className="col-span-2" />
            </div>
          </fieldset>
        );
      })}
      <FormErrors errors={[...(form.errors ?? []), ...(fields.levels.errors ?? [])]} conflict={actionData?.conflict} id={form.errorId} />
      <SubmitRow label="Mahnstufen übernehmen" disabled={busy} />
    </Form>
  );
}

/** Verzugszinsen: the base rates by half-year, and a form to enter the next one (or correct one). */
function BaseRatesForm({ actionData }: { actionData?: BaseRateActionData }) {
  const { baseRates } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "base-rate",
    lastResult: actionData?.baseRateResult,
    defaultValue: { validFrom: "01-01" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: baseRateSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="base-rates-title" className="mt-6 rounded border border-slate-200 bg-white p-5">
      <input type="hidden" name="intent" value={BASE_RATE_INTENT} />
      <h2 id="base-rates-title" className="text-base font-semibold text-wuff-800">
        Basiszinssatz
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Der Basiszinssatz (§ 247 BGB) gilt je Halbjahr ab 1. Januar oder 1. Juli; die Deutsche Bundesbank gibt ihn kurz vorher bekannt. Verzugszinsen brauchen
        den Satz jedes Halbjahrs, über das sie laufen: Fehlt einer, startet kein Mahnlauf mit Verzugszinsen. Eine Korrektur ändert geschriebene Mahnungen nicht.
      </p>
      <table className="mb-4 w-full max-w-sm text-sm">
        <caption className="sr-only">Eingetragene Basiszinssätze</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-600">
            <th scope="col" className="py-1 pr-2 font-normal">
              Gültig ab
            </th>
            <th scope="col" className="py-1 text-right font-normal">
              Basiszinssatz
            </th>
          </tr>
        </thead>
        <tbody>
          {baseRates.slice(0, 6).map((rate) => (
            <tr key={rate.validFrom} className="border-b border-slate-100">
              <td className="py-1 pr-2 tabular-nums">{formatDate(rate.validFrom)}</td>
              <td className="py-1 text-right tabular-nums">{formatRate(rate.rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <SelectField
          meta={fields.validFrom}
          label="Halbjahr"
          options={[
            { value: "01-01", label: "ab 1. Januar" },
            { value: "07-01", label: "ab 1. Juli" },
          ]}
        />
        <NumberField meta={fields.year} label="Jahr" />
        <TextField meta={fields.rate} label="Basiszinssatz in %" inputMode="decimal" className="col-span-2 sm:col-span-1" />
      </div>
      <FormErrors errors={form.errors} id={form.errorId} />
      <SubmitRow label="Basiszinssatz eintragen" disabled={busy} />
    </Form>
  );
}

/** The submit button of each of the page's forms, at their right edge. */
function SubmitRow({ label, disabled, describedBy }: { label: string; disabled: boolean; describedBy?: string }) {
  return (
    <div className="mt-5 flex justify-end">
      <button
        type="submit"
        disabled={disabled}
        aria-describedby={describedBy}
        className="rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {label}
      </button>
    </div>
  );
}

/** Mein Wuff's look: the club's logo (PNG or JPEG, at most 1 MB), shown beside the club's name. */
function LogoForm({ error, hasLogo }: { error: string | null; hasLogo: boolean }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" encType="multipart/form-data" aria-labelledby="logo-title" className="mt-6 rounded border border-slate-200 bg-white p-5">
      <input type="hidden" name="intent" value={LOGO_INTENT} />
      <h2 id="logo-title" className="text-base font-semibold text-wuff-800">
        Logo für Mein Wuff
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Mein Wuff zeigt das Logo neben dem Vereinsnamen (Vereinsname oben, sonst HSVRM Verein Name). PNG oder JPEG, höchstens 1 MB.
      </p>
      {hasLogo && <img src="/mein/logo" alt="Aktuelles Logo" className="mb-3 h-16 w-auto rounded border border-slate-200 object-contain p-1" />}
      <label htmlFor="club-logo" className="mb-1 block text-sm font-medium text-slate-700">
        Logo-Datei
      </label>
      <input id="club-logo" name="logo" type="file" accept="image/png,image/jpeg" className="block text-sm" />
      <PageAlert message={error} />
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" disabled={busy} className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800">
          Logo hochladen
        </button>
        {hasLogo && (
          <button
            type="submit"
            name="remove"
            value="1"
            disabled={busy}
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
          >
            Logo entfernen
          </button>
        )}
      </div>
    </Form>
  );
}
