/**
 * The server writes a grid's rows as a string (gridRowsHtml) and the browser hydrates them with
 * <GridRows>: hydration adopts the server's elements only when both are the same markup. Over
 * random grids (every kind of cell, texts with characters HTML escapes, groups, muted, selected
 * and busy rows, row actions) the string must equal what React's server renderer writes.
 */
import fc from "fast-check";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GridRows, gridRowsHtml, type ActionLink, type RowsModel } from "~/components/data-grid/rows";
import type { Cell, ColumnMeta, GridRow } from "~/lib/grid";
import { dialogHref, dialogHrefs, searchWith } from "~/lib/grid-state";

const reactMarkup = (model: RowsModel) => renderToString(createElement("table", null, createElement("tbody", null, createElement(GridRows, { model }))));
const stringMarkup = (model: RowsModel) => `<table><tbody>${gridRowsHtml(model)}</tbody></table>`;

const text = fc.oneof(fc.constantFrom("", "Müller & Söhne", `<b>"Rex"</b> 'x'`, "1.234,56 €", "–"), fc.string({ maxLength: 12 }));
const cell: fc.Arbitrary<Cell> = fc.oneof(
  text,
  fc.boolean(),
  fc.record({ text, warn: fc.option(fc.boolean(), { nil: undefined }) }),
  fc.record({
    text,
    link: fc.record({ dialog: fc.constantFrom("person", "fee"), id: fc.option(fc.nat(99), { nil: undefined }), params: fc.constant({ a: 1 }) }),
  }),
  fc.record({
    text,
    warn: fc.option(fc.boolean(), { nil: undefined }),
    link: fc.record({
      to: fc.constantFrom("/people/1", "mailto:a@b.de?x=1&y=2", 'https://x.de/a?b="c"'),
      newTab: fc.option(fc.boolean(), { nil: undefined }),
      copy: fc.option(fc.boolean(), { nil: undefined }),
    }),
  }),
);
const action: fc.Arbitrary<ActionLink> = fc.record({
  label: text,
  href: fc.constantFrom("/fees?dialog=x&id=1", "/invoices/1.pdf"),
  document: fc.option(fc.boolean(), { nil: undefined }),
  newTab: fc.option(fc.boolean(), { nil: undefined }),
});

const model: fc.Arbitrary<RowsModel> = fc.integer({ min: 1, max: 5 }).chain((columnCount) =>
  fc
    .record({
      columns: fc.array(fc.constantFrom<ColumnMeta["align"]>("left", "right", "center"), { minLength: columnCount, maxLength: columnCount }),
      rows: fc.array(
        fc.record({ cells: fc.array(cell, { minLength: columnCount, maxLength: columnCount }), muted: fc.option(fc.boolean(), { nil: undefined }) }),
        { maxLength: 6 },
      ),
      missingCell: fc.boolean(),
      grouped: fc.boolean(),
      selection: fc.constantFrom("none", "segment"),
      selected: fc.nat(7),
      pending: fc.nat(7),
      actions: fc.option(fc.array(action, { maxLength: 3 }), { nil: null }),
      emptyText: text,
    })
    .map(({ columns, rows, missingCell, grouped, selection, selected, pending, actions, emptyText }) => {
      const gridRows: GridRow[] = rows.map((row, index) => ({ id: index + 1, ...row }));
      const rowHref = (row: GridRow) => (selection === "none" ? null : `/people/${row.id}/dogs?sort=-name&x="1"`);
      return {
        rows: gridRows,
        columns: columns.map((align, index) => ({ id: `c${index}`, header: `C${index}`, align, sortable: true, sum: false })),
        // A column the rows have no cell for (the chooser's pending choice) is shown empty.
        cellIndexes: columns.map((_, index) => (missingCell && index === 0 ? -1 : index)),
        groups: grouped ? gridRows.map((row) => (row.id < 3 ? "Gruppe A" : row.id === 4 ? null : "Gruppe <B>")) : null,
        selectedId: selected,
        pendingHref: gridRows[pending] ? rowHref(gridRows[pending]) : null,
        rowHref,
        open: (dialog: string, id?: number, params: Record<string, string> = {}) =>
          `/people?dialog=${dialog}${id === undefined ? "" : `&dialogId=${id}`}&${new URLSearchParams(params)}`,
        actions: actions ? () => actions : null,
        emptyText,
      };
    }),
);

describe("grid rows written as a string on the server", () => {
  it("are the markup React writes for them, for any grid", () => {
    fc.assert(
      fc.property(model, (rows) => {
        expect(stringMarkup(rows)).toBe(reactMarkup(rows));
      }),
      { numRuns: 300, seed: 20261128 },
    );
  });

  it("escape what would break out of a text or an attribute", () => {
    const rows = gridRowsHtml({
      rows: [{ id: 1, cells: [`<script>alert("x")</script>`, { text: "a", link: { to: `javascript:"><img>` } }] }],
      columns: [
        { id: "a", header: "A", align: "left", sortable: false, sum: false },
        { id: "b", header: "B", align: "left", sortable: false, sum: false },
      ],
      cellIndexes: [0, 1],
      selectedId: null,
      pendingHref: null,
      rowHref: () => null,
      open: () => "",
      actions: null,
      emptyText: "",
    });
    expect(rows).not.toContain("<script>");
    expect(rows).not.toContain("<img>");
    expect(rows).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });
});

describe("hrefs for many links of one page", () => {
  const name = fc.constantFrom("sort", "page", "dialog", "dialogId", "selected", "a b", "ä&=");
  const params = fc.array(fc.tuple(name, fc.string({ maxLength: 6 })), { maxLength: 5 });

  it("set parameters as URLSearchParams.set does, whatever the search holds", () => {
    // Values as rows repeat them (one closure for a page's links encodes each value once).
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: "binary", maxLength: 4 }), fc.constantFrom("1,2,3", "17", "a.b-c_d*", "~!'()"));
    fc.assert(
      fc.property(params, fc.array(fc.dictionary(name, value, { maxKeys: 3 }), { minLength: 1, maxLength: 4 }), (base, changeSets) => {
        const search = new URLSearchParams(base);
        const withChanges = searchWith(search);
        for (const changes of [...changeSets, ...changeSets]) {
          const expected = new URLSearchParams(search);
          for (const [key, value] of Object.entries(changes)) expected.set(key, value);
          expect(withChanges(changes)).toBe(`?${expected}`);
        }
      }),
      { numRuns: 300, seed: 20261128 },
    );
  });

  it("open the same dialogs as dialogHref", () => {
    fc.assert(
      fc.property(params, fc.dictionary(name, fc.oneof(fc.string({ maxLength: 6 }), fc.nat(99)), { maxKeys: 3 }), (base, dialogParams) => {
        const search = new URLSearchParams(base);
        expect(dialogHrefs("/fees", search)("fee-edit", dialogParams)).toBe(dialogHref("/fees", search, "fee-edit", dialogParams));
      }),
      { numRuns: 300, seed: 20261128 },
    );
  });
});
