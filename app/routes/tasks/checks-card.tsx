import { Form } from "@remix-run/react";

/**
 * Tasks → 'Prüfungen' (spec 001 §2: test server, test payment provider; ADMIN, checked on the
 * server by /tasks/checks). Plain form posts: the result comes back as a toast.
 */
export function ChecksCard() {
  const button = "inline-flex items-center rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800";
  return (
    <section aria-labelledby="checks-title" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="checks-title" className="text-lg font-semibold text-wuff-800">
        Prüfungen
      </h2>
      <p className="text-sm text-slate-700">
        „Server testen“ prüft Datenbank, Speicher und Warteschlange wie der Gesundheitscheck /api/public/test. „Zahlungsanbieter testen“ erzeugt beim eingestellten Zahlungsanbieter einen Test-Zahlungslink über 1,00 € (für keinen offenen Posten). Alles im Überblick: die Seite{" "}
        <a href="/test" className="text-wuff-700 underline">
          Test
        </a>
        .
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post" action="/tasks/checks">
          <input type="hidden" name="intent" value="server" />
          <button type="submit" className={button}>
            Server testen
          </button>
        </Form>
        <Form method="post" action="/tasks/checks">
          <input type="hidden" name="intent" value="payment" />
          <button type="submit" className={button}>
            Zahlungsanbieter testen
          </button>
        </Form>
      </div>
    </section>
  );
}
