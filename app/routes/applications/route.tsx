/**
 * Mitgliedsanträge (issue 32 item 6): the applications from the public form whose address is
 * confirmed, the oldest first. Staff read what the applicant entered and accepted (statutes and
 * privacy notice in which version), then accept it (a member from the date they choose, with the
 * dogs, the year's fees and the mandate; for somebody already in Wuff with that address, that
 * person becomes the member) or decline it; the applicant gets a mail either way. Plain forms:
 * works without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageAlert } from "~/components/error-message";
import { SCREEN_TITLES } from "~/components/navigation";
import { ReviewScreen } from "~/components/review-screen";
import { maskIban } from "~/lib/banking";
import { formatDate, formatDateTime, todayInBerlin } from "~/lib/format";
import { germanDate, id, optionalId, optionalText } from "~/lib/form-fields";
import { dogGenderText } from "~/lib/labels";
import { acceptApplication, declineApplication, openApplications, type Decision, type OpenApplication } from "~/models/membership-applications.server";
import { personFormOptions } from "~/models/people.server";
import { storeMandatePdf } from "~/services/mandate-pdfs.server";
import { requireAccess } from "~/services/auth.server";
import { mailApplicationAccepted, mailApplicationDeclined, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

const TITLE = SCREEN_TITLES.applications;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "applications");
  const [applications, options] = await Promise.all([openApplications(args.context.db), personFormOptions(args.context.db)]);
  return { applications, options, today: formatDate(todayInBerlin()) };
}

const decisionSchema = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("accept"),
    applicationId: z.coerce.number().pipe(id("Diesen Antrag gibt es nicht.")),
    memberSince: germanDate("Bitte angeben, seit wann die Person Mitglied ist"),
    memberTypeId: z.coerce.number().pipe(id("Bitte eine Mitgliedsart wählen")),
    membershipStatusId: z
      .string()
      .optional()
      .transform((value) => (value ? Number(value) : undefined))
      .pipe(optionalId()),
    person: z.union([z.literal("neu"), z.coerce.number().pipe(id("Diese Person gibt es nicht."))], { error: "Bitte wählen, wer Mitglied wird" }),
  }),
  z.object({
    decision: z.literal("decline"),
    applicationId: z.coerce.number().pipe(id("Diesen Antrag gibt es nicht.")),
    reason: optionalText(500),
  }),
]);

type ActionData = { error: string; applicationId?: number };

function refusal(decision: Exclude<Decision, { status: "decided" }>) {
  if (decision.status === "missing") return data<ActionData>({ error: "Diesen Antrag gibt es nicht." }, { status: 404 });
  if (decision.status === "already") return data<ActionData>({ error: "Über diesen Antrag wurde inzwischen schon entschieden." }, { status: 409 });
  return data<ActionData>({ error: decision.message }, { status: 400 });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "applications");
  const { db, cloudflare } = args.context;
  const form = await readForm(args.request);
  const parsed = decisionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const applicationId = Number(form.get("applicationId")) || undefined;
    return data<ActionData>({ error: parsed.error.issues[0].message, applicationId }, { status: 400 });
  }
  const input = parsed.data;
  if (input.decision === "decline") {
    const declined = await declineApplication(db, { applicationId: input.applicationId, reason: input.reason }, user);
    if (declined.status !== "decided") return refusal(declined);
    sendAfterAnswer(args.context, mailApplicationDeclined(cloudflare.env, db, declined.applicant, input.reason), "Absage des Mitgliedsantrags");
    return redirectWithToast(cloudflare.env, "/applications", {
      type: "success",
      message: `Mitgliedsantrag von ${declined.applicant.firstName} ${declined.applicant.lastName} abgelehnt; eine E-Mail ist unterwegs.`,
    });
  }
  const accepted = await acceptApplication(
    db,
    {
      applicationId: input.applicationId,
      memberSince: input.memberSince,
      memberTypeId: input.memberTypeId,
      membershipStatusId: input.membershipStatusId,
      personId: input.person === "neu" ? null : input.person,
    },
    user,
  );
  if (accepted.status !== "decided") return refusal(accepted);
  const portalLink = `${new URL(args.request.url).origin}/mein`;
  sendAfterAnswer(
    args.context,
    mailApplicationAccepted(cloudflare.env, db, accepted.applicant, { memberSince: input.memberSince, portalLink }),
    "Willkommensmail des Mitgliedsantrags",
  );
  if (accepted.mandateId !== null) {
    const mandateId = accepted.mandateId;
    cloudflare.ctx.waitUntil(
      storeMandatePdf(cloudflare.env, db, mandateId).catch((error: unknown) =>
        console.error("PDF des Lastschriftmandats nicht erzeugt (der tägliche Lauf holt es nach)", error),
      ),
    );
  }
  return redirectWithToast(cloudflare.env, `/people?selectedPersonId=${accepted.personId}`, {
    type: "success",
    message: `Mitgliedsantrag angenommen: ${accepted.applicant.firstName} ${accepted.applicant.lastName} ist Mitglied seit ${formatDate(input.memberSince)}.`,
  });
}

export default function Applications() {
  const { applications, options, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <ReviewScreen
      id="applications-title"
      title={TITLE}
      intro={
        <>
          Anträge aus dem Formular „Mitglied werden“, deren E-Mail-Adresse bestätigt ist. Angenommen wird die Person Mitglied mit ihren Hunden, dem
          Jahresbeitrag, der Aufnahmegebühr und ihrem Lastschriftmandat; abgelehnt bekommt sie eine Absage.
        </>
      }
    >
      <PageAlert message={actionData && !actionData.applicationId ? actionData.error : null} />
      {applications.length === 0 ? (
        <p className="text-slate-700">Keine Mitgliedsanträge zu entscheiden.</p>
      ) : (
        <ul className="space-y-4">
          {applications.map((application) => (
            <ApplicationCard
              key={application.id}
              application={application}
              options={options}
              today={today}
              error={actionData?.applicationId === application.id ? actionData.error : null}
            />
          ))}
        </ul>
      )}
    </ReviewScreen>
  );
}

type Options = Awaited<ReturnType<typeof personFormOptions>>;

const fieldClass = "mt-1 rounded border border-slate-300 px-2 py-1 text-sm";

function ApplicationCard({ application: a, options, today, error }: { application: OpenApplication; options: Options; today: string; error: string | null }) {
  const name = `${a.firstName} ${a.lastName}`;
  const typeName = options.memberTypes.find((type) => type.id === a.memberTypeId)?.name ?? "(gibt es nicht mehr)";
  const prefix = `application-${a.id}`;
  return (
    <li className="rounded border border-slate-200 bg-white p-4" aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`} className="font-semibold text-slate-900">
        {a.salutation ? `${a.salutation} ` : ""}
        {name} <span className="font-normal text-slate-600">· {typeName}</span>
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-800">
        <dt className="text-slate-600">Anschrift</dt>
        <dd>
          {a.streetNumber}, {a.zip} {a.city}
        </dd>
        <dt className="text-slate-600">E-Mail</dt>
        <dd>{a.email}</dd>
        {a.phone && (
          <>
            <dt className="text-slate-600">Telefon</dt>
            <dd>{a.phone}</dd>
          </>
        )}
        <dt className="text-slate-600">Geboren</dt>
        <dd>{formatDate(a.dateOfBirth)}</dd>
        {a.guardianName && (
          <>
            <dt className="text-slate-600">Erziehungsberechtigt</dt>
            <dd>{a.guardianName} (stimmt dem Antrag zu)</dd>
          </>
        )}
        <dt className="text-slate-600">Hunde</dt>
        <dd>
          {a.dogs.length === 0
            ? "keine"
            : a.dogs
                .map((dog) =>
                  [
                    dog.commonName,
                    dog.breed,
                    dogGenderText(dog.gender),
                    dog.dateOfBirth && `geb. ${formatDate(dog.dateOfBirth)}`,
                    dog.chipNr && `Chip ${dog.chipNr}`,
                  ]
                    .filter(Boolean)
                    .join(", "),
                )
                .join("; ")}
        </dd>
        <dt className="text-slate-600">Lastschrift</dt>
        <dd>{a.iban ? `Mandat erteilt: ${a.accountHolder}, ${maskIban(a.iban)}` : "kein Mandat (Rechnung)"}</dd>
        {a.message && (
          <>
            <dt className="text-slate-600">Nachricht</dt>
            <dd className="whitespace-pre-line">{a.message}</dd>
          </>
        )}
        <dt className="text-slate-600">Anerkannt</dt>
        <dd>
          Satzung Fassung {a.statutesVersion}, Datenschutzhinweise Fassung {a.privacyVersion}
        </dd>
        <dt className="text-slate-600">Gestellt</dt>
        <dd>
          {formatDateTime(a.createdOn)}, E-Mail-Adresse bestätigt {formatDateTime(a.confirmedOn)}
        </dd>
      </dl>
      <PageAlert message={error} />
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-3 border-t border-slate-100 pt-3" aria-label={`Antrag von ${name} annehmen`}>
        <input type="hidden" name="applicationId" value={a.id} />
        <div>
          <label htmlFor={`${prefix}-since`} className="block text-xs text-slate-700">
            Mitglied seit
          </label>
          <input id={`${prefix}-since`} name="memberSince" defaultValue={today} className={`${fieldClass} w-28`} />
        </div>
        <div>
          <label htmlFor={`${prefix}-type`} className="block text-xs text-slate-700">
            Mitgliedsart
          </label>
          <select id={`${prefix}-type`} name="memberTypeId" defaultValue={a.memberTypeId} className={fieldClass}>
            {options.memberTypes.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${prefix}-status`} className="block text-xs text-slate-700">
            Status
          </label>
          <select id={`${prefix}-status`} name="membershipStatusId" defaultValue={options.membershipStatuses[0]?.id ?? ""} className={fieldClass}>
            <option value="">(keiner)</option>
            {options.membershipStatuses.map((status) => (
              <option key={status.id} value={status.id}>
                {status.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${prefix}-person`} className="block text-xs text-slate-700">
            Person
          </label>
          <select id={`${prefix}-person`} name="person" defaultValue={a.matches[0]?.id ?? "neu"} className={fieldClass}>
            <option value="neu">neu anlegen</option>
            {a.matches.map((person) => (
              <option key={person.id} value={person.id}>
                {person.fullName} (schon in Wuff{person.isMember ? ", Mitglied" : ""})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" name="decision" value="accept" className="rounded bg-wuff-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-wuff-800">
          Annehmen<span className="sr-only"> ({name})</span>
        </button>
      </Form>
      {a.matches.length > 0 && (
        <p className="mt-1 text-xs text-slate-600">
          Mit dieser E-Mail-Adresse schon in Wuff:{" "}
          {a.matches.map((person, index) => (
            <span key={person.id}>
              {index > 0 && ", "}
              <Link to={`/people?selectedPersonId=${person.id}`} className="text-wuff-700 underline">
                {person.fullName}
              </Link>
            </span>
          ))}
          . Angenommen für diese Person werden ihre Anschrift und ihr Geburtsdatum aus dem Antrag übernommen.
        </p>
      )}
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-2" aria-label={`Antrag von ${name} ablehnen`}>
        <input type="hidden" name="applicationId" value={a.id} />
        <div>
          <label htmlFor={`${prefix}-reason`} className="block text-xs text-slate-700">
            Grund (freiwillig, steht in der Absage)
          </label>
          <input id={`${prefix}-reason`} name="reason" maxLength={500} className={`${fieldClass} w-64`} />
        </div>
        <button
          type="submit"
          name="decision"
          value="decline"
          className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
        >
          Ablehnen<span className="sr-only"> ({name})</span>
        </button>
      </Form>
    </li>
  );
}
