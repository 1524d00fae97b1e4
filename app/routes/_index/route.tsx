import type { MetaFunction } from "@remix-run/cloudflare";
import { useRootData } from "~/root";

export const meta: MetaFunction = () => [{ title: "Wuff" }];

/** Home: public, no guard. */
export default function Home() {
  const user = useRootData()?.user;
  return (
    <section className="mx-auto max-w-2xl py-10 text-center">
      <h1 className="text-3xl font-bold text-wuff-800">Willkommen bei Wuff!</h1>
      {!user && <p className="mt-4 text-slate-600">Du bist noch nicht eingeloggt.</p>}
    </section>
  );
}
