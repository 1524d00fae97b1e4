import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, TextField, RecordKeys } from "~/components/forms/fields";
import type { CertificationMasterDialogData, CertificationMasterFormRecord } from "./dialog.server";
import { certificationMasterSchema, type CertificationMasterFormValues } from "./schema";

/** 'Erfolgsart hinzufügen' and 'Erfolgsart {name} bearbeiten'. */
export default function CertificationMasterDialog({ data, actionData, closeHref }: DialogProps<CertificationMasterDialogData>) {
  const master = (actionData?.current as CertificationMasterFormRecord | undefined) ?? data.master;
  const [form, fields] = useRecordForm<CertificationMasterFormValues>(certificationMasterSchema, {
    name: "certificationMaster",
    record: master,
    values: master ?? {},
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={master ? `Erfolgsart ${master.name} bearbeiten` : "Erfolgsart hinzufügen"} closeHref={closeHref}>
      <DialogForm intent="certificationMaster:save" {...getFormProps(form)}>
        <RecordKeys record={master} />
        <div className="grid gap-3">
          <TextField meta={fields.name} label="Name" />
          <CheckboxField meta={fields.isPersonCertification} label="für Personen" />
          <CheckboxField meta={fields.isDogCertification} label="für Hunde" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={master?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
