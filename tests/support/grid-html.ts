/**
 * A data grid as the server renders it (app/components/data-grid), read from the page's HTML:
 * for tests that check what a browser would show without one.
 */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .trim();

export type GridHtml = {
  /** The heading, e.g. 'Personen (150)', and its count. */
  heading: string;
  count: number;
  /** The visible column headers, without the sort arrow; each with its aria-sort and sort link. */
  columns: { label: string; sort: string; href: string | null }[];
  /** Each row's cells as text; a checkbox cell is 'checked' or 'unchecked'. */
  rows: string[][];
  /** The toggle links of a group (by its aria-label): label → [href, chosen]. */
  toggles: (group: string) => Map<string, { href: string; current: boolean }>;
};

/** The grid `<section aria-label="name">` of `page` (React's text separators removed first). */
export function gridOf(page: string, name: string): GridHtml {
  const html = page.replaceAll("<!-- -->", "");
  const start = html.search(new RegExp(`<section[^>]*aria-label="${name}"`));
  if (start < 0) throw new Error(`Kein Grid '${name}' in der Seite`);
  const section = html.slice(start, html.indexOf("</section>", start));
  const heading = text(/<h[12][^>]*>([\s\S]*?)<\/h[12]>/.exec(section)![1]);
  const thead = section.slice(section.indexOf("<thead"), section.indexOf("</thead>"));
  const columns = [...thead.matchAll(/<th scope="col" aria-sort="(\w+)"[^>]*>([\s\S]*?)<\/th>/g)].map(([, sort, inner]) => ({
    label: text(inner).replace(/[▲▼]/g, "").trim(),
    sort,
    href: /<a [^>]*href="([^"]+)"/.exec(inner)?.[1]?.replace(/&amp;/g, "&") ?? null,
  }));
  const tbody = section.slice(section.indexOf("<tbody"), section.indexOf("</tbody>"));
  const rows = [...tbody.matchAll(/<tr[^>]*data-row-id[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) =>
      /<input[^>]*type="checkbox"/.test(cell) ? (/<input[^>]*checked/.test(cell) ? "checked" : "unchecked") : text(cell),
    ),
  );
  return {
    heading,
    count: Number(/\((\d+)\)/.exec(heading)?.[1] ?? NaN),
    columns,
    rows,
    toggles(group) {
      const at = section.indexOf(`aria-label="${group}"`);
      if (at < 0) throw new Error(`Keine Umschalter '${group}' im Grid '${name}'`);
      const links = section.slice(at, section.indexOf("</div>", at));
      return new Map(
        [...links.matchAll(/<a ([^>]*)>([\s\S]*?)<\/a>/g)].map(([, attributes, label]) => [
          text(label),
          { href: /href="([^"]+)"/.exec(attributes)![1].replace(/&amp;/g, "&"), current: attributes.includes('aria-current="true"') },
        ]),
      );
    },
  };
}
