import { defineGrid } from "~/components/data-grid/declare";
import { TEMPLATE_KIND_LABELS } from "~/lib/labels";
import { listTemplates, pageOfTemplate, TEMPLATE_DEFAULT_SORT, type TemplateRow } from "~/models/templates.server";

/** Vorlagen (ADMIN, reached from Einstellungen): the invoice PDF's and the mails' templates. */
export const templatesGrid = defineGrid<TemplateRow>({
  id: "templates",
  entity: "template",
  area: "templates",
  mounts: {
    PARENT: { title: "Vorlagen", hint: "Die Rechnungs-PDFs entstehen aus der Vorlage „invoice“; Werte stehen in {{doppelten Klammern}} und werden maskiert." },
  },
  columns: [
    { id: "id", header: "Id", value: (t) => t.id, type: "number", hidden: true },
    { id: "name", header: "Name", value: (t) => t.name },
    { id: "kind", header: "Art", value: (t) => TEMPLATE_KIND_LABELS[t.kind] },
    { id: "subject", header: "Betreff", value: (t) => t.subject },
    { id: "comments", header: "Kommentar", value: (t) => t.comments, hidden: true },
    { id: "lastModifiedOn", header: "Geändert am", value: (t) => t.lastModifiedOn, type: "dateTime" },
  ],
  defaultSort: TEMPLATE_DEFAULT_SORT,
  model: {
    list: (db, query) => listTemplates(db, query),
    pageOf: (db, id, query) => pageOfTemplate(db, id, query.sort, query.pageSize),
  },
  rowActions: [{ label: "Vorschau", href: (t) => `/templates/preview/${t.id}`, newTab: true, when: (t) => t.kind === "INVOICE" }],
  emptyText: "Keine Vorlagen",
});
