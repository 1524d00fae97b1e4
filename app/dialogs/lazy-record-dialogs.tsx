import { lazy, Suspense } from "react";
import type { RecordDialogActionData } from "./record-dialogs";
import type { RecordDialogData } from "./records.server";

// The dialog code (Headless UI, conform, zod, the forms) is only fetched when a dialog is open:
// it is more than the rest of the page's own code together. Server rendering is unaffected.
const RecordDialogs = lazy(() => import("./record-dialogs").then((module) => ({ default: module.RecordDialogs })));

/** The person/dog dialog the URL names, loaded on demand. */
export function LazyRecordDialogs({ dialog, actionData }: { dialog: RecordDialogData | undefined; actionData: RecordDialogActionData }) {
  if (!dialog) return null;
  return (
    <Suspense fallback={null}>
      <RecordDialogs dialog={dialog} actionData={actionData} />
    </Suspense>
  );
}
