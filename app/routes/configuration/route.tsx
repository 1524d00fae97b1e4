import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuditBlock, CheckboxField, FormErrors, MoneyField, NumberField, TextAreaField, TextField } from "~/components/forms/fields";
import { useHydrated } from "~/components/use-hydrated";
import { auditText, formatDateTimeWithSeconds, formatMoneyInput } from "~/lib/format";
import { getConfiguration, saveConfiguration, type ConfigurationRecord } from "~/models/configuration.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { configurationSchema, type ConfigurationFormValues } from "./schema";
import { SaveGateReason, useSaveGate } from "~/components/forms/save-gate";

export const meta: MetaFunction = () => [{ title: "Einstellungen – Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "configuration");
  return { configuration: (await getConfiguration(args.context.db)) ?? null };
}

type ActionData = { result: SubmissionResult<string[]>; conflict?: string; current?: ConfigurationRecord };

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "configuration");
  const submission = parseWithZod(await readForm(args.request), { schema: configurationSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const { rowVersion, ...input } = submission.value;
  try {
    const outcome = await saveConfiguration(args.context.db, input, rowVersion ?? null, user);
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
    console.error("Einstellungen konnten nicht gespeichert werden", error);
    const reason = error instanceof Error ? String((error as { cause?: unknown }).cause ?? error.message) : String(error);
    return data<ActionData>({ result: submission.reply({ formErrors: [`120 error updating configuration: ${reason}`] }) }, { status: 500 });
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
  iban: "IBAN",
  bic: "BIC",
  creditorId: "Gläubiger-ID",
  mandateText: "Text des SEPA-Lastschriftmandats",
};

export default function ConfigurationScreen() {
  const loaded = useLoaderData<typeof loader>().configuration;
  const actionData = useActionData<ActionData>();
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
      <h1 className="mb-4 text-2xl font-semibold text-wuff-800">Einstellungen</h1>
      <Form method="post" {...getFormProps(form)} ref={gate.form} onInput={gate.check} className="rounded border border-slate-200 bg-white p-5">
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
          <NumberField meta={fields.lastInvoiceNumber} label="Letzte Rechnungs Nr" />
          <CheckboxField meta={fields.mollieIntegration} label="Mollie Integration" className="self-end" />
        </div>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Verein auf Rechnungen</legend>
          <p className="mb-3 text-sm text-slate-600">
            Name, Anschrift und Steuernummer des Vereins (oder warum keine Umsatzsteuer berechnet wird) stehen auf jeder Rechnung.
          </p>
          <div className="grid grid-cols-2 gap-4">
            <TextField meta={fields.clubName} label="Vereinsname" className="col-span-2" />
            <TextField meta={fields.clubStreet} label="Straße und Hausnummer" className="col-span-2" />
            <TextField meta={fields.clubZip} label="PLZ" inputMode="numeric" />
            <TextField meta={fields.clubCity} label="Ort" />
            <TextField meta={fields.clubPhone} label="Telefon" type="tel" />
            <TextField meta={fields.clubEmail} label="E-Mail des Vereins" type="email" />
            <TextField meta={fields.taxNumber} label="Steuernummer" className="col-span-2" />
            <TextAreaField meta={fields.taxExemptionNote} label="Hinweis zur Umsatzsteuer (steht ohne Steuernummer auf der Rechnung)" className="col-span-2" />
          </div>
        </fieldset>
        <fieldset className="mt-6 border-t border-slate-200 pt-4">
          <legend className="pr-2 text-base font-semibold text-wuff-800">Bankverbindung und SEPA-Lastschrift</legend>
          <p className="mb-3 text-sm text-slate-600">
            Das Konto des Vereins steht in der Zahlungsaufforderung jeder Rechnung und im GiroCode (QR-Code zum Bezahlen mit der Banking-App) auf Rechnungen und in Zahlungsmails. Gläubiger-ID und Mandatstext braucht der Verein für SEPA-Lastschriften.
          </p>
          <div className="grid grid-cols-2 gap-4">
            <TextField meta={fields.bankAccountHolder} label="Kontoinhaber" className="col-span-2" />
            <TextField meta={fields.iban} label="IBAN" className="col-span-2" />
            <TextField meta={fields.bic} label="BIC (bei deutscher IBAN freiwillig)" />
            <TextField meta={fields.bankName} label="Bank" />
            <TextField meta={fields.creditorId} label="Gläubiger-ID" className="col-span-2" />
            <TextAreaField meta={fields.mandateText} label="Text des SEPA-Lastschriftmandats" className="col-span-2" />
          </div>
        </fieldset>
        <FormErrors errors={form.errors} conflict={actionData?.conflict} id={form.errorId} />
        {config && <AuditBlock audit={auditText(config)} />}
        <SaveGateReason id="configuration-save-reason" reason={hydrated ? gate.reason : null} />
        <div className="mt-5 flex justify-end">
          <button
            type="submit"
            disabled={(hydrated && gate.reason !== null) || busy}
            aria-describedby={hydrated && gate.reason ? "configuration-save-reason" : undefined}
            className="rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Speichern
          </button>
        </div>
      </Form>
      <p className="mt-4 text-sm">
        Weitere Stammdaten:{" "}
        <Link to="/certificationMasters" className="text-wuff-700 underline">
          Erfolgsarten
        </Link>
      </p>
      <p className="mt-2 text-sm">
        Rechnungs- und Mail-Texte:{" "}
        <Link to="/templates" className="text-wuff-700 underline">
          Vorlagen
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
