// Typed parse results live in the protocol leaf, which every package may import; src re-exports them.
export * from '../firmware-protocol/result.ts';
