/**
 * 'Vertrag widerrufen' for everyone (issue 33 item 4, § 356a BGB): the withdrawal function must be
 * at hand without an account, so this public page takes a declaration from anyone. The footer's
 * 'Vertrag widerrufen' is the first step, this form's 'Widerruf bestätigen' the second; the
 * declaration is stored with the time and address it was received from, the page says when, and
 * the confirmation with its content goes to the address given. Staff apply it to the booking on
 * the screen 'Widerrufe'. Signed in, 'Meine Kurse' withdraws a booking at once. Complete without
 * JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { z } from "zod";
import { PortalField, PortalNotice, PortalSubmit, PortalTextArea } from "~/components/portal";
import { DECLARATION_RECEIVED, DECLARATIONS_LIMITED, normalizeEmail } from "~/lib/portal";
import { ownData } from "~/models/portal-profile.server";
import { receiveWithdrawal } from "~/models/withdrawal-declarations.server";
import { clientAddress, mailWithdrawalReceipt, optionalPortalSession, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { declarationSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Vertrag widerrufen – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const session = await optionalPortalSession(args);
  const own = session?.person ? await ownData(args.context.db, session.person.id) : undefined;
  return {
    signedIn: Boolean(session?.person),
    defaults: own ? { name: `${own.firstName ?? ""} ${own.lastName}`.trim(), email: own.email ?? "" } : { name: "", email: "" },
  };
}

type ActionData = { result: SubmissionResult<string[]> } | { received: { receivedOn: string; email: string; name: string; contract: string } };

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const submission = parseWithZod(await readForm(request), { schema: declarationSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const outcome = await receiveWithdrawal(context.db, { ...submission.value, from: clientAddress(request) });
  if (outcome.status === "limited") return data<ActionData>({ result: submission.reply({ formErrors: [DECLARATIONS_LIMITED] }) }, { status: 429 });
  const declaration = { id: outcome.id, ...submission.value, email: normalizeEmail(submission.value.email), receivedOn: outcome.receivedOn };
  sendAfterAnswer(context, mailWithdrawalReceipt(context.cloudflare.env, context.db, declaration), "Eingangsbestätigung des Widerrufs");
  return data<ActionData>({ received: { receivedOn: outcome.receivedOn, email: declaration.email, name: declaration.name, contract: declaration.contract } });
}

export default function Withdraw() {
  const { signedIn, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const [form, fields] = useForm<z.input<typeof declarationSchema>, z.output<typeof declarationSchema>>({
    id: "withdrawal-declaration",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: declarationSchema }),
    defaultValue: defaults,
  });
  const received = actionData && "received" in actionData ? actionData.received : null;
  return (
    <section aria-labelledby="withdraw-title">
      <h1 id="withdraw-title" className="text-2xl font-semibold text-wuff-800">
        Vertrag widerrufen
      </h1>
      {received ? (
        <>
          <PortalNotice tone="success">{DECLARATION_RECEIVED(received.receivedOn, received.email)}</PortalNotice>
          <p className="mt-4 text-slate-700">
            Deine Erklärung: „Hiermit widerrufe ich den folgenden Vertrag: {received.contract}“ Erklärt von {received.name}.
          </p>
        </>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            Hier widerrufst du einen Vertrag, den du online bei uns geschlossen hast, zum Beispiel eine Kursbuchung. Gib an, wer du bist und welchen Vertrag du
            widerrufst; die Bestätigung mit Datum und Uhrzeit des Eingangs schicken wir an deine E-Mail-Adresse.
          </p>
          {signedIn ? (
            <p className="mt-2 text-slate-700">
              Du bist angemeldet: Eine Buchung aus Mein Wuff widerrufst du auch direkt in{" "}
              <Link to="/mein/kurse" className="text-wuff-700 underline">
                Meine Kurse
              </Link>
              .
            </p>
          ) : (
            <p className="mt-2 text-slate-700">
              Mit einem Konto bei Mein Wuff geht es auch direkt:{" "}
              <Link to="/mein?weiter=%2Fmein%2Fkurse" className="text-wuff-700 underline">
                anmelden und in Meine Kurse widerrufen
              </Link>
              .
            </p>
          )}
          <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3" aria-labelledby="withdraw-title">
            {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
            <PortalField meta={fields.name} label="Dein Name" autoComplete="name" />
            <PortalField meta={fields.email} label="E-Mail-Adresse für die Bestätigung" type="email" autoComplete="email" inputMode="email" />
            <PortalTextArea meta={fields.contract} label="Welchen Vertrag widerrufst du? (Kurs, Hund, Tag der Buchung)" rows={3} />
            <PortalSubmit>Widerruf bestätigen</PortalSubmit>
          </Form>
        </>
      )}
    </section>
  );
}
