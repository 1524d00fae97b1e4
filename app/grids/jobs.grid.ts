import { defineGrid } from "~/components/data-grid/declare";
import { formatDateTime } from "~/lib/format";
import { JOB_STATUS_LABELS, jobMessage, jobTitle, progressText } from "~/lib/jobs";
import { listJobs, type JobRow } from "~/models/jobs.server";

/** Verlauf (Tasks screen): every bulk run, newest first, with who started it and what it did. */
export const jobsGrid = defineGrid<JobRow>({
  id: "jobs",
  entity: null,
  area: "tasks",
  mounts: { PARENT: { title: "Verlauf", maxHeight: "24rem" } },
  columns: [
    { id: "id", header: "Lauf", value: (r) => r.id, type: "number", sortable: false, widthRem: 4 },
    { id: "type", header: "Aufgabe", value: jobTitle, sortable: false },
    {
      id: "status",
      header: "Status",
      value: (r) => (r.undoneOn ? "rückgängig gemacht" : JOB_STATUS_LABELS[r.status]),
      sortable: false,
      warn: (r) => r.status === "FAILED",
    },
    { id: "progress", header: "Fortschritt", value: progressText, sortable: false },
    { id: "message", header: "Ergebnis", value: jobMessage, sortable: false },
    { id: "createdBy", header: "Gestartet von", value: (r) => r.createdBy, sortable: false },
    { id: "startedOn", header: "Gestartet", value: (r) => r.startedOn, type: "dateTime", sortable: false },
    { id: "finishedOn", header: "Fertig", value: (r) => r.finishedOn, type: "dateTime", sortable: false },
    {
      id: "undoneOn",
      header: "Rückgängig",
      value: (r) => r.undoneOn,
      display: (r) => (r.undoneOn ? `${formatDateTime(r.undoneOn)} (${r.undoneBy ?? ""})` : ""),
      sortable: false,
      hidden: true,
    },
  ],
  defaultSort: { id: "id", descending: true },
  model: { list: (db, query) => listJobs(db, { page: query.page, pageSize: query.pageSize }) },
  dialogs: { add: false, edit: false, delete: false },
  selectable: false,
  refresh: true,
  emptyText: "Noch keine Läufe",
});
