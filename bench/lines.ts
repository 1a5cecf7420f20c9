// What every bench prints: `name value unit` lines, and the percentiles behind them.

export const print = (name: string, value: number | string, unit = ''): void =>
  console.log(`${name} ${value}${unit ? ` ${unit}` : ''}`);

/** The value below which `p` percent of `values` fall (nearest rank, rounded down); NaN for none. */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
