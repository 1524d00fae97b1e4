import type { ReactNode } from "react";

/** A page of one of the club's texts (privacy notice, imprint) in Mein Wuff: title, text, version. */
export function LegalTextPage({ id, title, text, missing }: { id: string; title: string; text: { body: string; stand: string } | null; missing: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h1 id={id} className="text-2xl font-semibold text-wuff-800">
        {title}
      </h1>
      {text ? (
        <>
          <div className="mt-4 whitespace-pre-line text-slate-800">{text.body}</div>
          <p className="mt-4 text-sm text-slate-600">{text.stand}</p>
        </>
      ) : (
        <p className="mt-4 text-slate-700">{missing}</p>
      )}
    </section>
  );
}
