import { redirect } from "@remix-run/cloudflare";

/** Any other path leads home (spec: route table, "any other path"). */
export const loader = () => redirect("/");
export const action = () => redirect("/");
