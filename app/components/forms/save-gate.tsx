/**
 * Speichern stays disabled while a form is invalid (spec) and says why: which fields are still
 * missing or wrong, by their labels. Without JavaScript the button is enabled and the server
 * answers with the fields' messages.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { useCallback, useRef, useState } from "react";
import type { z } from "zod";
import { joinGerman } from "~/lib/format";

export function useSaveGate(schema: z.ZodType, labels: Record<string, string>) {
  const element = useRef<HTMLFormElement | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const check = useCallback(() => {
    if (!element.current) return;
    const submission = parseWithZod(new FormData(element.current), { schema });
    const errors = submission.status === "success" ? {} : (submission.reply().error ?? {});
    setProblems(
      Object.keys(errors)
        .filter((name) => (errors[name]?.length ?? 0) > 0)
        .map((name) => labels[name] ?? name),
    );
  }, [schema, labels]);
  // Checked as soon as the form is there (a dialog mounts it a moment later, through a portal):
  // the form as loaded may already be incomplete (an empty add form).
  const form = useCallback(
    (node: HTMLFormElement | null) => {
      element.current = node;
      if (node) check();
    },
    [check],
  );
  const reason = problems.length > 0 ? `Zum Speichern fehlt oder stimmt noch nicht: ${joinGerman(problems)}.` : null;
  return { form, check, reason };
}

/** The line that says why Speichern is disabled (the button points to it with aria-describedby). */
export function SaveGateReason({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <p id={id} className="mt-3 text-right text-sm text-slate-600">
      {reason}
    </p>
  );
}
