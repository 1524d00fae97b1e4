import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * The conform form of a record dialog, the same for every dialog: validated with the dialog's
 * schema in the browser (on blur, then on input) as on the server; the server's answer
 * (`lastResult`) shown at the fields. The form starts over from `values` whenever the record's
 * version (or `version`, e.g. a draft's values) changes.
 */
export function useRecordForm<Values extends Record<string, unknown>>(
  schema: z.ZodType,
  {
    name,
    record,
    values,
    lastResult,
    version,
  }: {
    name: string;
    record: { id: number; rowVersion: number } | null | undefined;
    values: Record<string, unknown>;
    lastResult: SubmissionResult<string[]> | undefined;
    version?: string;
  },
) {
  return useForm<Values>({
    id: `${name}-${record?.id ?? "new"}-${record?.rowVersion ?? 0}${version ? `-${version}` : ""}`,
    lastResult,
    defaultValue: values as never,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}
