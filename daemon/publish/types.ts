// What every kind of publish target offers the scheduler: write one file, whole, and let go.

/** A file of the round, by its path under the target's root (`rounds/3/games.pdn`). */
export interface PublishFile {
  path: string;
  body: string;
}

export interface Uploader {
  /** How the target shows in /health and the log: never a password. */
  readonly label: string;
  /**
   * Writes one file so that a reader sees the old or the new one, never half (temp, then rename).
   * Connects when needed; after a failure the next write connects again.
   */
  write(file: PublishFile): Promise<void>;
  /** Drops the connection, if any. */
  close(): Promise<void>;
}

/** A temp name beside the file: readers polling `rounds/3/` never see it as a round file. */
export const tempNameOf = (name: string): string => `.${name}.part`;

/** Library errors may echo what they were given: never let a secret reach a log or /health. */
export function scrubbed(message: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = message;
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out;
}
