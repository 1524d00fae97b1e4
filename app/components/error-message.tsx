import { errorPageText } from "~/lib/error-text";

/** What the error page says: the status and the German text of the error (lib/error-text.ts). */
export function ErrorMessage({ error }: { error: unknown }) {
  return (
    <>
      <h1 className="text-xl font-semibold">Das hat nicht geklappt</h1>
      <p className="mt-2 text-slate-700">{errorPageText(error)}</p>
    </>
  );
}

/** A refusal a page shows above its content (an action's German message); nothing when empty. */
export function PageAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      {message}
    </p>
  );
}
