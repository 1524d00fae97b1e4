import type { MetaFunction } from "@remix-run/cloudflare";

export const meta: MetaFunction = () => [{ title: "Wuff" }];

export default function Home() {
  return (
    <section className="mx-auto max-w-2xl py-10 text-center">
      <h1 className="text-3xl font-bold text-wuff-800">Willkommen bei Wuff!</h1>
      <p className="mt-4 text-slate-600">Du bist noch nicht eingeloggt.</p>
    </section>
  );
}
