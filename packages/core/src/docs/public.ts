/**
 * The public surface of `@trawl/core/docs`: text out of .docx/.pptx/.xlsx/.pdf. The layer and its modules are
 * described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's
 * API.
 */
export { closeSharedPdfPool, type DocumentKind, documentKindOf } from './index.js';
