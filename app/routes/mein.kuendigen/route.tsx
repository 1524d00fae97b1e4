/**
 * 'Verträge hier kündigen' for everyone (§ 312k BGB, issue 34 item 2): the footer's button of that
 * name leads here, the confirmation page the law asks for. It takes the kind of notice (and the
 * reason of one for cause), who gives it, which contract, when it shall end and the address for
 * the confirmation, and 'Jetzt kündigen' gives it. The page then shows what was received and when
 * (to keep, § 312k Abs. 3), and the same goes out by mail at once (§ 312k Abs. 4). No account is
 * needed; signed in, the person picks one of their Abos and an ordinary notice ends it at once.
 * Complete without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { z } from "zod";
import { PortalField, PortalNotice, PortalRadioGroup, PortalSubmit, PortalTextArea } from "~/components/portal";
import { NOTICE_KIND_LABELS, type NoticeKind } from "~/lib/cards";
import { formatDate, formatDateTimeWithSeconds, todayInBerlin } from "~/lib/format";
import { receiveNotice, subscriptionsToEnd } from "~/models/notice-declarations.server";
import { ownData } from "~/models/portal-profile.server";
import { clientAddress, mailNoticeReceipt, optionalPortalSession, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { CONTRACT_MISSING, noticeSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Verträge hier kündigen – Mein Wuff" }];

const NOTICES_LIMITED =
  "Von dieser Adresse sind heute schon mehrere Kündigungen eingegangen. Bitte versuche es morgen wieder oder schreib uns eine E-Mail (Anschrift im Impressum).";

export async function loader(args: LoaderFunctionArgs) {
  const session = await optionalPortalSession(args);
  const person = session?.person;
  const [own, subscriptions] = person
    ? await Promise.all([ownData(args.context.db, person.id), subscriptionsToEnd(args.context.db, person.id)])
    : [undefined, []];
  const chosen = new URL(args.request.url).searchParams.get("abo");
  return {
    signedIn: Boolean(person),
    subscriptions,
    defaults: {
      name: own ? `${own.firstName ?? ""} ${own.lastName}`.trim() : "",
      email: own?.email ?? "",
      subscription: subscriptions.some((subscription) => String(subscription.id) === chosen)
        ? chosen!
        : subscriptions.length
          ? String(subscriptions[0].id)
          : "other",
      kind: "ORDINARY",
      end: "earliest",
    },
  };
}

type Received = {
  receivedOn: string;
  name: string;
  email: string;
  contract: string;
  kind: NoticeKind;
  reason: string | null;
  wantedEnd: string | null;
  end: string | null;
};
type ActionData = { result: SubmissionResult<string[]> } | { received: Received };

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const submission = parseWithZod(await readForm(request), { schema: noticeSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  if (value.end === "date" && value.wantedEnd! < todayInBerlin()) {
    return data<ActionData>({ result: submission.reply({ fieldErrors: { wantedEnd: ["Der Tag liegt in der Vergangenheit."] } }) }, { status: 400 });
  }
  // Signed in, an Abo chosen from the list is the person's own (checked again by the model).
  const session = await optionalPortalSession(args);
  const chosenId = value.subscription && value.subscription !== "other" && session?.person ? Number(value.subscription) : null;
  if (chosenId === null && !value.contract) {
    return data<ActionData>({ result: submission.reply({ fieldErrors: { contract: [CONTRACT_MISSING] } }) }, { status: 400 });
  }
  const actor = chosenId !== null ? (await requirePortalPerson(args)).actor : { name: `${value.name} (Verträge hier kündigen)` };
  const declaration = {
    name: value.name,
    email: value.email,
    contract: value.contract ?? "",
    kind: value.kind,
    reason: value.kind === "EXTRAORDINARY" ? value.reason : null,
    wantedEnd: value.end === "date" ? value.wantedEnd : null,
  };
  const outcome = await receiveNotice(
    context.db,
    { ...declaration, from: clientAddress(request), subscription: chosenId === null ? undefined : { personId: session!.person!.id, cardId: chosenId } },
    actor,
  );
  if (outcome.status === "limited") return data<ActionData>({ result: submission.reply({ formErrors: [NOTICES_LIMITED] }) }, { status: 429 });
  if (outcome.status === "refused")
    return data<ActionData>({ result: submission.reply({ fieldErrors: { subscription: [outcome.message] } }) }, { status: 409 });
  const received: Received = { ...declaration, contract: outcome.contract, email: outcome.email, receivedOn: outcome.receivedOn, end: outcome.end };
  sendAfterAnswer(context, mailNoticeReceipt(context.cloudflare.env, context.db, { id: outcome.id, ...received }), "Eingangsbestätigung der Kündigung");
  return data<ActionData>({ received });
}

export default function GiveNotice() {
  const { signedIn, subscriptions, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const [form, fields] = useForm<z.input<typeof noticeSchema>, z.output<typeof noticeSchema>>({
    id: "notice-declaration",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: noticeSchema }),
    defaultValue: defaults,
  });
  const received = actionData && "received" in actionData ? actionData.received : null;
  return (
    <section aria-labelledby="notice-title">
      <h1 id="notice-title" className="text-2xl font-semibold text-wuff-800">
        Verträge hier kündigen
      </h1>
      {received ? (
        <>
          <PortalNotice tone="success">
            {`Deine Kündigung ist am ${formatDateTimeWithSeconds(received.receivedOn)} Uhr bei uns eingegangen. Die Bestätigung mit ihrem Inhalt geht an ${received.email}.`}
          </PortalNotice>
          <p className="mt-4 text-slate-700">
            {`Deine Erklärung: „Hiermit kündige ich ${NOTICE_KIND_LABELS[received.kind]} den folgenden Vertrag: ${received.contract}“${received.reason ? ` Grund: ${received.reason}.` : ""} Gewünschtes Ende: ${received.wantedEnd ? `zum ${formatDate(received.wantedEnd)}` : "zum nächstmöglichen Zeitpunkt"}. Erklärt von ${received.name}.`}
          </p>
          <p className="mt-2 font-medium text-slate-800">
            {received.end
              ? `Dein Vertrag endet am ${formatDate(received.end)}.`
              : "Dein Vertrag endet zum gewünschten Zeitpunkt, frühestens zum nächstmöglichen. Sobald wir die Kündigung deinem Vertrag zugeordnet haben, bestätigen wir dir das genaue Datum per E-Mail."}
          </p>
          <p className="mt-2 text-sm text-slate-600">Du kannst diese Seite speichern oder drucken, um die Kündigung nachzuweisen.</p>
        </>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            Hier kündigst du einen Vertrag, den du bei uns geschlossen hast, zum Beispiel ein Abo. Dafür brauchst du kein Konto. Die Bestätigung mit Datum und
            Uhrzeit des Eingangs schicken wir an deine E-Mail-Adresse.
          </p>
          <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" aria-labelledby="notice-title">
            {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
            <PortalRadioGroup
              meta={fields.kind}
              legend="Art der Kündigung"
              options={[
                { value: "ORDINARY", label: "Ordentliche Kündigung" },
                { value: "EXTRAORDINARY", label: "Außerordentliche Kündigung aus wichtigem Grund", hint: "Bitte nenne den Grund unten." },
              ]}
            />
            <PortalTextArea meta={fields.reason} label="Grund (nur bei außerordentlicher Kündigung)" rows={2} />
            <PortalField meta={fields.name} label="Dein Name" autoComplete="name" />
            {signedIn && subscriptions.length > 0 && (
              <PortalRadioGroup
                meta={fields.subscription}
                legend="Welchen Vertrag kündigst du?"
                options={[
                  ...subscriptions.map((subscription) => ({
                    value: String(subscription.id),
                    label: `${subscription.name} (Abo seit ${formatDate(subscription.validFrom)})`,
                    hint: `Frühestes Ende bei ordentlicher Kündigung heute: ${formatDate(subscription.earliestEnd)}`,
                  })),
                  { value: "other", label: "Einen anderen Vertrag (bitte unten beschreiben)" },
                ]}
              />
            )}
            <PortalTextArea
              meta={fields.contract}
              label={
                signedIn && subscriptions.length > 0
                  ? "Anderer Vertrag (nur wenn oben nicht dabei)"
                  : "Welchen Vertrag kündigst du? (z. B. Abo, seit wann, für wen)"
              }
              rows={3}
            />
            <PortalRadioGroup
              meta={fields.end}
              legend="Wann soll der Vertrag enden?"
              options={[
                { value: "earliest", label: "Zum nächstmöglichen Zeitpunkt" },
                { value: "date", label: "Zu einem bestimmten Tag (unten angeben)" },
              ]}
            />
            <PortalField meta={fields.wantedEnd} label="Gewünschtes Ende (TT.MM.JJJJ)" autoComplete="off" />
            <PortalField meta={fields.email} label="E-Mail-Adresse für die Bestätigung" type="email" autoComplete="email" inputMode="email" />
            <PortalSubmit>Jetzt kündigen</PortalSubmit>
          </Form>
        </>
      )}
    </section>
  );
}
