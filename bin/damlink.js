#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx damlink` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../daemon/cli.ts');
