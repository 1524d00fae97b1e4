/**
 * Buchhaltung (issue 35 items 1 and 3; ADMIN and FINANCE, settings ADMIN only): the chart of
 * accounts with the accounts Wuff books to and their spheres, DATEV's client data, and the DATEV
 * export of a period (Buchungsstapel and Debitoren, app/lib/datev.ts) with the log of what was
 * handed out. Plain forms: the downloads are native form posts, so they work without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageAlert } from "~/components/error-message";
import { SCREEN_TITLES } from "~/components/navigation";
import { fiscalYearStartOf } from "~/lib/datev-export";
import { formatDate, formatDateTime, todayInBerlin } from "~/lib/format";
import { CHART_LABELS, CHARTS, isAccountNumber, PURPOSE_LABELS, PURPOSES, SPHERE_OPTIONS, SPHERES, type Purpose } from "~/lib/ledger";
import { bookkeepingSettings, datevExportLog, saveBookkeepingSettings } from "~/models/bookkeeping.server";
import { dialogAction } from "~/dialogs/kit.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

const TITLE = SCREEN_TITLES.bookkeeping;
const MONTHS = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"];

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "bookkeeping");
  const [settings, exports] = await Promise.all([bookkeepingSettings(args.context.db), datevExportLog(args.context.db)]);
  const today = todayInBerlin();
  return { settings, exports, canEdit: user.roles.includes("ADMIN"), defaultFrom: fiscalYearStartOf(today, settings.fiscalYearStartMonth), defaultTo: today };
}

type ActionData = { error: string; field?: string };

const digits = (label: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .transform((value) => (value === "" ? null : value))
    .refine((value) => value === null || /^\d+$/.test(value), `${label}: nur Ziffern.`)
    .transform((value) => (value === null ? null : Number(value)))
    .refine((value) => value === null || (value >= min && value <= max), `${label}: ${min} bis ${max}.`);

const settingsSchema = z.object({
  chart: z.enum(CHARTS, { message: "Bitte einen Kontenrahmen wählen." }),
  advisorNumber: digits("Beraternummer", 1001, 9_999_999),
  clientNumber: digits("Mandantennummer", 1, 99_999),
  fiscalYearStartMonth: z.coerce.number().int().min(1, "Bitte einen Monat wählen.").max(12, "Bitte einen Monat wählen."),
  accountLength: z.coerce.number().int().min(4, "Sachkontenlänge: 4 bis 8 Stellen.").max(8, "Sachkontenlänge: 4 bis 8 Stellen."),
  rowVersion: z.coerce.number().int().positive(),
});

const accountSchema = z.object({
  number: z.string().trim().min(1, "Bitte eine Kontonummer angeben."),
  name: z.string().trim().min(1, "Bitte eine Bezeichnung angeben.").max(60, "Bezeichnung: höchstens 60 Zeichen."),
  sphere: z.union([z.literal(""), z.enum(SPHERES)]).transform((value) => (value === "" ? null : value)),
});

/** Saves the settings; the dialogs opened on the page (the shell's, e.g. Suche) post here too. */
export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request.clone() as Request);
  if (form.get("intent") !== "settings") return dialogAction(args, ["bookkeeping"], []);
  const user = await requireAccess(args, "bookkeeping");
  const db = args.context.db;
  {
    if (!user.roles.includes("ADMIN")) return data<ActionData>({ error: "Kontenrahmen und DATEV-Daten ändert nur ein Admin." }, { status: 403 });
    const parsed = settingsSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return data<ActionData>({ error: parsed.error.issues[0].message, field: String(parsed.error.issues[0].path[0]) }, { status: 400 });
    const accounts = [];
    for (const purpose of PURPOSES) {
      const account = accountSchema.safeParse({
        number: form.get(`${purpose}.number`) ?? "",
        name: form.get(`${purpose}.name`) ?? "",
        sphere: form.get(`${purpose}.sphere`) ?? "",
      });
      if (!account.success)
        return data<ActionData>({ error: `${PURPOSE_LABELS[purpose]}: ${account.error.issues[0].message}`, field: `${purpose}.number` }, { status: 400 });
      if (!isAccountNumber(account.data.number, parsed.data.accountLength)) {
        return data<ActionData>(
          {
            error: `${PURPOSE_LABELS[purpose]}: Die Kontonummer hat höchstens ${parsed.data.accountLength} Ziffern und beginnt nicht mit 0.`,
            field: `${purpose}.number`,
          },
          { status: 400 },
        );
      }
      accounts.push({ purpose, ...account.data });
    }
    const saved = await saveBookkeepingSettings(db, { ...parsed.data, accounts }, user);
    if (!saved)
      return data<ActionData>({ error: "Die Einstellungen wurden inzwischen von jemand anderem geändert. Bitte die Seite neu laden." }, { status: 409 });
    return redirectWithToast(args.context.cloudflare.env, "/bookkeeping", { type: "success", message: "Kontenrahmen und DATEV-Daten gespeichert." });
  }
}

const input = "rounded border border-slate-300 px-2 py-1.5 text-sm";
const button = "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50";

export default function Bookkeeping() {
  const { settings, exports, canEdit, defaultFrom, defaultTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const accountOf = (purpose: Purpose) => settings.accounts.find((account) => account.purpose === purpose);
  return (
    <section aria-labelledby="bookkeeping-title" className="max-w-5xl">
      <h1 id="bookkeeping-title" className="mb-2 text-2xl font-semibold text-wuff-800">
        {TITLE}
      </h1>
      <p className="max-w-3xl text-sm text-slate-700">
        Die Buchungen eines Zeitraums für den Steuerberater im DATEV-Format: Rechnungen, Stornos und Gutschriften, direkt eingezogene Posten, Zahlungen und
        Verzichte, je mit Konto, Steuerschlüssel und Sphäre. Nichts wird doppelt erfasst.
      </p>
      <p className="mt-1 text-sm">
        <Link to="/bookkeeping/reports" className="text-blue-700 underline">
          Auswertungen: Einnahmenüberschussrechnung, offene Posten, Bericht für die Mitgliederversammlung
        </Link>
      </p>
      {actionData ? <PageAlert message={actionData.error} /> : null}

      <h2 className="mt-6 text-lg font-semibold text-slate-800">DATEV-Export</h2>
      <Form method="post" action="/bookkeeping/datev" reloadDocument className="mt-2 flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Von</span>
          <input
            name="from"
            defaultValue={formatDate(defaultFrom)}
            className={input}
            inputMode="numeric"
            aria-invalid={actionData?.field === "from" || undefined}
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Bis</span>
          <input name="to" defaultValue={formatDate(defaultTo)} className={input} inputMode="numeric" aria-invalid={actionData?.field === "to" || undefined} />
        </label>
        <button type="submit" name="intent" value="bookings" className={button}>
          Buchungsstapel herunterladen
        </button>
        <button type="submit" name="intent" value="debtors" className={button}>
          Debitoren herunterladen
        </button>
      </Form>
      <p className="mt-1 text-xs text-slate-600">
        Ein Zeitraum liegt in einem Wirtschaftsjahr. Die Datei ist im Zeichensatz Windows-1252, wie DATEV sie einliest.
      </p>

      {exports.length > 0 ? (
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Übergebene Dateien">
          <table className="min-w-full text-sm">
            <caption className="text-left font-medium text-slate-700">Übergebene Dateien</caption>
            <thead>
              <tr className="border-b text-left">
                <th className="px-2 py-1">Datei</th>
                <th className="px-2 py-1">Zeitraum</th>
                <th className="px-2 py-1 text-right">Sätze</th>
                <th className="px-2 py-1">Erstellt</th>
                <th className="px-2 py-1">Hinweis</th>
              </tr>
            </thead>
            <tbody>
              {exports.map((entry) => (
                <tr key={entry.id} className="border-b">
                  <td className="px-2 py-1">{entry.kind === "BOOKINGS" ? "Buchungsstapel" : "Debitoren"}</td>
                  <td className="px-2 py-1">{entry.dateFrom ? `${formatDate(entry.dateFrom)} – ${formatDate(entry.dateTo)}` : "–"}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{entry.records}</td>
                  <td className="px-2 py-1">{`${formatDateTime(entry.createdOn)} von ${entry.createdBy}`}</td>
                  <td className="px-2 py-1">{entry.changedSince ? "Zeitraum wurde nach einem früheren Export geändert" : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <h2 className="mt-8 text-lg font-semibold text-slate-800">Kontenrahmen und Konten</h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        Die Konten, auf die Wuff bucht. Kurs-Typen und Karten-Produkte können ein eigenes Konto und eine eigene Sphäre haben. Die Vorbelegung des SKR 42 ist ein
        Vorschlag: bitte vor dem ersten Export mit dem Kontenplan des Steuerberaters abgleichen. Ein anderer Kontenrahmen setzt alle Konten auf seine
        Vorbelegung zurück.
      </p>
      <Form method="post" className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="settings" />
        <input type="hidden" name="rowVersion" value={settings.rowVersion} />
        <fieldset disabled={!canEdit} className="flex flex-wrap items-end gap-3">
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-700">Kontenrahmen</span>
            <select name="chart" defaultValue={settings.chart} className={input}>
              {CHARTS.map((chart) => (
                <option key={chart} value={chart}>
                  {CHART_LABELS[chart]}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-700">Beraternummer</span>
            <input name="advisorNumber" defaultValue={settings.advisorNumber ?? ""} inputMode="numeric" className={`${input} w-32`} />
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-700">Mandantennummer</span>
            <input name="clientNumber" defaultValue={settings.clientNumber ?? ""} inputMode="numeric" className={`${input} w-32`} />
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-700">Wirtschaftsjahr beginnt im</span>
            <select name="fiscalYearStartMonth" defaultValue={settings.fiscalYearStartMonth} className={input}>
              {MONTHS.map((month, index) => (
                <option key={month} value={index + 1}>
                  {month}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-700">Sachkontenlänge</span>
            <input name="accountLength" defaultValue={settings.accountLength} inputMode="numeric" className={`${input} w-20`} />
          </label>
        </fieldset>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Konten">
          <table className="min-w-full text-sm">
            <caption className="sr-only">Konten</caption>
            <thead>
              <tr className="border-b text-left">
                <th className="px-2 py-1">Wofür</th>
                <th className="px-2 py-1">Konto</th>
                <th className="px-2 py-1">Bezeichnung</th>
                <th className="px-2 py-1">Sphäre</th>
              </tr>
            </thead>
            <tbody>
              {PURPOSES.map((purpose) => {
                const account = accountOf(purpose);
                return (
                  <tr key={purpose} className="border-b">
                    <td className="px-2 py-1">{PURPOSE_LABELS[purpose]}</td>
                    <td className="px-2 py-1">
                      <input
                        name={`${purpose}.number`}
                        defaultValue={account?.number ?? ""}
                        aria-label={`Konto: ${PURPOSE_LABELS[purpose]}`}
                        inputMode="numeric"
                        disabled={!canEdit}
                        className={`${input} w-24`}
                      />
                    </td>
                    <td className="px-2 py-1">
                      <input
                        name={`${purpose}.name`}
                        defaultValue={account?.name ?? ""}
                        aria-label={`Bezeichnung: ${PURPOSE_LABELS[purpose]}`}
                        disabled={!canEdit}
                        className={input}
                      />
                    </td>
                    <td className="px-2 py-1">
                      <select
                        name={`${purpose}.sphere`}
                        defaultValue={account?.sphere ?? ""}
                        aria-label={`Sphäre: ${PURPOSE_LABELS[purpose]}`}
                        disabled={!canEdit}
                        className={input}
                      >
                        <option value="">–</option>
                        {SPHERE_OPTIONS.map((option) => (
                          <option key={option.value} value={option.value}>
                            {option.label}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {canEdit ? (
          <button type="submit" className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800">
            Speichern
          </button>
        ) : (
          <p className="text-sm text-slate-600">Kontenrahmen und DATEV-Daten ändert ein Admin.</p>
        )}
      </Form>
    </section>
  );
}
