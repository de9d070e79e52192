// Vite build of the renderer: relative base so the gateway (or Electron's file loader) can serve it from anywhere.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// No node: imports here: the renderer folder's layer rule applies to this file too.
const here = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: `${here}../dist/renderer`,
    emptyOutDir: true,
    // The page runs under script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
  },
  server: { host: '127.0.0.1' },
});
