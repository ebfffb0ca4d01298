import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../util/fs-safety.js';
import { corePackageDir } from '../util/package-files.js';

/** What a URL resolves to: a file on disk (searched as a file, shown as the URL) or content in memory. */
export type ResolvedResource =
  | {
      /** The backing file. Its path is never shown; the URL is. */
      sourcePath: string;
      /** Not editable through the URL: shown without hashline tags (default false for files). */
      immutable?: boolean;
    }
  | {
      content: string | Uint8Array;
      /** Virtual content is always shown without hashline tags. */
      immutable?: true;
    };

/** A URL scheme's implementation, registered by the host (`docs`, `artifact`, …). */
export interface ResourceHandler {
  /** Resolves one URL; throw an Error whose message tells the caller what is wrong (it is shown as is). */
  resolve(url: string, signal?: AbortSignal): ResolvedResource | Promise<ResolvedResource>;
  /**
   * The URLs a collection URL stands for (`docs://` → every document), or null when `url` names one
   * resource. Optional: without it every URL names one resource.
   */
  list?(url: string, signal?: AbortSignal): string[] | null | Promise<string[] | null>;
}

/** The schemes a host makes searchable. A URL of an unregistered scheme is refused, never guessed at. */
export class ResourceRouter {
  private readonly handlers = new Map<string, ResourceHandler>();

  /** Serves `scheme://…` URLs by `handler` (`notes` or `notes://`; `file` is refused: file URLs are paths). */
  register(scheme: string, handler: ResourceHandler): this {
    const s = scheme.toLowerCase().replace(/:\/\/$/, '');
    if (!/^[a-z][a-z0-9+.-]*$/.test(s)) throw new Error(`invalid URL scheme: ${scheme}`);
    if (s === 'file') throw new Error('file:// is not a resource scheme: file URLs are paths');
    this.handlers.set(s, handler);
    return this;
  }

  /** The handler registered for `scheme`, if any (case-insensitive). */
  handler(scheme: string): ResourceHandler | undefined {
    return this.handlers.get(scheme.toLowerCase());
  }

  /** The schemes registered, sorted (a refusal of an unregistered one names them). */
  get schemes(): string[] {
    return [...this.handlers.keys()].sort();
  }
}

/** Where trawl's own documentation lives in the package (`packages/core/docs`, shipped with it). */
export function defaultDocsDir(): string {
  return `${path.join(corePackageDir(), 'docs')}${path.sep}`;
}

/**
 * `docs://` — trawl's own documentation, read-only. `docs://` (or `docs://dir/`) lists documents;
 * `docs://search-tool.md` is one of them.
 */
export function docsResourceHandler(dir: string = defaultDocsDir()): ResourceHandler {
  const root = path.resolve(dir);
  const listAll = (): string[] => {
    const out: string[] = [];
    const walk = (abs: string, rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(abs, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(path.join(abs, e.name), childRel);
        else if (e.isFile() && /\.(?:md|txt)$/i.test(e.name)) out.push(childRel);
      }
    };
    walk(root, '');
    return out;
  };
  const relOf = (url: string) => url.replace(/^docs:\/\//i, '').replace(/^\/+/, '');
  return {
    list(url) {
      const rel = relOf(url);
      if (rel !== '' && !rel.endsWith('/')) return null;
      const docs = listAll().filter((d) => d.startsWith(rel));
      if (docs.length === 0)
        throw new Error(`No documentation under ${url}. Use docs:// to list available files.`);
      return docs.map((d) => `docs://${d}`);
    },
    resolve(url) {
      const rel = relOf(url);
      const abs = path.resolve(root, rel);
      if (abs === root || !isWithin(abs, root) || !listAll().includes(rel)) {
        throw new Error(`Documentation file not found: ${rel}. Use docs:// to list available files.`);
      }
      return { content: fs.readFileSync(abs), immutable: true };
    },
  };
}

/** A router with trawl's built-in schemes (`docs://`). */
export function defaultResourceRouter(): ResourceRouter {
  return new ResourceRouter().register('docs', docsResourceHandler());
}
