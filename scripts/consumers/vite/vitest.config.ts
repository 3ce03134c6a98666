import { defineConfig } from 'vitest/config';

// Its own config, so that Vitest does not load vite.config.ts (the README's dev-server plugin).
export default defineConfig({ test: {} });
