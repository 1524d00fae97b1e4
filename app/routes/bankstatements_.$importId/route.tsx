import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCount, formatDate, formatDateTime, formatMoney } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { bookEntries, entriesOfImport, getImport, type Choice, type OpenItem, type ReviewEntry, type Target } from "~/models/bank-statements.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { PageAlert } from "~/components/error-message";

/**
 * The review of an imported statement: every booking with its proposal (Zugeordnet, Mehrdeutig,
 * Nicht zugeordnet, Rücklastschrift, Belastung), a choice per booking (the proposal, a candidate,
 * an invoice number typed in, or 'Nicht buchen'), and 'Buchen', which books all chosen ones in one
 * batch. One form of plain fields: works without JavaScript.
 */
export const meta: MetaFunction = () => [{ title: "Kontoauszug prüfen – Wuff" }];

const notFound = () => new Response("Diesen Kontoauszug gibt es nicht (mehr).", { status: 404 });

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "bankstatements");
  const importId = parseId(args.params.importId);
  if (importId === null) throw notFound();
  const statement = await getImport(args.context.db, importId);
  if (!statement) throw notFound();
  return { statement, entries: await entriesOfImport(args.context.db, importId) };
}

type ActionData = { error: string };

/** The choice 'Auf alle verteilen': one credit pays every item its remittance names, in turn. */
const SPLIT = "SPLIT";

const parseTarget = (value: string): Target | null | undefined => {
  if (value === "") return null;
  const match = /^(INVOICE|FEE|DEBIT_RUN):(\d+)$/.exec(value);
  const id = match ? parseId(match[2]) : null;
  return match && id ? { type: match[1] as Target["type"], id } : undefined;
};

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "bankstatements");
  const importId = parseId(args.params.importId);
  if (importId === null || !(await getImport(args.context.db, importId))) throw notFound();
  const form = await readForm(args.request);
  const refuse = (status: number, error: string) => data<ActionData>({ error }, { status });
  if (form.get("intent") !== "book") return refuse(400, "Unbekannte Aktion.");
  const choices: Choice[] = [];
  for (const [name, raw] of form) {
    const match = /^choice-(\d+)$/.exec(name);
    if (!match || typeof raw !== "string") continue;
    const entryId = parseId(match[1]);
    const split = raw === SPLIT;
    const target = split ? null : parseTarget(raw);
    if (entryId === null || target === undefined) return refuse(400, "Ungültige Zuordnung: Es wurde nichts gebucht.");
    const typed = String(form.get(`invoice-${entryId}`) ?? "").trim();
    let invoiceNumber: number | null = null;
    if (typed !== "") {
      invoiceNumber = /^\d{1,9}$/.test(typed) ? parseId(typed) : null;
      if (invoiceNumber === null) return refuse(400, `„${typed.slice(0, 20)}“ ist keine Rechnungsnummer: Es wurde nichts gebucht.`);
    }
    choices.push({ entryId, target, invoiceNumber, split });
  }
  const outcome = await bookEntries(args.context.db, importId, choices, user);
  if (outcome.status === "refused") return refuse(422, outcome.message);
  if (outcome.status === "stale")
    return refuse(
      409,
      "Eine dieser Buchungen wurde inzwischen schon gebucht, oder ein Posten hat sich seither geändert: Es wurde nichts gebucht. Bitte die Seite neu laden.",
    );
  const overpaid = outcome.overpaid.map((item) => `${item.label}: ${formatMoney(item.excess)} Überzahlung als Guthaben der Person gebucht`).join("; ");
  const message = `${formatCount(outcome.count, "Buchung", "Buchungen")} gebucht (${formatMoney(outcome.sum)} Zahlungseingang).${overpaid ? ` ${overpaid}.` : ""}`;
  return redirectWithToast(args.context.cloudflare.env, `/bankstatements/${importId}`, { type: overpaid ? "warning" : "success", message });
}

const PROPOSALS: Record<ReviewEntry["proposal"], { label: string; className: string }> = {
  MATCHED: { label: "Zugeordnet", className: "bg-green-100 text-green-900" },
  AMBIGUOUS: { label: "Mehrdeutig", className: "bg-amber-100 text-amber-900" },
  UNMATCHED: { label: "Nicht zugeordnet", className: "bg-slate-200 text-slate-900" },
  RETURN: { label: "Rücklastschrift", className: "bg-red-100 text-red-900" },
  IGNORED: { label: "Belastung", className: "bg-slate-100 text-slate-700" },
};

/** 'INVOICE:12': a target as a select value (the model's targetKey, kept here for the browser bundle). */
const targetKey = (target: Target) => `${target.type}:${target.id}`;

const itemHref = (item: OpenItem) =>
  item.type === "INVOICE" ? `/invoices/${item.id}/invoicerows` : item.type === "DEBIT_RUN" ? "/directdebits" : `/people/${item.personId}/fees`;
const itemText = (item: OpenItem) => `${item.label}${item.personName ? `, ${item.personName}` : ""}, offen ${formatMoney(item.openAmount)}`;

export default function BankStatementReview() {
  const { statement, entries } = useLoaderData<typeof loader>();
  const error = useActionData<ActionData>()?.error;
  const busy = useNavigation().state === "submitting";
  const open = entries.filter((entry) => entry.status === "OPEN" && entry.proposal !== "IGNORED");
  return (
    <section className="flex max-w-4xl flex-col gap-4">
      <div>
        <h1 className="text-2xl font-semibold text-wuff-800">Kontoauszug prüfen</h1>
        <p className="mt-1 text-sm break-words text-slate-700">
          {statement.fileName} ({statement.format === "CAMT053" ? "CAMT.053" : "MT940"}
          {statement.accountIban ? `, Konto ${statement.accountIban}` : ""}
          {statement.statementId ? `, Auszug ${statement.statementId}` : ""}), importiert {formatDateTime(statement.importedOn)} von {statement.importedBy}.{" "}
          {formatCount(statement.entryCount, "Buchung", "Buchungen")}
          {statement.duplicateCount > 0 ? `, davon ${statement.duplicateCount} bereits importiert (nicht noch einmal aufgeführt)` : ""}.
        </p>
      </div>
      <PageAlert message={error} />
      {entries.length === 0 ? (
        <p className="text-sm text-slate-700">Alle Buchungen dieses Auszugs waren bereits importiert: Hier ist nichts zu buchen.</p>
      ) : (
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="book" />
          <ol className="flex flex-col gap-2" aria-label="Buchungen des Kontoauszugs">
            {entries.map((entry) => (
              <EntryItem key={entry.id} entry={entry} />
            ))}
          </ol>
          {open.length > 0 && (
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="submit"
                disabled={busy}
                className="rounded bg-wuff-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-wuff-800 disabled:opacity-60"
              >
                Buchen
              </button>
              <span className="text-sm text-slate-600">Bucht alle Buchungen mit einer Zuordnung auf einmal; „Nicht buchen“ bleibt offen.</span>
            </div>
          )}
        </Form>
      )}
      <p className="flex flex-wrap gap-4 text-sm">
        <Link to="/bankstatements" className="text-wuff-700 underline">
          Weiteren Kontoauszug importieren
        </Link>
        <Link to="/fees" className="text-wuff-700 underline">
          Zum Kontenblatt
        </Link>
      </p>
    </section>
  );
}

function EntryItem({ entry }: { entry: ReviewEntry }) {
  const proposal = PROPOSALS[entry.proposal];
  const booked = entry.status === "BOOKED";
  const bookable = !booked && entry.proposal !== "IGNORED";
  const headingId = `entry-${entry.id}`;
  const options: OpenItem[] = entry.target
    ? [entry.target, ...entry.candidateItems.filter((item) => targetKey(item) !== targetKey(entry.target!))]
    : entry.candidateItems;
  const preselect = entry.proposal === "MATCHED" || (entry.proposal === "RETURN" && entry.target) ? targetKey(entry.target!) : "";
  return (
    <li className="rounded border border-slate-200 bg-white p-3 text-sm" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span id={headingId} className="font-medium">
          {formatDate(entry.bookingDate ?? entry.valueDate)} {entry.direction === "DBIT" ? "−" : "+"}
          {formatMoney(entry.amount)} {entry.counterpartyName ?? ""}
        </span>
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${booked ? "bg-wuff-100 text-wuff-900" : proposal.className}`}>
          {booked ? "Gebucht" : proposal.label}
        </span>
        {entry.returnReason && <span className="text-xs text-slate-600">Grund {entry.returnReason}</span>}
      </div>
      {entry.remittance && <p className="mt-1 break-words text-slate-700">{entry.remittance}</p>}
      {entry.target && (
        <p className="mt-1">
          {booked ? "Gebucht auf " : entry.proposal === "RETURN" ? "Öffnet wieder: " : "Vorschlag: "}
          <Link to={itemHref(entry.target)} className="text-wuff-700 underline">
            {itemText(entry.target)}
          </Link>
          {booked && entry.applied !== null && entry.applied !== entry.amount ? ` (${formatMoney(entry.applied)} gebucht)` : ""}
        </p>
      )}
      {entry.note && !booked && <p className="mt-1 text-slate-600">{entry.note}</p>}
      {bookable && (
        <div className="mt-2 flex flex-wrap items-end gap-3">
          {/* min-w-0: a long option (a fee's text, a run's end-to-end id) must not widen the page on a phone. */}
          <label className="flex max-w-full min-w-0 flex-col gap-1">
            <span className="text-xs text-slate-600">Zuordnung</span>
            <select name={`choice-${entry.id}`} defaultValue={preselect} className="w-full max-w-full rounded border border-slate-300 px-2 py-1">
              {options.map((item) => (
                <option key={targetKey(item)} value={targetKey(item)}>
                  {itemText(item)}
                </option>
              ))}
              {entry.direction === "CRDT" && entry.candidateItems.length > 1 && (
                <option value={SPLIT}>{`Auf alle verteilen: ${entry.candidateItems.map(itemText).join("; ")}`}</option>
              )}
              <option value="">Nicht buchen</option>
            </select>
          </label>
          {entry.direction === "CRDT" && (
            <label className="flex flex-col gap-1">
              <span className="text-xs text-slate-600">Oder Rechnungsnummer</span>
              <input name={`invoice-${entry.id}`} inputMode="numeric" maxLength={9} className="w-32 rounded border border-slate-300 px-2 py-1" />
            </label>
          )}
        </div>
      )}
    </li>
  );
}
