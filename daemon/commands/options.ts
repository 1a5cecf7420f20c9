// Option parsers shared by every command: numbers are checked where they are read, fixed sets of
// values are commander choices; commander turns their errors into one usage line (exit 2).
import { InvalidArgumentError, Option } from 'commander';
import { VARIANTS } from '../../src/engine/index.ts';

/** A whole number from `min` (default 0) to `max` (default: no bound). */
export const wholeNumber =
  (name: string, min = 0, max = Number.POSITIVE_INFINITY) =>
  (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      const range = max === Number.POSITIVE_INFINITY ? `≥ ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`${name} must be a whole number ${range}, got "${v}"`);
    }
    return n;
  };

/** A number > 0 (fractions allowed: speeds, probabilities, times). */
export const positiveNumber =
  (name: string) =>
  (v: string): number => {
    const n = Number(v);
    if (!(n > 0) || !Number.isFinite(n))
      throw new InvalidArgumentError(`${name} must be a positive number, got "${v}"`);
    return n;
  };

/** `--variant international|brazilian`, the same on every command that reads positions. */
export const variantOption = (description = 'rules variant'): Option =>
  new Option('--variant <name>', description).choices([...VARIANTS]).default('international');

/** A chance: a number above 0, at most 1. */
export const probability =
  (name: string) =>
  (v: string): number => {
    const n = Number(v);
    if (!(n > 0 && n <= 1))
      throw new InvalidArgumentError(`${name} must be above 0 and at most 1, got "${v}"`);
    return n;
  };
