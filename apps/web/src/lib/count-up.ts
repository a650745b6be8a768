import { formatLandingStat, STATS_COUNT_UP_MS } from '@simcode/contract';

/**
 * The landing figures counting up from zero when their row comes into view (threshold: half of it). It is
 * plain DOM work, so the prerendered page's bootstrap runs it before and without the app: a row that is
 * on screen at load counts at once, with no interaction needed. The list's `data-count-up` tells the phase:
 * `final` (reduced motion: the figures as they are), `waiting` (at zero until in view), `counting`, `done`.
 * The app renders the figures' text with suppressHydrationWarning and never changes it, so this owns it.
 */
export function startCountUp(list: HTMLElement): void {
  // Once per list: the bootstrap's and the app's calls meet on the same prerendered element.
  if (list.dataset.countUp) return;
  const figures = [...list.querySelectorAll<HTMLElement>('[data-stat]')];
  const targets = figures.map((figure) => Number(figure.textContent?.replace(/\D/g, '') ?? 0));
  if (
    window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ||
    typeof IntersectionObserver === 'undefined'
  ) {
    list.dataset.countUp = 'final';
    return;
  }
  const show = (progress: number) =>
    figures.forEach((figure, index) => {
      // Fast at first, gentle at the end, so the last digits settle; the last frame is exactly the target.
      figure.textContent = formatLandingStat(Math.round(targets[index]! * (1 - (1 - progress) ** 3)));
    });
  list.dataset.countUp = 'waiting';
  show(0);
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      list.dataset.countUp = 'counting';
      const startedAt = performance.now();
      const tick = (now: number) => {
        const progress = Math.min(1, (now - startedAt) / STATS_COUNT_UP_MS);
        show(progress);
        if (progress < 1) requestAnimationFrame(tick);
        else list.dataset.countUp = 'done';
      };
      requestAnimationFrame(tick);
    },
    { threshold: 0.5 },
  );
  observer.observe(list);
}
