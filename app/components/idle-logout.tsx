import { useNavigate } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";

// The countdown dialog is fetched only when the countdown starts.
const IdleCountdown = lazy(() => import("./idle-countdown"));

export type IdleSettings = { timeoutSeconds: number; countdownSeconds: number; keepaliveSeconds: number };

/** Activity is counted at most once a second (spec: idle sensitivity 1 s). */
const SENSITIVITY_MS = 1_000;
const ACTIVITY_EVENTS = ["mousemove", "keydown", "resize"] as const;

/**
 * Idle logout (spec 000 §4, §9): after `timeoutSeconds` without mouse move, key press or resize a
 * countdown dialog runs; activity cancels it, otherwise the user is logged out. While the user is
 * active a ping every `keepaliveSeconds` keeps the server-side session alive.
 */
export function IdleLogout({ timeoutSeconds, countdownSeconds, keepaliveSeconds }: IdleSettings) {
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const lastActivity = useRef(Date.now());
  const activeSincePing = useRef(false);
  // Logging out leaves for the provider's end-session page: a plain form post, not a fetch.
  const logoutForm = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let lastCounted = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - lastCounted < SENSITIVITY_MS) return;
      lastCounted = now;
      lastActivity.current = now;
      activeSincePing.current = true;
      setSecondsLeft(null);
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });

    const tick = setInterval(() => {
      const idleSeconds = (Date.now() - lastActivity.current) / 1000;
      if (idleSeconds < timeoutSeconds) return;
      const left = Math.ceil(timeoutSeconds + countdownSeconds - idleSeconds);
      if (left <= 0) {
        clearInterval(tick);
        logoutForm.current?.submit();
        return;
      }
      setSecondsLeft(left);
    }, 250);

    const ping = setInterval(async () => {
      if (!activeSincePing.current) return;
      activeSincePing.current = false;
      const response = await fetch("/api/session/ping", { method: "POST", credentials: "same-origin" }).catch(() => null);
      if (response?.status === 401) navigate("/", { replace: true });
    }, keepaliveSeconds * 1000);

    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
      clearInterval(tick);
      clearInterval(ping);
    };
  }, [timeoutSeconds, countdownSeconds, keepaliveSeconds, navigate]);

  const stayLoggedIn = () => {
    lastActivity.current = Date.now();
    activeSincePing.current = true;
    setSecondsLeft(null);
  };

  return (
    <>
      <form ref={logoutForm} method="post" action="/logout" hidden>
        <input type="hidden" name="reason" value="idle" />
      </form>
      {secondsLeft !== null && (
        <Suspense fallback={null}>
          <IdleCountdown secondsLeft={secondsLeft} onStay={stayLoggedIn} />
        </Suspense>
      )}
    </>
  );
}
