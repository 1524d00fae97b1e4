/**
 * Mein Wuff, Meine Zahlungen (issue 32 item 4): what the person owes (open invoices and fees),
 * their invoices as PDFs, the payments booked for them and their credit, all of that person only.
 * Several open items are paid at once through one Mollie payment link (booked by the webhook
 * through the payment journal), and a SEPA mandate is given online: the club's mandate text with
 * its creditor id, the account, and a link to the person's address that makes it. Complete
 * without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PortalMandateFields, PortalNotice, PortalPage, PortalPart, PortalSubmit } from "~/components/portal";
import { groupIban, maskIban } from "~/lib/banking";
import { formatDate, formatMoney } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { PAYMENT_METHOD_LABELS } from "~/lib/labels";
import { MANDATE_LIMITED, MANDATE_LINK_SENT, MANDATE_NOT_OFFERED, PAYMENT_THANKS_PAID, PAYMENT_THANKS_PENDING, PAYMENT_UNAVAILABLE } from "~/lib/portal";
import { getConfiguration } from "~/models/configuration.server";
import { personCredit } from "~/models/payments.server";
import { ownCheckout, ownInvoices, ownOpenItems, ownPayments, startCheckout, type OpenItem } from "~/models/portal-money.server";
import { openMandateRequest, ownMandates, requestMandate } from "~/models/portal-mandates.server";
import { paymentLinkForCheckout, paymentLinksRefusal } from "~/services/payments.server";
import { mailMandateLink, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { portalMandateSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Meine Zahlungen – Mein Wuff" }];

const PAGE = "/mein/zahlungen";

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const checkoutId = parseId(new URL(args.request.url).searchParams.get("zahlung"));
  const [openItems, invoices, payments, credit, mandates, mandateRequest, configuration, onlineRefusal, checkout] = await Promise.all([
    ownOpenItems(db, person.id),
    ownInvoices(db, person.id),
    ownPayments(db, person.id),
    personCredit(db, person.id),
    ownMandates(db, person.id),
    openMandateRequest(db, person.id),
    getConfiguration(db),
    paymentLinksRefusal(db, cloudflare.env),
    checkoutId ? ownCheckout(db, person.id, checkoutId) : undefined,
  ]);
  return {
    openItems,
    invoices,
    payments,
    credit,
    mandates,
    mandateRequest,
    canPayOnline: onlineRefusal === null,
    bank: configuration?.iban ? { holder: configuration.bankAccountHolder ?? configuration.clubName ?? "", iban: groupIban(configuration.iban) } : null,
    mandateOffer:
      configuration?.creditorId && configuration.mandateText
        ? { club: configuration.clubName ?? "", creditorId: configuration.creditorId, text: configuration.mandateText }
        : null,
    personName: `${person.firstName} ${person.lastName}`.trim(),
    checkout: checkout ? { amount: checkout.amount, paid: checkout.paymentId !== null } : null,
  };
}

type ActionData = { form: "pay"; error: string } | { form: "mandate"; result: SubmissionResult<string[]>; sent?: string };

export async function action(args: ActionFunctionArgs) {
  const { person, session, actor } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const form = await readForm(args.request);
  if (form.get("intent") === "mandate") {
    const submission = parseWithZod(form, { schema: portalMandateSchema });
    if (submission.status !== "success") return data<ActionData>({ form: "mandate", result: submission.reply() }, { status: 400 });
    const configuration = await getConfiguration(db);
    if (!configuration?.creditorId || !configuration.mandateText) {
      return data<ActionData>({ form: "mandate", result: submission.reply({ formErrors: [MANDATE_NOT_OFFERED] }) }, { status: 409 });
    }
    const { accountHolder, iban, bic } = submission.value;
    const asked = await requestMandate(db, person.id, { accountHolder, iban: iban ?? "", bic });
    if (asked.status === "limited") return data<ActionData>({ form: "mandate", result: submission.reply({ formErrors: [MANDATE_LIMITED] }) }, { status: 429 });
    const link = `${new URL(args.request.url).origin}/mein/lastschrift/${asked.token}`;
    sendAfterAnswer(args.context, mailMandateLink(cloudflare.env, db, { email: session.email, person, link, maskedIban: maskIban(iban) }), "Mandatslink");
    return data<ActionData>({ form: "mandate", result: submission.reply({ resetForm: true }), sent: MANDATE_LINK_SENT(session.email) });
  }
  const keys = form.getAll("item").filter((value): value is string => typeof value === "string");
  const outcome = await startCheckout(db, person.id, keys, actor);
  if (outcome.status === "refused") return data<ActionData>({ form: "pay", error: outcome.message }, { status: 400 });
  const returnUrl = `${new URL(args.request.url).origin}${PAGE}?zahlung=${outcome.checkout.id}`;
  const link = await paymentLinkForCheckout({ db, env: cloudflare.env }, outcome.checkout, returnUrl);
  if (link.status !== "ok") {
    console.error("Mein Wuff: kein Zahlungslink", link.message);
    return data<ActionData>({ form: "pay", error: PAYMENT_UNAVAILABLE }, { status: 503 });
  }
  // To Mollie's checkout page; it sends the payer back to `returnUrl`.
  return redirect(link.url);
}

export default function MyPayments() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const openTotal = loaded.openItems.reduce((sum, item) => sum + item.openAmount, 0);
  return (
    <PortalPage id="my-payments-title" title="Meine Zahlungen" intro="Was offen ist, deine Rechnungen, deine Zahlungen und dein Lastschriftmandat.">
      {loaded.checkout && (
        <PortalNotice tone="success">{loaded.checkout.paid ? PAYMENT_THANKS_PAID(formatMoney(loaded.checkout.amount)) : PAYMENT_THANKS_PENDING}</PortalNotice>
      )}
      <PortalPart id="open-title" title="Offen">
        <p className="mt-2 text-slate-800">
          {openTotal > 0 ? (
            <>
              Offen: <strong>{formatMoney(openTotal)}</strong>
            </>
          ) : (
            "Bei dir ist nichts offen. Danke!"
          )}
          {loaded.credit > 0 && <> · Dein Guthaben: {formatMoney(loaded.credit)} (wir verrechnen es mit dem nächsten Posten)</>}
        </p>
        {loaded.openItems.length > 0 && (
          <OpenItems items={loaded.openItems} canPayOnline={loaded.canPayOnline} error={actionData?.form === "pay" ? actionData.error : undefined} />
        )}
        {openTotal > 0 && loaded.bank && (
          <p className="mt-3 text-sm text-slate-700">
            Du kannst auch überweisen: an {loaded.bank.holder}, IBAN {loaded.bank.iban}, mit dem angegebenen Verwendungszweck.
          </p>
        )}
      </PortalPart>
      <PortalPart id="invoices-title" title="Rechnungen">
        {loaded.invoices.length === 0 ? (
          <p className="mt-2 text-slate-700">Noch keine Rechnungen.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {loaded.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2">
                <span>
                  {invoice.kind === "STORNO" ? "Stornorechnung" : invoice.kind === "CREDIT_NOTE" ? "Gutschrift" : "Rechnung"} {invoice.invoiceNumber} vom{" "}
                  {formatDate(invoice.date)}: {formatMoney(invoice.amount)}
                  {invoice.openAmount > 0 && <span className="text-red-700"> (offen {formatMoney(invoice.openAmount)})</span>}
                </span>
                {invoice.hasPdf ? (
                  <Link to={`/mein/rechnungen/${invoice.id}`} reloadDocument className="text-wuff-700 underline">
                    PDF<span className="sr-only"> der Rechnung {invoice.invoiceNumber}</span>
                  </Link>
                ) : (
                  <span className="text-sm text-slate-600">PDF folgt</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </PortalPart>
      <PortalPart id="payments-title" title="Zahlungen">
        {loaded.payments.length === 0 ? (
          <p className="mt-2 text-slate-700">Noch keine Zahlungen gebucht.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {loaded.payments.map((payment) => (
              <li key={payment.id} className="py-2">
                <span className="flex flex-wrap justify-between gap-x-3">
                  <span>
                    {formatDate(payment.date)} · {PAYMENT_METHOD_LABELS[payment.method]}
                  </span>
                  <span className={payment.amount < 0 ? "text-red-700" : undefined}>{formatMoney(payment.amount)}</span>
                </span>
                <span className="block text-sm break-words text-slate-600">{payment.text}</span>
              </li>
            ))}
          </ul>
        )}
      </PortalPart>
      <MandatePart loaded={loaded} actionData={actionData?.form === "mandate" ? actionData : undefined} />
    </PortalPage>
  );
}

function OpenItems({ items, canPayOnline, error }: { items: OpenItem[]; canPayOnline: boolean; error?: string }) {
  const payable = items.filter((item) => item.collectionDate === null);
  const list = (
    <ul className="mt-2 divide-y divide-slate-100">
      {items.map((item) => {
        const choosable = canPayOnline && item.collectionDate === null;
        // A label only around a checkbox: an item that cannot be chosen is plain text.
        const Row = choosable ? "label" : "div";
        return (
          <li key={item.key} className="py-2">
            <Row className="flex items-start gap-3">
              {choosable && <input type="checkbox" name="item" value={item.key} defaultChecked className="mt-1 h-5 w-5 shrink-0" />}
              <span className="min-w-0 flex-1">
                <span className="flex flex-wrap justify-between gap-x-3">
                  <span className="break-words">{item.text}</span>
                  <strong>{formatMoney(item.openAmount)}</strong>
                </span>
                <span className="block text-sm text-slate-600">
                  vom {formatDate(item.date)}
                  {item.dueDate && <>, fällig am {formatDate(item.dueDate)}</>}
                  {item.collectionDate ? (
                    <>, wird am {formatDate(item.collectionDate)} per Lastschrift eingezogen</>
                  ) : (
                    <>, Verwendungszweck „{item.reference}“</>
                  )}
                </span>
              </span>
            </Row>
          </li>
        );
      })}
    </ul>
  );
  if (!canPayOnline || payable.length === 0) return list;
  return (
    <Form method="post" reloadDocument aria-label="Offene Posten online bezahlen">
      <input type="hidden" name="intent" value="pay" />
      {list}
      {error && <PortalNotice tone="error">{error}</PortalNotice>}
      <PortalSubmit>Ausgewählte online bezahlen</PortalSubmit>
      <p className="mt-2 text-sm text-slate-600">Du bezahlst bei unserem Zahlungsanbieter Mollie und kommst danach hierher zurück.</p>
    </Form>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function MandatePart({ loaded, actionData }: { loaded: Loaded; actionData?: Extract<ActionData, { form: "mandate" }> }) {
  const active = loaded.mandates.find((mandate) => mandate.isActive);
  const [form, fields] = useForm<Record<string, string>>({
    id: "portal-mandate",
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    defaultValue: { accountHolder: loaded.personName },
  });
  const offer = loaded.mandateOffer;
  return (
    <PortalPart id="mandate-title" title="Lastschriftmandat">
      {active ? (
        <p className="mt-2 text-slate-800">
          Der Verein zieht fällige Beiträge per Lastschrift ein: Mandat {active.reference} vom {formatDate(active.mandateDate)}, Konto {active.iban}.
          {active.hasDocument && (
            <>
              {" "}
              <Link to={`/mein/mandate/${active.id}`} reloadDocument className="text-wuff-700 underline">
                Mandat als PDF
              </Link>
            </>
          )}
        </p>
      ) : (
        <p className="mt-2 text-slate-700">Du hast dem Verein kein Lastschriftmandat erteilt.</p>
      )}
      {actionData?.sent && <PortalNotice tone="success">{actionData.sent}</PortalNotice>}
      {!actionData?.sent && loaded.mandateRequest && (
        <PortalNotice tone="success">
          Ein Bestätigungslink für dein neues Mandat ist an deine E-Mail-Adresse unterwegs. Erst mit ihm gilt das Mandat.
        </PortalNotice>
      )}
      {offer ? (
        <details className="mt-4 rounded border border-slate-200 p-3" open={actionData !== undefined && !actionData.sent}>
          <summary className="cursor-pointer font-medium text-wuff-800">
            {active ? "Neues Mandat für ein anderes Konto erteilen" : "Lastschriftmandat erteilen"}
          </summary>
          <Form method="post" {...getFormProps(form)} aria-labelledby="mandate-form-title" className="mt-3 space-y-3">
            <input type="hidden" name="intent" value="mandate" />
            <PortalMandateFields
              offer={offer}
              titleId="mandate-form-title"
              fields={{ accountHolder: fields.accountHolder, iban: fields.iban, bic: fields.bic, agree: fields.agree }}
            />
            {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
            <PortalSubmit>Mandat erteilen</PortalSubmit>
            {active && <p className="text-sm text-slate-600">Das neue Mandat ersetzt Mandat {active.reference}, sobald du es bestätigt hast.</p>}
          </Form>
        </details>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{MANDATE_NOT_OFFERED}</p>
      )}
    </PortalPart>
  );
}
