/**
 * HTML to PDF through Browser Rendering (`@cloudflare/puppeteer` on the binding BROWSER; locally
 * wrangler/miniflare start Debian's Chromium, see scripts/ensure-chromium.sh and TOOLCHAIN.md).
 *
 * A browser takes about a second to launch, a PDF on an open page about 100 ms: a renderer keeps
 * one browser and one page for many PDFs (a queue batch of a PDF run) and is closed when that work
 * ends, because a browser that is only disconnected outlives the local workerd as an orphan Chromium.
 * If the connection drops in between, the renderer connects to its session again by its id
 * before it launches a new browser.
 */
import puppeteer, { type Browser, type Page, type PDFOptions } from "@cloudflare/puppeteer";

/** Spec 001 §9: A4 portrait; margins top 2 cm, right 2.5 cm, bottom 2 cm (room for the footer), left 2.5 cm. */
const INVOICE_PDF_OPTIONS: PDFOptions = {
  format: "A4",
  landscape: false,
  printBackground: true,
  margin: { top: "2cm", right: "2.5cm", bottom: "2cm", left: "2.5cm" },
  displayHeaderFooter: true,
  headerTemplate: "<span></span>",
  footerTemplate:
    '<div style="width:100%;font-family:sans-serif;font-size:8pt;color:#64748b;text-align:center">Seite <span class="pageNumber"></span> von <span class="totalPages"></span></div>',
};

/** An idle browser session is kept this long (production's maximum); closed earlier by us. */
const KEEP_ALIVE_MS = 600_000;

export const RENDERING_FAILED = "Das PDF konnte nicht erzeugt werden (Browser Rendering nicht erreichbar).";

export class PdfRenderer {
  /** Pages not rendering right now: one per PDF rendered at the same time, kept for the next. */
  private idle: Page[] = [];

  private constructor(
    private readonly binding: Fetcher,
    private browser: Browser,
    private readonly sessionId: string,
  ) {}

  static async open(env: Pick<Env, "BROWSER">): Promise<PdfRenderer> {
    const browser = await puppeteer.launch(env.BROWSER, { keep_alive: KEEP_ALIVE_MS });
    const renderer = new PdfRenderer(env.BROWSER, browser, browser.sessionId());
    try {
      renderer.idle.push(await preparedPage(browser));
      return renderer;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  /** The PDF of a self-contained HTML document (the template's own CSS, no scripts, no fetches).
   *  Several may be rendered at once, each on a page of its own. */
  async render(html: string, options: PDFOptions = INVOICE_PDF_OPTIONS): Promise<Uint8Array> {
    let page = this.idle.pop() ?? (await preparedPage(this.browser));
    try {
      const pdf = await renderOn(page, html, options);
      this.idle.push(page);
      return pdf;
    } catch (error) {
      if (this.browser.isConnected()) throw error;
      // The connection dropped (not the page's fault): the same session once more, by its id.
      if (!this.reconnecting) this.reconnecting = puppeteer.connect(this.binding, this.sessionId).finally(() => (this.reconnecting = null));
      this.browser = await this.reconnecting;
      this.idle = [];
      page = await preparedPage(this.browser);
      const pdf = await renderOn(page, html, options);
      this.idle.push(page);
      return pdf;
    }
  }

  private reconnecting: Promise<Browser> | null = null;

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
  }
}

/** A page for templates: no JavaScript, and nothing fetched from anywhere (a template edited by an
 *  ADMIN cannot make the browser call other hosts). */
async function preparedPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url === "about:blank") void request.continue();
    else void request.abort();
  });
  return page;
}

async function renderOn(page: Page, html: string, options: PDFOptions): Promise<Uint8Array> {
  await page.setContent(html, { waitUntil: "load" });
  return new Uint8Array(await page.pdf(options));
}

/** One renderer for `work`, closed afterwards whatever happens. */
export async function withPdfRenderer<T>(env: Pick<Env, "BROWSER">, work: (renderer: PdfRenderer) => Promise<T>): Promise<T> {
  const renderer = await PdfRenderer.open(env);
  try {
    return await work(renderer);
  } finally {
    await renderer.close();
  }
}
