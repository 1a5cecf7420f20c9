// The part of publish.js the server uses: one word for a publish target's state.
export function publishStatus(target: {
  failures: number;
  pending: number;
  uploading?: boolean;
}): 'ok' | 'sending' | 'failing';
export function publishRowsHtml(targets: unknown[]): string;
export function followPublishing(section: unknown, rows: unknown, read?: () => Promise<unknown>): void;
