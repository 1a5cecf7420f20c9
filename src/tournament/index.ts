// The tournament around the boards: the model, its readers and writers, round robins, standings.
export * from './berger.ts';
export * from './cards.ts';
export * from './json.ts';
export * from './load.ts';
export * from './pairings-csv.ts';
export * from './players-csv.ts';
export * from './results.ts';
export * from './standings.ts';
export * from './standings-csv.ts';
export * from './trf/document.ts';
export * from './trf/event.ts';
export * from './types.ts';
export * from './merge.ts';
export * from './tables.ts';
export * from './pairing-output.ts';
export * from './groups.ts';
export * from './pairings-edit.ts';
