import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef } from "react";

/**
 * Loads the page's data again every `milliseconds` while `active` (with JavaScript), but only
 * while nothing else is under way: no page loading, no form posting. A reload started while a
 * dialog's form posts makes Remix drop that post's redirect (@remix-run/router: "a new navigation
 * was kicked off after our action started, so that should take precedence"): the change is made
 * and its toast shows, but the dialog stays open on the old URL. The kit's one way to poll.
 */
export function usePolling(active: boolean, milliseconds: number) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || revalidator.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  // Read by the timer: updated as React commits, which it does for a click's post before the next
  // timer task runs.
  const busyRef = useRef(busy);
  useLayoutEffect(() => {
    busyRef.current = busy;
  }, [busy]);
  const { revalidate } = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (!busyRef.current && document.visibilityState === "visible") revalidate();
    }, milliseconds);
    return () => window.clearInterval(timer);
  }, [active, milliseconds, revalidate]);
}
