import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef } from "react";

/** The part of Remix's router (window.__remixRouter, set by RemixBrowser) the timer reads. */
type RouterState = {
  navigation: { state: string };
  revalidation: string;
  fetchers: Map<string, { state: string }>;
};
type RouterWindow = { __remixRouter?: { state: RouterState } };

function routerBusy(state: RouterState): boolean {
  if (state.navigation.state !== "idle" || state.revalidation !== "idle") return true;
  for (const fetcher of state.fetchers.values()) if (fetcher.state !== "idle") return true;
  return false;
}

/**
 * Loads the page's data again every `milliseconds` while `active` (with JavaScript), but only
 * while nothing else is under way: no page loading, no form posting. A reload started while a
 * dialog's form posts makes Remix drop that post's redirect (@remix-run/router: "a new navigation
 * was kicked off after our action started, so that should take precedence"): the change is made
 * and its toast shows, but the dialog stays open on the old URL. The kit's one way to poll.
 *
 * The timer asks the router itself, which knows of a post the moment it is submitted. React's
 * state learns of it only when it commits, and Remix renders its updates as transitions, which
 * a slow machine commits after the next timer task (a CI run saw the dialog stay open so).
 */
export function usePolling(active: boolean, milliseconds: number) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || revalidator.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  // Where there is no router to ask (never in the app): React's last commit.
  const busyRef = useRef(busy);
  useLayoutEffect(() => {
    busyRef.current = busy;
  }, [busy]);
  const { revalidate } = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      const router = (window as RouterWindow).__remixRouter;
      const busyNow = router ? routerBusy(router.state) : busyRef.current;
      if (!busyNow && document.visibilityState === "visible") revalidate();
    }, milliseconds);
    return () => window.clearInterval(timer);
  }, [active, milliseconds, revalidate]);
}
