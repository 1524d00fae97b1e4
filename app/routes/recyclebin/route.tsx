import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { ConfirmDialog } from "~/components/dialog";
import { closedHref, dialogHref } from "~/dialogs/dialog-params";
import { PAGE_SIZE, parsePage, withSearch, type GridColumn } from "~/lib/grid";
import {
  getDeletedRecord,
  listDeletedRecords,
  recordIdentifiers,
  restoreDeletedRecord,
  type DeletedRecordRow,
} from "~/models/recycle-bin.server";
import { parseId } from "~/lib/ids";
import { TABLE_LABELS } from "~/lib/labels";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

export const meta: MetaFunction = () => [{ title: "Papierkorb – Wuff" }];

type BinRow = Omit<DeletedRecordRow, "json">;

const COLUMNS: GridColumn<BinRow>[] = [
  { id: "transactionId", header: "Transaktion", value: (r) => r.transactionId, type: "number", sortable: false },
  { id: "deletedOn", header: "Löschdatum", value: (r) => r.deletedOn, type: "dateTimeSeconds", sortable: false },
  { id: "deletedBy", header: "gelöscht von", value: (r) => r.deletedBy, sortable: false },
  { id: "tableName", header: "Tabelle", value: (r) => TABLE_LABELS[r.tableName] ?? r.tableName, sortable: false },
  { id: "identifier1", header: "Feld1", value: (r) => r.identifier1, sortable: false },
  { id: "identifier2", header: "Feld2", value: (r) => r.identifier2, sortable: false },
  { id: "identifier3", header: "Feld3", value: (r) => r.identifier3, sortable: false },
];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "recyclebin");
  const search = new URL(args.request.url).searchParams;
  const page = parsePage(search);
  const { rows, total } = await listDeletedRecords(args.context.db, page);
  const restoreId = search.get("dialog") === "restore" ? parseId(search.get("dialogId")) : null;
  const toRestore = restoreId ? await getDeletedRecord(args.context.db, restoreId) : undefined;
  return {
    // The JSON of the records stays on the server: the grid shows the identifiers.
    rows: rows.map(({ json: _json, ...row }) => row),
    total,
    page,
    restore: toRestore ? { id: toRestore.id, label: recordIdentifiers(toRestore) } : null,
  };
}

export async function action(args: ActionFunctionArgs) {
  await requireAccess(args, "recyclebin");
  const form = await readForm(args.request);
  const id = form.get("intent") === "restore" ? parseId(form.get("id")) : null;
  if (!id) return data({ error: "Unbekannter gelöschter Satz." }, { status: 400 });
  const outcome = await restoreDeletedRecord(args.context.db, id);
  if (outcome.status === "missing") return data({ error: "Dieser gelöschte Satz ist nicht mehr im Papierkorb." }, { status: 404 });
  if (outcome.status === "refused") return data({ error: outcome.message }, { status: 409 });
  const url = new URL(args.request.url);
  return redirectWithToast(args.context.cloudflare.env, `/recyclebin${withSearch(url.searchParams, { dialog: null, dialogId: null, sel: null })}`, {
    type: "success",
    message: `Gelöschter Satz ${recordIdentifiers(outcome.record)} wurde wiederhergestellt`,
  });
}

/** Gelöschte Datensätze: grouped by transaction, newest first; double click restores. */
export default function RecycleBin() {
  const { rows, total, page, restore } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error?: string }>();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const selected = Number(search.get("sel")) || null;
  const selectedId = rows.some((row) => row.id === selected) ? selected : null;
  const restoreHref = (id: number) => dialogHref(location.pathname, location.search, "restore", { dialogId: id });
  return (
    <>
      <DataGrid
        gridId="recyclebin"
        title="Gelöschte Datensätze"
        columns={COLUMNS}
        visible={COLUMNS.map((column) => column.id)}
        rows={rows}
        total={total}
        page={page}
        pageSize={PAGE_SIZE}
        sort={{ id: "transactionId", descending: true }}
        selectedId={selectedId}
        rowHref={(row) => `${location.pathname}${withSearch(closedHref("", location.search).replace(/^\?/, ""), { sel: row.id })}`}
        editHref={(row) => restoreHref(row.id)}
        groupBy={(row) => `Transaktion ${row.transactionId}`}
        toolbar={{ refresh: true, rowActions: [{ label: "Wiederherstellen", href: selectedId ? restoreHref(selectedId) : null }] }}
        maxHeight="calc(100vh - 256px)"
        emptyText="Der Papierkorb ist leer"
      />
      {restore && (
        <ConfirmDialog
          title="Du bist im Begriff, diesen gelöschten Satz wiederherzustellen."
          closeHref={closedHref(location.pathname, location.search)}
          intent="restore"
          confirmLabel="Ja, wiederherstellen"
          hidden={{ id: restore.id }}
        />
      )}
      {actionData?.error && (
        <p role="alert" className="fixed inset-x-0 bottom-6 z-[60] mx-auto w-fit max-w-lg rounded border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 shadow">
          {actionData.error}
        </p>
      )}
    </>
  );
}
