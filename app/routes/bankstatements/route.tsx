import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { SCREEN_TITLES } from "~/components/navigation";
import { MAX_STATEMENT_BYTES, parseStatement, StatementError, TOO_LARGE, EMPTY_FILE } from "~/lib/bank-statements.server";
import { formatCount, formatDateTime } from "~/lib/format";
import { importStatement, listImports, otherAccountRefusal } from "~/models/bank-statements.server";
import { requireAccess } from "~/services/auth.server";
import { redirectWithToast } from "~/services/toast.server";
import { PageAlert } from "~/components/error-message";

/**
 * Kontoauszug importieren (ADMIN, FINANCE; reached from the Kontenblatt): a CAMT.053 or MT940
 * file is uploaded (a plain multipart form, works without JavaScript), its bookings are matched
 * to open invoices and fees, and the review page (bankstatements/:importId) books them. A file
 * that is too large, not a statement or broken gets a German 4xx and stores nothing.
 */
const TITLE = SCREEN_TITLES.bankstatements;
const FORMATS = { CAMT053: "CAMT.053", MT940: "MT940" } as const;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "bankstatements");
  return { imports: await listImports(args.context.db), maxMegabytes: MAX_STATEMENT_BYTES / 1024 / 1024 };
}

type ActionData = { error: string };

/** A multipart body carries a little more than the file itself (boundaries, headers, other fields). */
const MULTIPART_OVERHEAD = 64 * 1024;

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "bankstatements");
  const refuse = (status: number, error: string) => data<ActionData>({ error }, { status });
  // Too large: refused before the body is read.
  const length = Number(args.request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(length) && length > MAX_STATEMENT_BYTES + MULTIPART_OVERHEAD) return refuse(413, TOO_LARGE);
  let form: FormData;
  try {
    form = await args.request.formData();
  } catch {
    return refuse(400, "Bitte eine Datei mit dem Kontoauszug auswählen (Formular als multipart/form-data senden).");
  }
  const file = form.get("file");
  if (!file || typeof file === "string") return refuse(400, "Bitte eine Datei mit dem Kontoauszug auswählen.");
  if (file.size > MAX_STATEMENT_BYTES) return refuse(413, TOO_LARGE);
  if (file.size === 0) return refuse(400, EMPTY_FILE);
  const fileName = (file.name || "Kontoauszug").slice(0, 200);
  const bytes = new Uint8Array(await file.arrayBuffer());
  // UTF-8, else Latin-1 (older MT940 exports).
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  let statement;
  try {
    statement = parseStatement(text);
  } catch (error) {
    if (error instanceof StatementError) return refuse(error.status, error.message);
    return refuse(422, "Der Kontoauszug konnte nicht gelesen werden.");
  }
  const otherAccount = await otherAccountRefusal(args.context.db, statement);
  if (otherAccount) return refuse(422, otherAccount);
  const outcome = await importStatement(args.context.db, { fileName, statement }, user);
  const fresh = outcome.entries - outcome.duplicates;
  const message =
    fresh === 0
      ? `Alle ${formatCount(outcome.entries, "Buchung", "Buchungen")} dieses Kontoauszugs sind bereits importiert: nichts Neues zu buchen.`
      : `${formatCount(fresh, "Buchung", "Buchungen")} importiert${outcome.duplicates ? `, ${outcome.duplicates} bereits importiert` : ""}. Bitte die Zuordnungen prüfen und buchen.`;
  return redirectWithToast(args.context.cloudflare.env, `/bankstatements/${outcome.importId}`, { type: fresh === 0 ? "info" : "success", message });
}

export default function BankStatementsScreen() {
  const { imports, maxMegabytes } = useLoaderData<typeof loader>();
  const error = useActionData<ActionData>()?.error;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <section className="flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold text-wuff-800">{TITLE}</h1>
        <p className="mt-2 text-sm text-slate-700">
          Den Kontoauszug aus dem Online-Banking als CAMT.053 (XML) oder MT940 exportieren und hier hochladen (höchstens {maxMegabytes} MB). Jede Gutschrift
          wird über die Referenz („ReNr …“) und den Betrag einer offenen Rechnung oder einem offenen Posten zugeordnet; Rücklastschriften öffnen ihren Posten
          wieder. Gebucht wird erst nach der Prüfung mit „Buchen“. Ein zweites Hochladen desselben Auszugs bucht nichts doppelt.
        </p>
      </div>
      <PageAlert message={error} />
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-4">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Kontoauszug (CAMT.053 oder MT940)</span>
          <input type="file" name="file" required accept=".xml,.sta,.mt940,.txt,.940,text/xml,application/xml,text/plain" className="max-w-full text-sm" />
        </label>
        <button type="submit" disabled={busy} className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800 disabled:opacity-60">
          Hochladen und abgleichen
        </button>
      </Form>
      <div>
        <h2 className="mb-2 text-lg font-semibold text-wuff-800">Letzte Importe</h2>
        {imports.length === 0 ? (
          <p className="text-sm text-slate-600">Noch kein Kontoauszug importiert.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200 rounded border border-slate-200 bg-white text-sm">
            {imports.map((item) => (
              <li key={item.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 p-2">
                <Link to={`/bankstatements/${item.id}`} className="break-all text-wuff-700 underline">
                  {item.fileName}
                </Link>
                <span>{FORMATS[item.format]}</span>
                <span>{formatCount(item.entryCount, "Buchung", "Buchungen")}</span>
                {item.duplicateCount > 0 && <span>{item.duplicateCount} bereits importiert</span>}
                <span className="text-slate-600">
                  {formatDateTime(item.importedOn)}, {item.importedBy}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="text-sm">
        <Link to="/fees" className="text-wuff-700 underline">
          Zurück zum Kontenblatt
        </Link>
      </p>
    </section>
  );
}
