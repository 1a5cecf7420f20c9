export type { AppendRequest, BoardImage, DerivedRecord, JournalOptions } from './journal.ts';
export { Journal } from './journal.ts';
export type { JournalEntry, RoundSettings, SearchRow, SearchRows } from './types.ts';
export { JournalLock, type LockAnswer } from './lock.ts';
