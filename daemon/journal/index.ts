export type { AppendRequest } from './journal.ts';
export { Journal } from './journal.ts';
export type { JournalEntry, JournalInput } from './types.ts';
