/**
 * Vorlagen: mustache templates (the invoice PDF's HTML, the mails' HTML and plain text). Mustache
 * compiles without eval, so it renders in workerd as in the browser. `{{value}}` escapes HTML,
 * `{{{value}}}` is raw; a missing value renders empty. Plain text is rendered without escaping.
 */
import Mustache from "mustache";

/** HTML with every `{{value}}` escaped. */
export const renderHtmlTemplate = (template: string, view: object): string => Mustache.render(template, view);

/** Whether a template can be parsed (unclosed sections, bad tags): a German message, or null. */
export function templateProblem(template: string): string | null {
  try {
    Mustache.parse(template);
    return null;
  } catch (error) {
    return `Die Vorlage enthält einen Fehler: ${error instanceof Error ? error.message : String(error)}`;
  }
}
