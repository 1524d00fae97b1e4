import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { DateField, LockedField, LookupSearch, LookupSelect, MoneyField, SelectField } from "~/components/forms/fields";
import type { CardSaleDialogData } from "./dialog.server";
import { cardSaleSchema, type CardSaleFormValues } from "./schema";

/** 'Karte verkaufen': a 10er-Karte or an Abo for a person, with its fee. */
export default function CardSaleDialog({ data, actionData, closeHref }: DialogProps<CardSaleDialogData>) {
  const [form, fields] = useRecordForm<CardSaleFormValues>(cardSaleSchema, {
    name: "card",
    record: null,
    values: data.defaults,
    lastResult: actionData?.result,
  });
  const personLabel = data.people.find((person) => person.id === data.defaults.personId)?.label ?? "";
  return (
    <RouteDialog title="Karte verkaufen" closeHref={closeHref}>
      {!data.personLocked && <LookupSearch field="personId" label="Person suchen" term={data.personSearch} />}
      <DialogForm intent="card:save" {...getFormProps(form)}>
        <div className="grid grid-cols-2 gap-3">
          {data.personLocked ? (
            <LockedField name={fields.personId.name} label="Person" id={data.defaults.personId} text={personLabel} />
          ) : (
            <LookupSelect meta={fields.personId} label="Person" options={data.people} emptyHint="Erst Person suchen" />
          )}
          <SelectField meta={fields.productId} label="Karte oder Abo" className="col-span-2" options={data.products} placeholder="bitte wählen" />
          <DateField meta={fields.validFrom} label="Gültig ab" />
          <MoneyField meta={fields.price} label="Preis (leer: laut Produkt)" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
