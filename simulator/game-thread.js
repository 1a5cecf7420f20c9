// Entry of game-pool.ts's thread: plain JavaScript that loads the TypeScript sources through tsx
// (a thread does not inherit the loader that runs them in the thread that started it).
import { register } from 'tsx/esm/api';

register();
await import('./game-worker.ts');
