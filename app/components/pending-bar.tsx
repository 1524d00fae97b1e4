import { useFetchers, useNavigation } from "@remix-run/react";
import { InTopLayer } from "./top-layer";

/**
 * A thin bar at the top of the window while a page loads or a form is sent (navigation or any
 * fetcher): on a slow connection the user sees that the click was taken. It appears only after a
 * moment (CSS delay), so quick answers do not flicker. Over an open dialog too (InTopLayer).
 */
export function PendingBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  if (!busy) return null;
  return (
    <InTopLayer>
      <div role="progressbar" aria-label="Wird geladen …" aria-busy="true" className="pending-bar fixed inset-x-0 top-0 z-50 h-1 overflow-hidden print:hidden">
        <div className="h-full w-1/3 bg-wuff-300" />
      </div>
    </InTopLayer>
  );
}
