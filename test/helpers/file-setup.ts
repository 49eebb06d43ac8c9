import { afterAll } from 'vitest';
import { useWorkerDatabase } from './database.ts';
import { runFileEnd } from './file-end.ts';

// A setup file runs again for every test file, so this hook is each file's own.
afterAll(runFileEnd);

await useWorkerDatabase();
