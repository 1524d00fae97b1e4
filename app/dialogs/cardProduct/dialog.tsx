import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import {
  AccountFields,
  CheckboxField,
  CheckboxGroupField,
  MoneyField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
  RecordKeys,
} from "~/components/forms/fields";
import { CARD_KIND_LABELS, SUBSCRIPTION_PERIOD_LABELS } from "~/lib/cards";
import { TAX_CASE_OPTIONS } from "~/lib/tax";
import type { CardProductDialogData, CardProductFormRecord } from "./dialog.server";
import { cardProductSchema, type CardProductFormValues } from "./schema";

const KIND_OPTIONS = Object.entries(CARD_KIND_LABELS).map(([value, label]) => ({ value, label }));
const PERIOD_OPTIONS = Object.entries(SUBSCRIPTION_PERIOD_LABELS).map(([value, label]) => ({ value, label }));

/**
 * 'Produkt hinzufügen' and "Produkt '{name}' bearbeiten": a Karte's units and validity or an Abo's
 * period, minimum term and notice (both sets shown: without JavaScript the kind is not known before
 * saving; the server keeps the set of the kind chosen).
 */
export default function CardProductDialog({ data, actionData, closeHref }: DialogProps<CardProductDialogData>) {
  const product = (actionData?.current as CardProductFormRecord | undefined) ?? data.product;
  const [form, fields] = useRecordForm<CardProductFormValues>(cardProductSchema, {
    name: "cardProduct",
    record: product,
    values: product ?? { kind: "CARD", units: 10, validMonths: 6, unitsPerAttendance: 1, isOffered: true, taxCase: "STANDARD", noticeMonths: 1 },
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={product ? `Produkt '${product.name}' bearbeiten` : "Produkt hinzufügen"} closeHref={closeHref}>
      <DialogForm intent="cardProduct:save" {...getFormProps(form)}>
        <RecordKeys record={product} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.name} label="Name" className="col-span-2" />
          <SelectField meta={fields.kind} label="Art" options={KIND_OPTIONS} />
          <NumberField meta={fields.unitsPerAttendance} label="Einheiten je Termin" />
          <fieldset className="col-span-2 grid grid-cols-2 gap-3 border-t border-slate-200 pt-3">
            <legend className="col-span-2 text-sm font-medium text-slate-800">Karte</legend>
            <NumberField meta={fields.units} label="Einheiten" />
            <NumberField meta={fields.validMonths} label="Gültig (Monate ab Kauf)" />
          </fieldset>
          <fieldset className="col-span-2 grid grid-cols-2 gap-3 border-t border-slate-200 pt-3">
            <legend className="col-span-2 text-sm font-medium text-slate-800">Abo</legend>
            <SelectField meta={fields.period} label="Abrechnung" options={PERIOD_OPTIONS} placeholder="bitte wählen" />
            <NumberField meta={fields.minTermMonths} label="Mindestlaufzeit (Monate, höchstens 24)" />
            <NumberField meta={fields.noticeMonths} label="Kündigungsfrist (Monate, 0 oder 1)" />
          </fieldset>
          <MoneyField meta={fields.priceFull} label="Preis Nichtmitglieder" className="col-span-2" />
          <MoneyField meta={fields.priceReduced1} label="Preis ermäßigt 1" />
          <MoneyField meta={fields.priceReduced2} label="Preis ermäßigt 2" />
          <SelectField meta={fields.taxCase} label="Umsatzsteuer" className="col-span-2" options={TAX_CASE_OPTIONS} />
          <AccountFields account={fields.accountNumber} sphere={fields.sphere} />
          <CheckboxGroupField
            meta={fields.courseMasterIds}
            label="Gilt für diese Kurs-Typen (ihre fortlaufenden Gruppen)"
            className="col-span-2"
            options={data.masters}
          />
          <CheckboxGroupField meta={fields.courseIds} label="… oder für diese Gruppen" className="col-span-2" options={data.groups} />
          <CheckboxField meta={fields.isOffered} label="Im Verkauf" className="col-span-2" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={product?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
