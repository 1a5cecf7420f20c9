export {
  inRoundOrder,
  type LineMemo,
  type PublishedLine,
  publishedLines,
  publishedRound,
  tableGameOf,
} from './lines.ts';
export { continuationRound, linePdn } from './pdn.ts';
export { PublishedChanges } from './changes.ts';
