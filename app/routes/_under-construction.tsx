import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { isArea } from "~/lib/access";
import { requireAccess } from "~/services/auth.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { UnderConstruction } from "~/components/under-construction";

/**
 * The screens later capabilities build, already behind their guard: the area is the first path
 * segment, and the route table (app/lib/access.ts) says who may see it.
 */
async function guard(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const area = new URL(args.request.url).pathname.split("/")[1];
  if (!isArea(area)) throw new Response("Nicht gefunden", { status: 404 });
  await requireAccess(args, area);
  return area;
}

export async function loader(args: LoaderFunctionArgs) {
  const area = await guard(args);
  return { title: SCREEN_TITLES[area] };
}

export async function action(args: ActionFunctionArgs) {
  await guard(args);
  return new Response("Diese Ansicht ist noch in Arbeit", { status: 405 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Wuff"} – Wuff` }];

export default function UnderConstructionScreen() {
  const { title } = useLoaderData<typeof loader>();
  return <UnderConstruction title={title} />;
}
