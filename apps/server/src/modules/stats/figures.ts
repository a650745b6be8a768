import { STATS_MIN_SETTLED, type StatsFigures } from '@simcode/contract';

/** What a pair (or a day, or a service) adds up to: counts and the codes' times by whole seconds. */
export interface Counts {
  finished: number;
  settled: number;
  withCode: number;
  refunded: number;
  /** Element i: codes that came after i whole seconds. */
  timeToCodeSeconds: number[];
}

export function emptyCounts(): Counts {
  return { finished: 0, settled: 0, withCode: 0, refunded: 0, timeToCodeSeconds: [] };
}

/** Adds `more` into `into` (histograms element by element). */
export function addCounts(into: Counts, more: Counts): Counts {
  into.finished += more.finished;
  into.settled += more.settled;
  into.withCode += more.withCode;
  into.refunded += more.refunded;
  const histogram = into.timeToCodeSeconds;
  more.timeToCodeSeconds.forEach((codes, second) => {
    histogram[second] = (histogram[second] ?? 0) + codes;
  });
  return into;
}

/**
 * The nearest-rank percentile of the codes' times: the smallest whole number of seconds within which at
 * least `share` of the codes came. Exact on whole seconds, so windows merged from days give the figure the
 * orders themselves would.
 */
export function percentileSeconds(histogram: readonly number[], share: number): number | null {
  const total = histogram.reduce((sum, codes) => sum + (codes ?? 0), 0);
  if (total === 0) return null;
  const rank = Math.ceil(share * total);
  let seen = 0;
  for (let second = 0; second < histogram.length; second += 1) {
    seen += histogram[second] ?? 0;
    if (seen >= rank) return second;
  }
  return null;
}

/** The public figures of some counts; under the minimum they are "new" and give no rate or time. */
export function figuresOf(counts: Counts): StatsFigures {
  const known = counts.settled >= STATS_MIN_SETTLED;
  return {
    finished: counts.finished,
    settled: counts.settled,
    with_code: counts.withCode,
    refunded: counts.refunded,
    delivery_rate: known ? counts.withCode / counts.settled : null,
    refund_rate: known && counts.finished > 0 ? counts.refunded / counts.finished : null,
    median_seconds: known ? percentileSeconds(counts.timeToCodeSeconds, 0.5) : null,
    p90_seconds: known ? percentileSeconds(counts.timeToCodeSeconds, 0.9) : null,
    new: !known,
  };
}
