import { Form } from "@remix-run/react";
import { buttonClass, TaskCard } from "~/components/run-screen";

/**
 * Tasks → 'Prüfungen' (spec 001 §2: test server, test payment provider; ADMIN, checked on the
 * server by /tasks/checks). Plain form posts: the result comes back as a toast.
 */
export function ChecksCard() {
  return (
    <TaskCard
      id="checks"
      title="Prüfungen"
      text={
        <>
          „Server testen“ prüft Datenbank, Speicher und Warteschlange wie der Gesundheitscheck /api/public/test. „Zahlungsanbieter testen“ erzeugt beim
          eingestellten Zahlungsanbieter einen Test-Zahlungslink über 1,00 € (für keinen offenen Posten). Alles im Überblick: die Seite{" "}
          <a href="/test" className="text-wuff-700 underline">
            Test
          </a>
          .
        </>
      }
    >
      <Form method="post" action="/tasks/checks">
        <input type="hidden" name="intent" value="server" />
        <button type="submit" className={buttonClass}>
          Server testen
        </button>
      </Form>
      <Form method="post" action="/tasks/checks">
        <input type="hidden" name="intent" value="payment" />
        <button type="submit" className={buttonClass}>
          Zahlungsanbieter testen
        </button>
      </Form>
    </TaskCard>
  );
}
