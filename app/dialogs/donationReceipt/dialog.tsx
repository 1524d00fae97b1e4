import { getFormProps } from "@conform-to/react";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { FormErrors, SelectField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { CollectiveReceiptsDialogData } from "./dialog.server";
import { collectiveReceiptsSchema, type CollectiveReceiptsFormValues } from "./schema";

/**
 * 'Sammelbestätigungen ausstellen' (issue 35 item 5): one Sammelbestätigung per donor over the
 * chosen year's donations not yet confirmed, numbered, as PDF kept in Wuff.
 */
export default function CollectiveReceiptsDialog({ data, actionData, closeHref }: DialogProps<CollectiveReceiptsDialogData>) {
  const [form, fields] = useRecordForm<CollectiveReceiptsFormValues>(collectiveReceiptsSchema, {
    name: "donationReceipt",
    record: null,
    values: data.values,
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title="Sammelbestätigungen ausstellen" closeHref={closeHref}>
      <DialogForm intent="donationReceipt:save" {...getFormProps(form)}>
        <p className="mb-3 text-sm text-slate-700">
          Jede Spenderin und jeder Spender erhält eine Sammelbestätigung über alle Spenden des Jahres, die noch keine Bestätigung haben. Wer keine Anschrift
          hat, wird übersprungen und genannt. Die PDFs werden nummeriert und zehn Jahre aufbewahrt.
        </p>
        {data.years.length > 0 && <SelectField meta={fields.year} label="Jahr" options={data.years} />}
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <DialogButtons submitLabel="Ausstellen" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}
