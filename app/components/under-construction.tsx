/** A screen or tab that a later capability builds: guarded already, and says so. */
export function UnderConstruction({ title, level = 1 }: { title: string; level?: 1 | 2 }) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <section>
      <Heading className={`${level === 1 ? "text-2xl" : "text-lg"} font-semibold text-wuff-800`}>{title}</Heading>
      <p className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">Diese Ansicht ist noch in Arbeit</p>
    </section>
  );
}
