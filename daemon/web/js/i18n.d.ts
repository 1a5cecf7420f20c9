// Types of the parts of i18n.js the server uses for the pages it writes itself.
export function fill(text: string, params?: Record<string, unknown>): string;
export function chooseLanguage(o: {
  search: string;
  stored?: string | null;
  negotiated?: string;
  browser?: readonly string[];
  available: readonly string[];
}): string;
