import { STATS_COUNT_UP_MS } from '@simcode/contract';
import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';

/**
 * - `final`: as prerendered, the real figures (also the state for visitors who prefer reduced motion, or
 *   when the figures were already on screen before the page's script ran: they do not scroll into view);
 * - `waiting`: below the fold, at zero until scrolled into view;
 * - `counting`: rising to the figures over the spec's 2 seconds;
 * - `done`: counted.
 */
export type CountUpPhase = 'final' | 'waiting' | 'counting' | 'done';

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** Fast at first, gentle at the end, so the last digits settle instead of stopping abruptly. */
function easeOutCubic(progress: number): number {
  return 1 - (1 - progress) ** 3;
}

/**
 * Counts `targets` up from zero when the element scrolls into view. Returns the figures to show and the
 * phase; every figure shown is a whole number, and the last one is exactly the target.
 */
export function useCountUp(
  ref: RefObject<HTMLElement | null>,
  targets: readonly number[],
): { values: readonly number[]; phase: CountUpPhase } {
  const [phase, setPhase] = useState<CountUpPhase>('final');
  const [progress, setProgress] = useState(0);

  // Before the first paint of the running app, so a section that is off screen never shows a jump.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || prefersReducedMotion()) return;
    if (element.getBoundingClientRect().top >= window.innerHeight) setPhase('waiting');
  }, [ref]);

  useEffect(() => {
    const element = ref.current;
    if (phase !== 'waiting' || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setPhase('counting');
      },
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [phase, ref]);

  useEffect(() => {
    if (phase !== 'counting') return;
    let frame = 0;
    const startedAt = performance.now();
    const tick = (now: number) => {
      const elapsed = Math.min(1, (now - startedAt) / STATS_COUNT_UP_MS);
      setProgress(elapsed);
      if (elapsed < 1) frame = requestAnimationFrame(tick);
      else setPhase('done');
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [phase]);

  const values =
    phase === 'waiting'
      ? targets.map(() => 0)
      : phase === 'counting'
        ? targets.map((target) => Math.round(target * easeOutCubic(progress)))
        : targets;
  return { values, phase };
}
