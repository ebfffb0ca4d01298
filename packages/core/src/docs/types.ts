/** One place inside a document and the text found there. */
export interface DocSegment {
  /** Where it is (`slide 3`, `Ledger · row 12`, `p 2`), or '' where the format has no place to name (.docx). */
  label: string;
  /** The text; may hold several lines (`\n`). */
  text: string;
}

/** Receives segments in document order; returning true stops the extraction (the caller found what it wanted). */
export type SegmentSink = (segment: DocSegment) => boolean;

export interface ExtractOptions {
  /** Epoch ms after which extraction stops (the answer is then not whole). */
  deadline?: number;
  now?: () => number;
  /** Characters of text delivered at most (default DOC_MAX_CHARS). */
  maxChars?: number;
  /** Zip inventory caps (tests shrink them). */
  zip?: Partial<import('./zip.js').ZipLimits>;
  /** Worksheet rows between deadline checks (default DOC_ROW_DEADLINE_STRIDE). */
  rowStride?: number;
  /** PDF only: the extractor child's ceilings (tests shrink them, or give a loaded machine more time). */
  pdf?: Partial<import('./pdf.js').PdfChildLimits>;
  /** PDF only: the pool of warm extractor children (default: this thread's shared pool). */
  pdfPool?: import('./pdf-pool.js').PdfPool;
}

/**
 * How an extraction ended. `whole`: every character of the document's text was delivered (false after the deadline,
 * the character cap, or a failure part-way). `stopped`: the sink asked to stop. `refused`: the file is not of its
 * kind (not a zip, a PDF the parser rejects) — a settled answer, not a partial one. `skipped`: a resource ceiling
 * stopped it (a zip cap refused its inventory, the PDF child's memory or time) — the document was not searched.
 */
export interface ExtractResult {
  whole: boolean;
  stopped: boolean;
  refused?: string;
  skipped?: string;
}

/** The running budget one extraction shares across its parts. */
export class TextBudget {
  chars: number;
  capped = false;
  constructor(
    maxChars: number,
    private readonly deadline: number | undefined,
    private readonly now: () => number,
  ) {
    this.chars = maxChars;
  }

  /** The deadline has passed. */
  expired(): boolean {
    return this.deadline !== undefined && this.now() >= this.deadline;
  }

  /** Takes up to `text.length` characters (plus `extra` for a separator) from the budget; returns what fits. */
  take(text: string, extra = 0): string {
    if (this.chars <= 0) {
      if (text.length > 0) this.capped = true;
      return '';
    }
    if (text.length + extra <= this.chars) {
      this.chars -= text.length + extra;
      return text;
    }
    const kept = text.slice(0, this.chars);
    this.chars = 0;
    this.capped = true;
    return kept;
  }
}
