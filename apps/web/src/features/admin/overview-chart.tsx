import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { periodLabel } from './period';

interface ChartPoint {
  /** The period's start (ISO). */
  start: string;
  value: number | null;
}

const HEIGHT = 240;
/** The app's primary indigo, its text grey and its border grey. */
const LINE = '#4338ca';
const FILL = 'rgba(67, 56, 202, 0.08)';
const TEXT = '#5b6475';
const GRID = '#e2e8f0';

/**
 * One figure over time, drawn by uPlot on a canvas as wide as its container. Loaded on its own (the
 * library is only the console's), and hidden from assistive technology: the page gives the same figures
 * as text beside it.
 */
export default function OverviewChart({
  points,
  label,
  format,
  hourly,
}: {
  points: ChartPoint[];
  label: string;
  format(value: number): string;
  /** Points an hour apart (today) rather than a day. */
  hourly: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      points.map((point) => new Date(point.start).getTime() / 1000),
      points.map((point) => point.value),
    ];
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        // Ticks fall on UTC days and hours, as the figures are counted.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        series: [
          {},
          {
            label,
            stroke: LINE,
            width: 2,
            fill: FILL,
            points: { show: points.length <= 31, size: 5, fill: LINE },
            spanGaps: false,
          },
        ],
        axes: [
          {
            stroke: TEXT,
            grid: { stroke: GRID, width: 1 },
            ticks: { stroke: GRID, width: 1 },
            incrs: hourly
              ? [3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600]
              : [86_400, 2 * 86_400, 7 * 86_400],
            space: hourly ? 44 : 52,
            values: (_plot, splits) => splits.map((seconds) => periodLabel(seconds * 1000, hourly)),
          },
          {
            stroke: TEXT,
            grid: { stroke: GRID, width: 1 },
            ticks: { stroke: GRID, width: 1 },
            // Wide enough for the longest label: money reads longer in some languages ('100,00 $').
            size: (_plot, values) =>
              values ? Math.max(64, Math.max(...values.map((text) => text.length)) * 7 + 20) : 64,
            values: (_plot, splits) => splits.map((value) => format(value)),
          },
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, label, format, hourly]);

  return <div ref={container} aria-hidden="true" className="w-full min-w-0 overflow-hidden" />;
}
