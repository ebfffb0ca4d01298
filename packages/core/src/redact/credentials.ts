/**
 * Credential redaction: one table of patterns for secrets that show up in text trawl writes somewhere durable
 * (the audit log) or hands to a client (grep previews, labels, paths). Each rule replaces the secret with
 * `[REDACTED: <kind>]`; for labelled forms (`password = …`, `aws_secret_access_key: …`, `scheme://user:pass@`) the
 * label stays and only the value goes, so a redacted line still says what was there.
 *
 * The patterns are written from the token formats the issuers document (prefixes, lengths, alphabets); none is
 * copied from another scanner. Redaction is idempotent: the output of {@link redactCredentials} is a fixed point.
 */

/** The marker a redacted value becomes. Nothing in the table matches text that starts with it. */
export const REDACTED_PREFIX = '[REDACTED';

/** Redacted text and how many credential-shaped values were replaced. */
export interface CredentialRedaction {
  text: string;
  /** Kinds that were redacted, each once, in table order. Empty when the text was clean. */
  kinds: string[];
  /** Values replaced (a kind found twice counts twice). */
  count: number;
}

/** Extra literal secrets to redact (a server's token, say) and the kind they are reported as. */
export interface CredentialRedactionOptions {
  /** Strings that are secrets wherever they appear, in any letter case (the server's own access token). */
  literals?: readonly string[];
  /** The kind reported for {@link literals} (default `token`). */
  literalKind?: string;
}

interface Rule {
  kind: string;
  re: RegExp;
  /** Builds the replacement from the match; default: the whole match becomes the marker. */
  replace?: (m: RegExpExecArray, marker: string) => string;
  /** Extra check on the match (entropy); a rejected match is left alone. */
  accept?: (m: RegExpExecArray) => boolean;
}

const marker = (kind: string) => `${REDACTED_PREFIX}: ${kind}]`;

/** Keeps groups 1 and 2 (label and separator), redacts group 3 (the value). */
const keepLabel = (m: RegExpExecArray, mark: string) => `${m[1] ?? ''}${m[2] ?? ''}${mark}`;

/** Names whose value is a secret in `name = value` / `name: value` / `"name": "value"` forms. */
const SECRET_LABEL =
  '\\b[A-Za-z0-9_.-]{0,40}?(?:passw(?:or)?d|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|' +
  'private[_-]?key|client[_-]?secret|credentials?|session[_-]?key|signing[_-]?key)';

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Values that name a secret rather than being one: `${VAR}`, `<token>`, `%(x)s`, `process.env.X`, `****`. */
function isPlaceholder(v: string): boolean {
  return (
    /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v) ||
    /^<[^>]*>?$/.test(v) ||
    /^%\(?[A-Za-z_]/.test(v) ||
    /^(?:process\.env|os\.environ|env)\b/.test(v) ||
    /^(.)\1*$/.test(v) ||
    /^\{\{.*\}?\}?$/.test(v)
  );
}

/** Minimum entropy of a labelled value (bits/char): random 8+ char secrets clear it; `changeme12` does too, `aaaaaaaa` does not. */
export const GENERIC_SECRET_MIN_ENTROPY = 2.5;
/** Minimum length of a labelled value before it is considered a secret. */
export const GENERIC_SECRET_MIN_LENGTH = 8;

/** The table, in the order rules run: specific formats first, the generic labelled form last. */
const RULES: readonly Rule[] = [
  {
    kind: 'private-key',
    // A PEM private key block, also when cut off before its END line (a clipped preview still hides the key).
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    kind: 'aws-secret',
    re: /\b(aws_?(?:secret_?access_?key|secret_?key|session_?token|secret))(["']?\s*(?:=|:|=>)\s*["']?)(?!\[REDACTED)([A-Za-z0-9/+=]{16,})/gi,
    replace: keepLabel,
  },
  {
    kind: 'aws-key-id',
    // Case-insensitive on purpose: a key id typed into a lowercasing field (a search box) is still one.
    re: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/gi,
  },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,251})\b/g },
  { kind: 'gitlab-token', re: /\bgl(?:pat|dt|rt|ptt|cbt|soat|ft|imt)-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'slack-token',
    re: /\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{10,})/g,
  },
  { kind: 'stripe-key', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b|\bwhsec_[A-Za-z0-9]{24,}\b/g },
  { kind: 'anthropic-key', re: /\bsk-ant-(?:api|admin|oat|ort)\d{2}-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'openai-key',
    re: /\bsk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b|\bsk-[A-Za-z0-9]{40,}\b/g,
  },
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'pypi-token', re: /\bpypi-AgE[A-Za-z0-9_-]{40,}/g },
  { kind: 'huggingface-token', re: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'sendgrid-key', re: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}\b/g },
  { kind: 'digitalocean-token', re: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
  { kind: 'telegram-token', re: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g },
  {
    kind: 'jwt',
    // JWS (3 parts) and JWE (5 parts): a base64url JSON header, then dot-separated base64url parts.
    re: /\beyJ[A-Za-z0-9_-]{8,}\.(?:eyJ)?[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){1,3}/g,
  },
  {
    kind: 'url-credentials',
    // scheme://user:password@host: the user stays, the password goes.
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@]{1,256})(:)(?!\[REDACTED)([^\s/@]{1,256})(?=@)/gi,
    replace: keepLabel,
  },
  {
    kind: 'secret',
    re: new RegExp(
      `(${SECRET_LABEL})(["']?\\s*(?:=|:=|=>|:)\\s*["']?)(?!\\[REDACTED)([^\\s"'\`,;&<>(){}\\[\\]]{${GENERIC_SECRET_MIN_LENGTH},512})`,
      'gi',
    ),
    replace: keepLabel,
    accept: (m) => {
      const v = m[3] ?? '';
      return !isPlaceholder(v) && shannonEntropy(v) >= GENERIC_SECRET_MIN_ENTROPY;
    },
  },
];

/** The kinds of secret the table knows, in the order its rules run. */
export const CREDENTIAL_KINDS: readonly string[] = RULES.map((r) => r.kind);

/**
 * Redacts every credential the table recognises. Pure string work, linear in the text for every rule (no rule
 * nests quantifiers), safe on caller input of any content.
 */
export function redactCredentials(
  text: string,
  options: CredentialRedactionOptions = {},
): CredentialRedaction {
  let out = text;
  const kinds: string[] = [];
  let count = 0;
  const literalKind = options.literalKind ?? 'token';
  for (const lit of options.literals ?? []) {
    if (lit.length < 8) continue;
    const redacted = replaceFolded(out, lit, marker(literalKind));
    if (redacted === out) continue;
    count += occurrences(redacted, marker(literalKind)) - occurrences(out, marker(literalKind));
    out = redacted;
    if (!kinds.includes(literalKind)) kinds.push(literalKind);
  }
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    if (!rule.re.test(out)) continue;
    rule.re.lastIndex = 0;
    const mark = marker(rule.kind);
    let hit = false;
    out = out.replace(rule.re, (...args: unknown[]) => {
      const m = toExecArray(args);
      if (rule.accept && !rule.accept(m)) return m[0];
      hit = true;
      count++;
      return rule.replace ? rule.replace(m, mark) : mark;
    });
    if (hit) kinds.push(rule.kind);
  }
  return { text: out, kinds, count };
}

function occurrences(text: string, what: string): number {
  let n = 0;
  for (let at = text.indexOf(what); at !== -1; at = text.indexOf(what, at + what.length)) n++;
  return n;
}

/**
 * Every occurrence of `literal` in `text`, in any letter case, replaced: a secret that reached the text through a
 * lowercasing (or uppercasing) step is still that secret. Case is folded per UTF-16 unit, so positions line up.
 */
function replaceFolded(text: string, literal: string, replacement: string): string {
  const hay = foldUnits(text);
  const needle = foldUnits(literal);
  let at = hay.indexOf(needle);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += text.slice(from, at) + replacement;
    from = at + needle.length;
    at = hay.indexOf(needle, from);
  }
  return out + text.slice(from);
}

/**
 * Lowercase with positions kept: `toLowerCase` only ever lengthens a string (one mapping, 'İ' to two units), so an
 * unchanged length means every position lines up; otherwise each UTF-16 unit is lowered alone.
 */
function foldUnits(s: string): string {
  const lowered = s.toLowerCase();
  if (lowered.length === s.length) return lowered;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const low = ch.toLowerCase();
    out += low.length === 1 ? low : ch;
  }
  return out;
}

/** A redactor: text in, redacted text out. */
export type Redactor = (text: string) => string;

/** {@link redactCredentials} as a plain redactor. */
export const redactText: Redactor = (text) => redactCredentials(text).text;

/** `String.prototype.replace` callback arguments → an exec-style array (match, groups…). */
function toExecArray(args: unknown[]): RegExpExecArray {
  // (match, p1, …, pn, offset, string[, groups])
  let end = args.length;
  if (typeof args[end - 1] === 'object' && args[end - 1] !== null) end--;
  end -= 2;
  const arr = args.slice(0, end) as unknown as RegExpExecArray;
  return arr;
}
