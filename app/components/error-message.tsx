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
