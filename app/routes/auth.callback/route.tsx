import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { completeLogin } from "~/services/auth.server";

/** The identity provider sends the browser back here with the authorization code. */
export const loader = ({ request, context }: LoaderFunctionArgs) => completeLogin(request, context);
