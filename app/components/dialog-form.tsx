/**
 * The small part of the dialog kit every page carries (app/dialogs/host.tsx): how a dialog's
 * form posts. The dialogs themselves (Headless UI, conform, zod) load only when one opens.
 */
import type { FetcherWithComponents } from "@remix-run/react";
import { createContext, useContext, type ComponentProps, type ReactNode } from "react";
import type { DialogActionData } from "~/dialogs/define.server";

/** What a registered dialog's component gets (app/dialogs/<entity>/dialog.tsx). */
export type DialogProps<Data> = {
  view: string;
  data: Data;
  /** The answer of the last post when it did not redirect (errors, a conflict). */
  actionData: DialogActionData | undefined;
  closeHref: string;
};

type DialogFormState = { fetcher: FetcherWithComponents<DialogActionData>; action: string };
export const DialogFormContext = createContext<DialogFormState | null>(null);

/**
 * The form of a dialog: posts `intent` ('person:save') to the page it is open on, whose action
 * (every grid page has it) answers. With JavaScript it posts in the background and the answer
 * comes back to the dialog; without, the browser posts and the page is rendered again.
 */
export function DialogForm({ intent, children, ...props }: { intent: string; children: ReactNode } & Omit<ComponentProps<"form">, "method" | "action" | "encType">) {
  const context = useContext(DialogFormContext);
  if (!context) throw new Error("DialogForm außerhalb eines Dialogs");
  return (
    <context.fetcher.Form method="post" action={context.action} preventScrollReset {...props}>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </context.fetcher.Form>
  );
}

