// Calibration: learn a board's field order, piece codes and light squares from a guided session.
export * from './plan.ts';
export * from './profile.ts';
export * from './raw.ts';
export * from './wizard.ts';
