/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// The dev server forwards /api and /uploads to the mesh (nginx or the gateway).
const apiTarget = process.env.API_PROXY ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/uploads': { target: apiTarget, changeOrigin: true },
      // localstripe's Stripe.js mock and API (nginx's /stripe/ proxy), where the mesh runs it.
      '/stripe': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    // Keep the landing page's chunk honest: warn well before the 150 KB gzip budget is at risk.
    chunkSizeWarningLimit: 500,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup-tests.ts'],
    // e2e/support holds helpers of the Playwright suite whose pure parts have unit tests.
    include: ['src/**/*.test.{ts,tsx}', 'e2e/support/**/*.test.ts'],
    css: false,
    // Forks, not threads: a test may set process.env.TZ, which only a process honours.
    pool: 'forks',
    maxWorkers: 2,
    // Waiting (findBy, waitFor) may take up to 15 s on a loaded machine (src/testing/setup-tests.ts);
    // a test gets room for several such waits.
    testTimeout: 60_000,
  },
});
