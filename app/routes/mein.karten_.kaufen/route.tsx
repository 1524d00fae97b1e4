/**
 * Mein Wuff, Karte oder Abo kaufen (issue 34 item 2): the products on sale at the price of the
 * person's member type, with what each holds and where it is valid. The button obliges to pay
 * (§ 312j Abs. 3 BGB); the texts accepted are the versions the page showed, and a newer one
 * published meanwhile stops the purchase. Whoever wants to use the card before the withdrawal
 * period ends says so (§ 356 Abs. 4, § 357a Abs. 2 BGB). Only for the person acted for
 * (requirePortalPerson). Complete without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PortalCheckbox, PortalContractTerms, PortalNotice, PortalPage, PortalPart, PortalRadioGroup, PortalSubmit } from "~/components/portal";
import { SUBSCRIPTION_PERIOD_LABELS } from "~/lib/cards";
import { formatDate, formatMoney } from "~/lib/format";
import { PURCHASE_TEXTS_MISSING } from "~/lib/portal";
import { buyCard, purchasePage, type ProductOnSale } from "~/models/card-purchases.server";
import { clientAddress, mailCardPurchase, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { purchaseSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Karte oder Abo kaufen – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  return purchasePage(args.context.db, person.id);
}

type ActionData = { result: SubmissionResult<string[]>; message?: string };

export async function action(args: ActionFunctionArgs) {
  const { person, actor } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const submission = parseWithZod(await readForm(args.request), { schema: purchaseSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  const outcome = await buyCard(
    db,
    {
      personId: person.id,
      productId: value.productId,
      accepted: { TERMS: value.termsId, WITHDRAWAL: value.withdrawalId, PRIVACY: value.privacyId },
      earlyStart: value.earlyStart === "on",
      from: clientAddress(args.request),
    },
    actor,
  );
  if (outcome.status === "refused") return data<ActionData>({ result: submission.reply(), message: outcome.message }, { status: 409 });
  const validity = validityText(outcome.validFrom, outcome.validUntil);
  sendAfterAnswer(
    args.context,
    mailCardPurchase(cloudflare.env, db, {
      person,
      product: outcome.product.name,
      validity,
      amount: outcome.product.price,
      earlyStart: value.earlyStart === "on",
      textIds: [value.termsId, value.withdrawalId],
    }),
    "Kaufbestätigung",
  );
  return redirectWithToast(cloudflare.env, "/mein/karten", {
    type: "success",
    message: `Gekauft: ${outcome.product.name}, gültig ${validity}. Die Bestätigung kommt per E-Mail, die Rechnung gesondert.`,
  });
}

const validityText = (validFrom: string, validUntil: string | null) =>
  validUntil ? `vom ${formatDate(validFrom)} bis ${formatDate(validUntil)}` : `ab ${formatDate(validFrom)}`;

/** What the product holds, in a line: units and validity, or period, minimum term and notice. */
function termsOf(product: ProductOnSale): string {
  const perAttendance = product.unitsPerAttendance > 1 ? `, ${product.unitsPerAttendance} Einheiten je Teilnahme` : "";
  if (product.kind === "CARD") return `${product.units} Einheiten, ${product.validMonths} Monate gültig${perAttendance}`;
  const minimum = product.minTermMonths ? `, Mindestlaufzeit ${product.minTermMonths} Monate` : "";
  const notice = product.noticeMonths ? `, kündbar mit ${product.noticeMonths} Monat Frist` : ", jederzeit kündbar";
  return `Abo, ${SUBSCRIPTION_PERIOD_LABELS[product.period!]} abgerechnet${minimum}${notice}${perAttendance}`;
}

export default function BuyCard() {
  const { products, texts } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { productId: products.length === 1 ? String(products[0].id) : undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: purchaseSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <PortalPage
      id="buy-card-title"
      title="Karte oder Abo kaufen"
      intro="Mit einer Karte oder einem Abo nimmst du an den offenen Gruppen teil, wann du magst. Die Karte gilt ab heute; bei jedem Training nehmen wir die Einheit von der Karte, die zuerst abläuft."
    >
      <p className="mt-1 text-sm">
        <Link to="/mein/karten" className="text-wuff-800 underline">
          Zurück zu Meine Karten & Abos
        </Link>
      </p>
      {actionData?.message && <PortalNotice tone="error">{actionData.message}</PortalNotice>}
      {!texts ? (
        <PortalNotice tone="error">{PURCHASE_TEXTS_MISSING}</PortalNotice>
      ) : products.length === 0 ? (
        <p className="mt-4 text-slate-700">Online gibt es gerade keine Karten oder Abos für dich. Sprich uns beim nächsten Training gern an.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} aria-labelledby="buy-card-title">
          <PortalPart id="buy-card-product" title="Was möchtest du kaufen?">
            <PortalRadioGroup
              meta={fields.productId}
              legend="Karte oder Abo"
              options={products.map((product) => ({
                value: String(product.id),
                label: (
                  <>
                    <span className="font-medium">{product.name}</span>
                    {`: ${formatMoney(product.price)}${product.kind === "SUBSCRIPTION" ? ` je ${product.period === "QUARTERLY" ? "Vierteljahr" : "Monat"}` : ""}`}
                  </>
                ),
                hint: `${termsOf(product)}.${product.validFor.length ? ` Gilt für: ${product.validFor.join(", ")}.` : ""}`,
              }))}
            />
          </PortalPart>
          <PortalContractTerms
            texts={texts}
            accept={fields.accept}
            withdrawalNote="Du kannst den Kauf innerhalb von 14 Tagen ohne Angabe von Gründen widerrufen, über „Vertrag widerrufen“ unten auf jeder Seite. Ein Abo kündigst du jederzeit über „Verträge hier kündigen“."
          />
          <div className="mt-3">
            <PortalCheckbox
              meta={fields.earlyStart}
              label="Ich möchte die Karte schon vor Ende der Widerrufsfrist nutzen. Mir ist bekannt, dass ich bei einem Widerruf für die bis dahin genutzten Einheiten anteilig Wertersatz zahle (freiwillig)."
            />
          </div>
          <PortalSubmit>Zahlungspflichtig kaufen</PortalSubmit>
        </Form>
      )}
    </PortalPage>
  );
}
