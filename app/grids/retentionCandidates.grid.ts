import { defineGrid, type GridDecl } from "~/components/data-grid/declare";
import { formatDate, todayInBerlin } from "~/lib/format";
import { retentionList, type RetentionCandidate } from "~/models/gdpr.server";

type Kind = "left" | "inactive";

/**
 * The retention overview's two lists (Datenschutz, ADMIN and GDPR), declared once: members who left
 * more than N years ago (`left`) and people without activity for N years (`inactive`), N from
 * Einstellungen. Each person with 'Auskunft' (the zip, Art. 15) and 'Löschen…' (the erasure
 * preview, Art. 17). The screen names each list with N and its count.
 */
const retentionGrid = (kind: Kind, prefix: string, title: string): GridDecl<RetentionCandidate> =>
  defineGrid<RetentionCandidate>({
    id: `retention-${kind}`,
    entity: null,
    area: "gdpr",
    selectable: false,
    mounts: { PARENT: { title, prefix } },
    columns: [
      { id: "fullName", header: "Person", value: (r) => r.fullName, link: (r) => ({ to: `/people/${r.id}` }), sortable: false },
      { id: "memberUntil", header: "Ausgetreten", value: (r) => r.memberUntil, type: "date", sortable: false },
      {
        id: "lastActivity",
        header: "Zuletzt aktiv",
        value: (r) => r.lastActivity?.slice(0, 10) ?? null,
        type: "date",
        display: (r) => (r.lastActivity ? formatDate(r.lastActivity.slice(0, 10)) : "keine Aktivität"),
        sortable: false,
      },
      {
        id: "nextPlanned",
        header: "Nächster Termin",
        value: (r) => r.nextPlanned?.slice(0, 10) ?? null,
        type: "date",
        display: (r) => (r.nextPlanned ? formatDate(r.nextPlanned.slice(0, 10)) : "–"),
        sortable: false,
      },
    ],
    defaultSort: { id: "fullName", descending: false },
    model: {
      // The model orders them (left: by leaving date; inactive: by name) and reads the page.
      // Only this list's query (the other grid reads the other one), the cutoff of Einstellungen in it.
      list: (db, query) => retentionList(db, kind, null, todayInBerlin(), { offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
    },
    dialogs: { add: false, edit: false, delete: false },
    rowActions: [
      { label: "Auskunft", href: (r) => `/gdpr/auskunft/${r.id}` },
      { label: "Löschen…", view: "preview", entity: "erasure" },
    ],
    commandColumn: true,
    emptyText: "Niemand.",
  });

export const retentionLeftGrid = retentionGrid("left", "left", "Ausgetreten");
export const retentionInactiveGrid = retentionGrid("inactive", "idle", "Ohne Aktivität");
