import type { ReactNode } from "react";

/**
 * A staff screen that works through what arrived from Mein Wuff one by one (Mitgliedsanträge,
 * Nachweise prüfen, Widerrufe): its title, a line on what to do, and the items as plain forms.
 */
export function ReviewScreen({ id, title, intro, children }: { id: string; title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="max-w-3xl">
      <h1 id={id} className="mb-2 text-2xl font-semibold text-wuff-800">
        {title}
      </h1>
      <p className="mb-4 text-sm text-slate-600">{intro}</p>
      {children}
    </section>
  );
}
