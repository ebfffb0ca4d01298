// pdf.js's worker module ships no types; pdf-child.ts imports it only for its effect (it sets globalThis.pdfjsWorker).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
