// Number parsers for command-line options, shared by every command: commander shows their errors.
import { InvalidArgumentError } from 'commander';

/** A whole number ≥ `min` (default 0). */
export const wholeNumber =
  (name: string, min = 0) =>
  (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < min) {
      throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}, got "${v}"`);
    }
    return n;
  };

/** A number > 0 (fractions allowed: speeds, probabilities, times). */
export const positiveNumber =
  (name: string) =>
  (v: string): number => {
    const n = Number(v);
    if (!(n > 0)) throw new InvalidArgumentError(`${name} must be a positive number, got "${v}"`);
    return n;
  };
