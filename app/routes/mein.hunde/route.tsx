/**
 * Mein Wuff, Meine Hunde (issue 32 item 3): the person's dogs with chip number and the proofs Wuff
 * warns about (rabies vaccination, liability insurance), and the upload of a paper for each (PDF,
 * JPEG or PNG up to 10 MB, the type read from the file). What a paper proves counts once staff
 * confirmed it; until then it shows as 'wird geprüft'. Complete without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PortalField, PortalNotice, PortalPage, PortalPart, PortalSubmit } from "~/components/portal";
import { DOG_PAPER_LABELS, DOG_PAPER_STATUS_LABELS, MAX_PAPER_BYTES, type DogPaperKind } from "~/lib/dog-papers";
import { formatDate, formatDateTime, todayInBerlin } from "~/lib/format";
import { PAPER_UPLOADED } from "~/lib/portal";
import { hasRunOut, isRabiesExpired } from "~/lib/rabies";
import { ownDogs, uploadPaper, type OwnDog, type PaperRow } from "~/models/dog-papers.server";
import { requirePortalPerson } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { insurancePaperSchema, rabiesPaperSchema } from "./schema";

export const meta: MetaFunction = () => [{ title: "Meine Hunde – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const dogs = await ownDogs(args.context.db, person.id);
  return { dogs, today: todayInBerlin() };
}

type ActionData = { dogId: number; kind: DogPaperKind; result: SubmissionResult<string[]> };

export async function action(args: ActionFunctionArgs) {
  const { person, actor } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const form = await readForm(args.request);
  const kind: DogPaperKind = form.get("kind") === "INSURANCE" ? "INSURANCE" : "RABIES";
  const dogId = Number(form.get("dogId")) || 0;
  const submission = kind === "RABIES" ? parseWithZod(form, { schema: rabiesPaperSchema }) : parseWithZod(form, { schema: insurancePaperSchema });
  if (submission.status !== "success") return data<ActionData>({ dogId, kind, result: submission.reply() }, { status: 400 });
  const value: { dogId: number; rabiesValidUntil?: string; insuranceCompany?: string; insurancePolicyNr?: string | null; insuranceValidUntil?: string } =
    submission.value;
  const file = form.get("file");
  const outcome = await uploadPaper(
    cloudflare.env.PAPERS,
    db,
    {
      personId: person.id,
      dogId: value.dogId,
      kind,
      file: file instanceof File ? file : null,
      claims: {
        rabiesValidUntil: value.rabiesValidUntil ?? null,
        insuranceCompany: value.insuranceCompany ?? null,
        insurancePolicyNr: value.insurancePolicyNr ?? null,
        insuranceValidUntil: value.insuranceValidUntil ?? null,
      },
    },
    actor,
  );
  // Someone else's dog, or one archived: as if it did not exist.
  if (outcome.status === "missing") throw new Response("Nicht gefunden", { status: 404 });
  if (outcome.status === "refused") {
    return data<ActionData>({ dogId, kind, result: submission.reply({ fieldErrors: { file: [outcome.message] } }) }, { status: 400 });
  }
  return redirectWithToast(cloudflare.env, "/mein/hunde", { type: "success", message: PAPER_UPLOADED });
}

export default function MyDogs() {
  const { dogs, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <PortalPage
      id="my-dogs-title"
      title="Meine Hunde"
      intro="Deine Hunde und ihre Nachweise. Lade einen neuen Nachweis hoch, sobald du ihn hast: Der Verein prüft ihn, danach gilt das Datum."
    >
      {dogs.length === 0 && <p className="mt-4 text-slate-700">Bei uns ist noch kein Hund von dir eingetragen. Sprich uns gern an.</p>}
      {/* A post that names none of the dogs (a hand-made request): its message above the cards. */}
      {actionData && !dogs.some((dog) => dog.id === actionData.dogId) && <PortalNotice tone="error">Bitte einen Hund wählen</PortalNotice>}
      {dogs.map((dog) => (
        <DogCard key={dog.id} dog={dog} today={today} actionData={actionData?.dogId === dog.id ? actionData : undefined} />
      ))}
    </PortalPage>
  );
}

function DogCard({ dog, today, actionData }: { dog: OwnDog; today: string; actionData?: ActionData }) {
  const titleId = `dog-${dog.id}-title`;
  const rabiesExpired = isRabiesExpired(dog.rabiesValidUntil, today);
  const insuranceExpired = hasRunOut(dog.insuranceValidUntil, today);
  return (
    <PortalPart id={titleId} title={dog.commonName}>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {dog.breed && (
          <>
            <dt className="text-slate-600">Rasse</dt>
            <dd>{dog.breed}</dd>
          </>
        )}
        <dt className="text-slate-600">Chipnummer</dt>
        <dd>{dog.chipNr ?? "nicht eingetragen"}</dd>
        <dt className="text-slate-600">Tollwutimpfung</dt>
        <dd className={rabiesExpired ? "font-medium text-red-700" : undefined}>
          {dog.rabiesValidUntil ? `gültig bis ${formatDate(dog.rabiesValidUntil)}${rabiesExpired ? " (abgelaufen)" : ""}` : "kein Nachweis"}
        </dd>
        <dt className="text-slate-600">Haftpflicht</dt>
        <dd className={insuranceExpired ? "font-medium text-red-700" : undefined}>
          {dog.insuranceValidUntil
            ? `${dog.insuranceCompany ?? ""}${dog.insurancePolicyNr ? `, Nr. ${dog.insurancePolicyNr}` : ""}, gültig bis ${formatDate(dog.insuranceValidUntil)}${insuranceExpired ? " (abgelaufen)" : ""}`
            : "kein Nachweis"}
        </dd>
      </dl>
      {dog.papers.length > 0 && <PaperList papers={dog.papers} dogName={dog.commonName} />}
      <PaperForm dog={dog} kind="RABIES" actionData={actionData?.kind === "RABIES" ? actionData : undefined} />
      <PaperForm dog={dog} kind="INSURANCE" actionData={actionData?.kind === "INSURANCE" ? actionData : undefined} />
    </PortalPart>
  );
}

function PaperList({ papers, dogName }: { papers: PaperRow[]; dogName: string }) {
  return (
    <>
      <h3 className="mt-4 text-sm font-semibold text-slate-800">Hochgeladene Nachweise</h3>
      <ul className="mt-1 space-y-2 text-sm">
        {papers.map((paper) => (
          <li key={paper.id} className="rounded bg-slate-50 p-2">
            <Link to={`/mein/nachweise/${paper.id}`} reloadDocument className="text-wuff-700 underline">
              {DOG_PAPER_LABELS[paper.kind]}: {paper.fileName}
              <span className="sr-only"> ({dogName})</span>
            </Link>
            <span className="block text-slate-700">
              hochgeladen am {formatDateTime(paper.uploadedOn)}, {DOG_PAPER_STATUS_LABELS[paper.status]}
              {paper.status === "DECLINED" && paper.declineReason ? `: ${paper.declineReason}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

const MEGABYTES = MAX_PAPER_BYTES / 1024 / 1024;

function PaperForm({ dog, kind, actionData }: { dog: OwnDog; kind: DogPaperKind; actionData?: ActionData }) {
  const formId = `paper-${dog.id}-${kind}`;
  const [form, fields] = useForm<Record<string, string>>({
    id: formId,
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
  });
  const fileError = fields.file.errors;
  const title = kind === "RABIES" ? "Neuen Impfnachweis hochladen" : "Neuen Versicherungsnachweis hochladen";
  return (
    <details className="mt-4 rounded border border-slate-200 p-3" open={actionData !== undefined}>
      <summary className="cursor-pointer font-medium text-wuff-800">
        {title}
        <span className="sr-only"> ({dog.commonName})</span>
      </summary>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} aria-label={`${title} für ${dog.commonName}`} className="mt-3 space-y-3">
        <input type="hidden" name="dogId" value={dog.id} />
        <input type="hidden" name="kind" value={kind} />
        {kind === "RABIES" ? (
          <PortalField meta={fields.rabiesValidUntil} label="Impfung gültig bis (TT.MM.JJJJ)" autoComplete="off" />
        ) : (
          <>
            <PortalField meta={fields.insuranceCompany} label="Versicherung" autoComplete="off" />
            <PortalField meta={fields.insurancePolicyNr} label="Versicherungsnummer" autoComplete="off" />
            <PortalField meta={fields.insuranceValidUntil} label="Gültig bis (TT.MM.JJJJ)" autoComplete="off" />
          </>
        )}
        <div>
          <label htmlFor={`${formId}-file`} className="block text-sm font-medium text-slate-800">
            Datei (PDF, JPEG oder PNG, höchstens {MEGABYTES} MB)
          </label>
          <input
            id={`${formId}-file`}
            name="file"
            type="file"
            required
            accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png"
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? `${formId}-file-error` : undefined}
            className="mt-1 block w-full text-sm"
          />
          {fileError && (
            <p id={`${formId}-file-error`} className="mt-1 text-sm text-red-700">
              {fileError.join(" ")}
            </p>
          )}
        </div>
        {form.errors && <PortalNotice tone="error">{form.errors.join(" ")}</PortalNotice>}
        <PortalSubmit>Nachweis hochladen</PortalSubmit>
      </Form>
    </details>
  );
}
