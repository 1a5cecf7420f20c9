// A progress bar for long commands: on stderr when it is a terminal, nothing otherwise, so pipes,
// logs and tests see only the command's output.
import { Presets, SingleBar } from 'cli-progress';

export interface Progress {
  /** `done` more items finished (default 1). */
  tick(done?: number): void;
  /** Removes the bar; call it before printing the result. */
  stop(): void;
}

const SILENT: Progress = { tick() {}, stop() {} };

export function progress(
  label: string,
  total: number,
  stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
): Progress {
  if (stream.isTTY !== true || total <= 0) return SILENT;
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {value}/{total}`,
      stream,
      clearOnComplete: true,
      hideCursor: true,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    tick: (done = 1) => bar.increment(done),
    stop: () => bar.stop(),
  };
}
