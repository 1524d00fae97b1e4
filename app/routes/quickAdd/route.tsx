import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { FormErrors, SelectField, TextField } from "~/components/forms/fields";
import { useHydrated } from "~/components/use-hydrated";
import { SALUTATION_BY_CODE } from "~/lib/labels";
import { PEOPLE_DEFAULT_SORT, pageOfPerson, quickAddPersonWithDog } from "~/models/people.server";
import { requireAccess, safeReturnPath } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { quickAddSchema } from "./schema";
import { useSaveGate } from "~/components/forms/save-gate";

export const meta: MetaFunction = () => [{ title: "Mensch/Hund Mini+ – Wuff" }];

export const NO_MEMBER_TYPE = "Could not find a membership type with code NONE";
export const DUPLICATE_PERSON = "Es gibt bereits eine Person mit diesem Namen";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "quickAdd");
  return { returnTo: safeReturnPath(new URL(args.request.url).searchParams.get("returnTo") ?? "/") };
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "quickAdd");
  const submission = parseWithZod(await readForm(args.request), { schema: quickAddSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), warning: null }, { status: 400 });
  const input = submission.value;
  const outcome = await quickAddPersonWithDog(
    args.context.db,
    {
      salutation: SALUTATION_BY_CODE[input.personGender],
      firstName: input.ownerFirstName,
      lastName: input.ownerLastName,
      dogCommonName: input.dogCommonName,
      dogGender: Number(input.dogGender),
    },
    user,
  );
  if (outcome.status === "no-member-type") return data({ result: submission.reply({ formErrors: [NO_MEMBER_TYPE] }), warning: null }, { status: 409 });
  if (outcome.status === "duplicate") return data({ result: submission.reply(), warning: DUPLICATE_PERSON }, { status: 409 });
  // The lists show both: the new person selected (on the page of the list they sort onto), with their dog.
  const page = await pageOfPerson(args.context.db, outcome.personId, { filter: "all", sort: PEOPLE_DEFAULT_SORT, withProtected: false });
  const pageParam = page && page > 1 ? `&page=${page}` : "";
  return redirectWithToast(args.context.cloudflare.env, `/people/${outcome.personId}/dogs?dog=${outcome.dogId}${pageParam}`, {
    type: "success",
    message: "Person und Hund wurden hinzugefügt",
  });
}

/** Mensch/Hund Mini+: a new non-member with their dog in one step. */
const QUICK_ADD_LABELS = {
  personGender: "Herr/Frau",
  ownerFirstName: "Besitzer Vorname",
  ownerLastName: "Besitzer Nachname",
  dogCommonName: "Hund Name",
  dogGender: "Hund Geschlecht",
};

export default function QuickAdd() {
  const { returnTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ result?: SubmissionResult<string[]>; warning: string | null }>();
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { dogGender: "0", memberTypeId: "0" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quickAddSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const gate = useSaveGate(quickAddSchema, QUICK_ADD_LABELS);
  return (
    <>
      {/* The page's heading (the page is just this dialog over the one before). */}
      <h1 className="sr-only">Mensch/Hund Mini+</h1>
      <RouteDialog title="Mensch/Hund Mini+" closeHref={returnTo}>
        <Form method="post" {...getFormProps(form)} ref={gate.form} onInput={gate.check} onChange={gate.check}>
          <input type="hidden" name="memberTypeId" value="0" />
          <input type="hidden" name="returnTo" value={returnTo} />
          <div className="grid grid-cols-2 gap-3">
            <SelectField
              meta={fields.personGender}
              label="Herr/Frau"
              options={[
                { value: "1", label: "Herr" },
                { value: "2", label: "Frau" },
              ]}
              placeholder="Bitte wählen"
              className="col-span-2"
            />
            <TextField meta={fields.ownerFirstName} label="Besitzer Vorname" />
            <TextField meta={fields.ownerLastName} label="Besitzer Nachname" />
            <TextField meta={fields.dogCommonName} label="Hund Name" />
            <SelectField
              meta={fields.dogGender}
              label="Hund Geschlecht"
              options={[
                { value: "1", label: "männlich" },
                { value: "2", label: "weiblich" },
                { value: "0", label: "(unbekannt)" },
              ]}
            />
          </div>
          {actionData?.warning && (
            <p role="alert" data-toast="warning" className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
              {actionData.warning}
            </p>
          )}
          <FormErrors errors={form.errors} id={form.errorId} />
          <DialogButtons submitLabel="Speichern" closeHref={returnTo} disabled={hydrated && gate.reason !== null} reason={gate.reason} />
        </Form>
      </RouteDialog>
    </>
  );
}
