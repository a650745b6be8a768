import { cpus, type as osType, release, totalmem } from 'node:os';

/** What the figures were measured on: machine-dependent figures are only comparable as ratios. */
export function describeMachine(): string {
  const cores = cpus();
  return [
    `CPU: ${cores[0]?.model.trim() ?? 'unknown'}, ${cores.length} cores`,
    `Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `Node.js: ${process.version}, ${osType()} ${release()}`,
  ].join('\n');
}
