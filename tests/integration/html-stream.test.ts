/**
 * React's streaming server renderer as patched for speed (patches/react-dom+18.3.1.patch): it
 * joins the markup as a string and encodes each flush once, instead of encoding every piece and
 * copying it into 512-byte chunks. What must not change: the bytes of every page. Compared with
 * React's string renderer (not patched) over random trees of elements, attributes and texts with
 * characters HTML escapes and characters of one to four UTF-8 bytes, so every chunk boundary of
 * the old code falls inside some character somewhere.
 */
import fc from "fast-check";
import { createElement, lazy, Suspense, type ReactNode } from "react";
import { renderToReadableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

async function streamed(element: ReactNode) {
  const stream = await renderToReadableStream(element);
  await stream.allReady;
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  const bytes = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { chunks: chunks.map((chunk) => chunk.length), html: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
}

const text = fc.oneof(
  fc.constantFrom("", "Müller & Söhne", `<b>"Rex"</b> 'x'`, "1.234,56 €", "–", "🐕‍🦺 Wuff", "ß".repeat(300)),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);
const tag = fc.constantFrom("div", "span", "td", "a", "p", "li");
type Tree = string | { tag: string; title: string; children: Tree[] };
const { tree } = fc.letrec<{ tree: Tree; node: Tree }>((self) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, text, self("node")),
  node: fc.record({ tag, title: text, children: fc.array(self("tree"), { maxLength: 6 }) }),
}));
const toElement = (node: Tree, key: number): ReactNode =>
  typeof node === "string" ? node : createElement(node.tag, { key, title: node.title, "data-n": key }, ...node.children.map(toElement));

describe("the patched streaming renderer", () => {
  it("writes the bytes React's string renderer writes, for any tree", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tree, { minLength: 1, maxLength: 8 }), async (trees) => {
        const page = createElement("main", null, ...trees.map(toElement));
        expect((await streamed(page)).html).toBe(renderToString(page));
      }),
      { seed: 20261201, numRuns: 150 },
    );
  });

  it("sends a page that was ready before the first read in chunks as large as the stream takes", async () => {
    const rows = Array.from({ length: 200 }, (_, index) => createElement("tr", { key: index }, createElement("td", null, `Zeile ${index} – Größe`)));
    const page = createElement("table", null, createElement("tbody", null, ...rows));
    const { chunks, html } = await streamed(page);
    expect(html).toBe(renderToString(page));
    expect(html.length).toBeGreaterThan(512 * 10);
    // Before the patch every chunk was one of 512 bytes (workerd hands reads out in pieces of at
    // most 4 KiB, so the page comes in two).
    expect(chunks.slice(0, -1).every((length) => length > 512)).toBe(true);
    expect(chunks.length).toBeLessThan(html.length / 512);
  });

  it("inlines content that suspended, once it is there", async () => {
    const Later = lazy(async () => ({ default: () => createElement("p", null, "Geladen: Größe 🐕") }));
    const page = createElement("div", null, createElement(Suspense, { fallback: createElement("span", null, "Lädt …") }, createElement(Later)));
    const { html } = await streamed(page);
    expect(html).toContain("Geladen: Größe 🐕");
    expect(html).not.toContain("Lädt …");
  });
});
