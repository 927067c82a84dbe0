import type Database from "better-sqlite3";
import { NamespaceLogPosition } from "./namespace-log-position.js";
import { CUE_WEIGHT, SlotsByRowid, appendPosting, unitPostings, type UnitPostings } from "./lexical-postings.js";

/**
 * FTS5's bm25() constants (fts5_aux.c) and the store's column weights:
 * content 1.0, cue 0.5, namespace (unindexed) and ns_key 0.
 */
const K1 = 1.2;
const B = 0.75;

/** A term's instances as one JSON array: the unit's rowid for one in content, minus it for one in cue, 0 for another column (unitPostings reads it). */
const SIGNED_INSTANCES = "json_group_array(CASE col WHEN 'content' THEN doc WHEN 'cue' THEN -doc ELSE 0 END)";

/** Changes applied on top of an index before it is rebuilt: a quarter of what it was built from. */
const REBUILD_SHARE = 0.25;

/** Query terms' FTS5 tokens, remembered per handle (bounded). */
const TOKEN_CACHE_SIZE = 10_000;

/** One term's postings in the namespace (document slots, bm25 frequencies: content occurrences + 0.5 × cue occurrences), read on first use. */
interface Postings extends UnitPostings {
  /** Units of other namespaces holding the term (FTS5's document count is the file's), as of `outsideAt`. */
  outside: number;
  outsideAt: string;
  /** How many of `slots` are alive, as of the index's seq then (alive flags change only when the index catches up to a new seq). */
  live?: { seq: number; count: number };
}

interface LoadedLexicalIndex {
  /** The vec_log position the index holds every change up to (every unit write appends there, dense-index.ts). */
  seq: number;
  /** Per document slot: the unit's rowid, its FTS5 row length (all columns) and whether it is still stored. */
  rowids: number[];
  lengths: number[];
  alive: Uint8Array;
  slotOf: SlotsByRowid;
  live: number;
  terms: Map<string, Postings>;
  /** Slots added or dead since the build. */
  changes: number;
  built: number;
  /** A search's per-slot scores and marks, zeroed again after each search: not ~1 MB allocated (and collected) per search at 100k units. */
  scratch: { scores: Float64Array; seen: Uint8Array };
}

/** A query term as its FTS5 token; `prunable`: may be left out when it is in half of the file's units. */
interface Phrase {
  token: string;
  /** A term FTS5 reads as a phrase of several tokens, quoted for MATCH. */
  phrase?: string;
  prunable: boolean;
}

/** A unit's bm25 score as FTS5 computes it; `rowid` breaks ties as the FTS5 query's ORDER BY b, rowid does. */
export interface LexicalHit {
  rowid: number;
  score: number;
}

/**
 * An in-memory inverted index of each large namespace that ranks exactly as
 * the store's FTS5 query does — `bm25(fts, 1.0, 0.5, 0.0, 0.0)` over the
 * namespace's units matching any term, ties by rowid — without FTS5's cost
 * per match: FTS5 hands every posting of every query term to bm25() through
 * its auxiliary-function API (~2 µs a row, and a second walk of each term's
 * postings to count its documents), which at 100k units is most of a recall;
 * here a posting is an array read and a multiply-add.
 *
 * What FTS5 computes, and where each input comes from:
 * - the tokens are FTS5's own: a term's postings are the fts table's
 *   `fts5vocab` instances of its token, read on the term's first use (one
 *   statement, aggregated by SQLite); query terms and changed units are
 *   tokenized by a temporary FTS5 table with the same tokenizer;
 * - a row's length is its `fts_docsize` (every column, ns_key included);
 *   the file's row count and token total are the averages record in
 *   `fts_data` (id 1); a term's document count is the file's units holding
 *   it in content or cue (the namespace's from the postings, the other
 *   namespaces' counted when the file changed outside this namespace);
 * - idf = ln((N − n + 0.5)/(n + 0.5)), 1e-6 when not positive; each quoted
 *   term is a phrase, summed in query order (a phrase twice counts twice).
 * A term that FTS5 splits into several tokens ("five-a-side") is a phrase
 * whose score needs positions: FTS5 scores that phrase alone (bm25() of a
 * one-phrase query is exactly that phrase's term of the sum). A term that
 * could be a namespace token is not handled here: the caller runs FTS5.
 *
 * Kept consistent like the dense index: every unit write appends a vec_log
 * row in its own transaction; a search (one read transaction) first applies
 * the namespace's log rows after the index's position — deleted and
 * rewritten units are marked dead, the ones stored now tokenized into the
 * loaded terms — and checks the live count against the namespace's units
 * (else rebuilds); the caller joins hits back to `units`. After changes worth
 * a quarter of the index it is rebuilt.
 */
export class SqliteLexicalIndexes {
  private readonly loaded = new Map<string, LoadedLexicalIndex>();
  private readonly tokens = new Map<string, string[]>();
  private readonly position: NamespaceLogPosition;
  private prepared = false;

  /**
   * @param minUnits a namespace with fewer units is ranked by FTS5 itself.
   * @param readAllMinUnits a namespace with at least this many units, half of
   *   the file or more, reads every term's postings when its index is built;
   *   smaller ones read a term when a search first names it.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly minUnits: number,
    private readonly readAllMinUnits: number = Number.MAX_SAFE_INTEGER,
  ) {
    this.position = new NamespaceLogPosition(db);
  }

  /**
   * The top `limit` units of the namespace for `terms` (quoted FTS5 phrases,
   * OR-ed), as FTS5 would rank them; null when this index does not apply
   * (small namespace, a term FTS5 reads as a phrase): the caller runs FTS5.
   */
  search(namespace: string, terms: readonly string[], limit: number, namespaceToken: string, pruneCommon: boolean): LexicalHit[] | null {
    return this.db.transaction(() => {
      const seq = this.position.latestSeq(namespace);
      const count = this.position.unitCount(namespace, seq);
      if (count < this.minUnits) {
        this.loaded.delete(namespace);
        return null;
      }
      const phrases: Phrase[] = [];
      for (const term of terms) {
        const t = this.tokensOf(term);
        if (t.length === 0) continue;
        // A namespace-shaped token has namespace rows in its document count: FTS5 answers.
        if (t.some((x) => /^n[0-9a-f]+$/.test(x) || x === namespaceToken.toLowerCase())) return null;
        // A phrase of several tokens needs positions, which the index does not keep: FTS5 scores that phrase alone.
        if (t.length > 1) phrases.push({ token: "", phrase: `"${term.replaceAll('"', '""')}"`, prunable: false });
        else phrases.push({ token: t[0]!, prunable: pruneCommon && /^[\p{L}\p{N}]+$/u.test(term) });
      }
      if (phrases.length === 0) return [];
      return this.rank(namespace, this.current(namespace, seq, count), phrases, limit);
    })();
  }

  /** How many terms the namespace's loaded index holds postings of (0 when none is loaded). */
  termsRead(namespace: string): number {
    return this.loaded.get(namespace)?.terms.size ?? 0;
  }

  /** Drops the namespace's index (all of them without one): for deletes that take rows out of the log, e.g. a forgotten namespace. */
  drop(namespace?: string): void {
    if (namespace === undefined) {
      this.loaded.clear();
      this.position.forget();
    } else {
      this.loaded.delete(namespace);
      this.position.forget(namespace);
    }
  }

  private rank(namespace: string, entry: LoadedLexicalIndex, phrases: readonly Phrase[], limit: number): LexicalHit[] {
    const { rows, tokens } = this.fileTotals();
    if (rows === 0) return [];
    const avgdl = tokens / rows;
    const fileAt = this.fileAt(rows, tokens);
    const alone = rows === entry.live;
    const slots = entry.rowids.length;
    if (entry.scratch.scores.length < slots) entry.scratch = { scores: new Float64Array(Math.ceil(slots * 1.25)), seen: new Uint8Array(Math.ceil(slots * 1.25)) };
    const { scores, seen } = entry.scratch;
    const touched: number[] = [];
    const { alive, lengths } = entry;
    const read = phrases.map(({ token, phrase, prunable }) => {
      if (phrase !== undefined) return { phrase, common: false };
      const p = this.postings(namespace, entry, token, alone ? null : fileAt);
      if (p.live?.seq !== entry.seq) {
        let count = 0;
        for (let i = 0; i < p.length; i++) count += alive[p.slots[i]!]!;
        p.live = { seq: entry.seq, count };
      }
      const hits = (alone ? 0 : p.outside) + p.live.count;
      return { p, hits, common: prunable && 2 * hits >= rows };
    });
    // Terms in half of the file's units or more are left out (the store's informativeTerms, with the exact count): bm25 weighs them 1e-6. All that common: the query stays whole.
    const kept = read.every((r) => r.common) ? read : read.filter((r) => !r.common);
    const mark = (slot: number) => {
      if (!seen[slot]) {
        seen[slot] = 1;
        touched.push(slot);
      }
    };
    // The scratch is zeroed again whatever happens, or the next search would add to this one's sums.
    try {
      for (const r of kept) {
        if (r.phrase !== undefined) {
          // bm25() of a query of this one phrase is its term of the sum: the same idf (counted over the file), row length and average.
          const rowsOf = this.db.prepare(`SELECT rowid, bm25(fts, 1.0, ${CUE_WEIGHT}, 0.0, 0.0) FROM fts WHERE fts MATCH ?`).raw().all(`{content cue} : ${r.phrase}`) as Array<[number, number]>;
          for (const [rowid, b] of rowsOf) {
            const slot = entry.slotOf.get(rowid);
            if (slot < 0 || !alive[slot]) continue;
            scores[slot]! += -b;
            mark(slot);
          }
          continue;
        }
        const { p, hits } = r;
        let idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
        if (idf <= 0.0) idf = 1e-6;
        for (let i = 0; i < p.length; i++) {
          const slot = p.slots[i]!;
          if (!alive[slot]) continue;
          const f = p.freqs[i]!;
          const d = lengths[slot]!;
          // The expression as fts5_aux.c writes it, so the sums round the same way.
          scores[slot]! += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl)));
          mark(slot);
        }
      }
      return topK(touched, scores, entry.rowids, limit);
    } finally {
      for (const slot of touched) {
        scores[slot] = 0;
        seen[slot] = 0;
      }
    }
  }

  /** The term's postings in the namespace, read from the fts table's instances on first use; `fileAt` null: the namespace is the whole file. */
  private postings(namespace: string, entry: LoadedLexicalIndex, token: string, fileAt: string | null): Postings {
    let p = entry.terms.get(token);
    if (p && (fileAt === null || p.outsideAt === fileAt)) return p;
    this.prepare();
    // Every instance of the token as one JSON array aggregated by SQLite (a row per instance through the driver
    // costs more than the rest), summed per unit by unitPostings: grouping by unit in SQL (GROUP BY doc into a
    // "rowid:freq" string) cost 3–4× as much at 100k units. 0 for another column (cheaper than a WHERE on col).
    const instances = JSON.parse(
      this.db
        .prepare(`SELECT ${SIGNED_INSTANCES} FROM temp.fts_instances WHERE term = ?`)
        .pluck()
        .get(token) as string,
    ) as number[];
    const fresh: Postings = { ...unitPostings(instances, entry.slotOf), outsideAt: fileAt ?? "" };
    entry.terms.set(token, fresh);
    return fresh;
  }

  /** Other namespaces' units change the file's document counts: the file's row count and log position say whether any changed. */
  private fileAt(rows: number, tokens: number): string {
    return `${rows}:${tokens}:${Number(this.db.prepare("SELECT coalesce(max(seq), 0) FROM vec_log").pluck().get())}`;
  }

  /** N and the token total of the whole fts table, from its averages record (FTS5's xRowCount and xColumnTotalSize(-1)). */
  private fileTotals(): { rows: number; tokens: number } {
    const block = this.db.prepare("SELECT block FROM fts_data WHERE id = 1").pluck().get() as Buffer | undefined;
    if (!block) return { rows: 0, tokens: 0 };
    let at = 0;
    const next = (): number => {
      const [value, used] = readVarint(block, at);
      at += used;
      return value;
    };
    const rows = next();
    let tokens = 0;
    while (at < block.length) tokens += next();
    return { rows, tokens };
  }

  private current(namespace: string, seq: number, count: number): LoadedLexicalIndex {
    let entry = this.loaded.get(namespace);
    // The log only grows, except when a namespace is forgotten (its rows go): an index ahead of it is stale.
    if (entry && entry.seq > seq) entry = undefined;
    if (entry && entry.seq < seq) this.catchUp(namespace, entry, seq);
    if (!entry || entry.live !== count || entry.changes > REBUILD_SHARE * Math.max(1, entry.built)) entry = this.build(namespace, seq);
    this.loaded.set(namespace, entry);
    return entry;
  }

  /** The namespace's units and their lengths; its terms now when it is large and most of the file, else when first searched. */
  private build(namespace: string, seq: number): LoadedLexicalIndex {
    const docs = this.db.prepare("SELECT u.rowid, d.sz FROM units u JOIN fts_docsize d ON d.id = u.rowid WHERE u.namespace = ? ORDER BY u.rowid").raw().all(namespace) as Array<[number, Buffer]>;
    const entry = emptyIndex(seq);
    for (const [rowid, sz] of docs) addSlot(entry, rowid, rowLength(sz));
    entry.built = entry.live;
    const { rows, tokens } = this.fileTotals();
    // The pass reads the whole file's instances: worth it only where they are mostly this namespace's.
    if (entry.live >= this.readAllMinUnits && 2 * entry.live >= rows) this.readAllTerms(entry, this.fileAt(rows, tokens));
    return entry;
  }

  /**
   * Every term's postings in one pass over the fts table's instances, which
   * FTS5 hands out by term (no sort): at 1M units (33M instances) ~5 s, once,
   * where reading each term when a search first names it put up to ~50 ms of
   * SQL on that search (a term in 270k units) and made the first searches'
   * p95 three times the later ones'. Terms with no unit in the namespace are
   * left to be read if ever searched.
   */
  private readAllTerms(entry: LoadedLexicalIndex, fileAt: string): void {
    this.prepare();
    const terms = this.db
      .prepare(`SELECT term, ${SIGNED_INSTANCES} FROM temp.fts_instances GROUP BY term`)
      .raw()
      .iterate() as Iterable<[string, string]>;
    for (const [term, instances] of terms) {
      const postings = unitPostings(JSON.parse(instances) as number[], entry.slotOf);
      if (postings.length > 0) entry.terms.set(term, { ...postings, outsideAt: fileAt });
    }
  }

  private catchUp(namespace: string, entry: LoadedLexicalIndex, seq: number): void {
    const changes = this.db
      .prepare("SELECT unit_rowid AS rowid FROM vec_log WHERE namespace = ? AND seq > ? AND seq <= ? ORDER BY seq")
      .pluck()
      .all(namespace, entry.seq, seq) as number[];
    // Each touched unit's earlier postings die; the ones still stored are read once, as they are now.
    const touched = new Set<number>(changes);
    for (const rowid of touched) {
      const slot = entry.slotOf.get(rowid);
      if (slot >= 0 && entry.alive[slot]) {
        entry.alive[slot] = 0;
        entry.live--;
        entry.changes++;
      }
      entry.slotOf.delete(rowid);
    }
    if (touched.size) this.addUnits(entry, namespace, [...touched]);
    entry.seq = seq;
  }

  /** Tokenizes the units (those still stored) through the temporary FTS5 table into the terms already loaded. */
  private addUnits(entry: LoadedLexicalIndex, namespace: string, rowids: number[]): void {
    this.prepare();
    const rows = this.db
      .prepare(
        `SELECT u.rowid AS rowid, f.content AS content, f.cue AS cue, d.sz AS sz FROM json_each(?) j CROSS JOIN units u ON u.rowid = j.value
         JOIN fts f ON f.rowid = u.rowid JOIN fts_docsize d ON d.id = u.rowid WHERE u.namespace = ?`,
      )
      .all(JSON.stringify(rowids), namespace) as Array<{ rowid: number; content: string; cue: string; sz: Buffer }>;
    if (!rows.length) return;
    const put = this.db.prepare("INSERT INTO temp.lex_tokens (rowid, content, cue) VALUES (?, ?, ?)");
    for (const r of rows) put.run(r.rowid, r.content, r.cue);
    const instances = this.db
      .prepare(`SELECT term, doc, sum(CASE col WHEN 'content' THEN 1.0 ELSE ${CUE_WEIGHT} END) FROM temp.lex_token_instances GROUP BY term, doc`)
      .raw()
      .all() as Array<[string, number, number]>;
    this.db.exec("DELETE FROM temp.lex_tokens");
    const slotOf = new Map<number, number>();
    for (const r of rows) slotOf.set(r.rowid, addSlot(entry, r.rowid, rowLength(r.sz)));
    for (const [term, doc, f] of instances) {
      // A term not loaded yet is read from the fts table when first searched, with these units in it.
      const p = entry.terms.get(term);
      if (!p) continue;
      appendPosting(p, slotOf.get(doc)!, f);
    }
    entry.changes += rows.length;
  }

  /** A term as FTS5 tokenizes it (porter unicode61, like the fts table): usually one token, none for punctuation. */
  private tokensOf(term: string): string[] {
    let t = this.tokens.get(term);
    if (t) return t;
    this.prepare();
    this.db.prepare("INSERT INTO temp.lex_tokens (rowid, content, cue) VALUES (1, ?, '')").run(term);
    t = this.db.prepare("SELECT term FROM temp.lex_token_instances ORDER BY offset").pluck().all() as string[];
    this.db.exec("DELETE FROM temp.lex_tokens");
    if (this.tokens.size >= TOKEN_CACHE_SIZE) this.tokens.clear();
    this.tokens.set(term, t);
    return t;
  }

  /** The per-connection tables: the fts table's instances, and a scratch FTS5 table with its tokenizer. */
  private prepare(): void {
    if (this.prepared) return;
    this.db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, fts, 'instance');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.lex_tokens USING fts5(content, cue, tokenize = 'porter unicode61');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.lex_token_instances USING fts5vocab(temp, lex_tokens, 'instance');
    `);
    this.prepared = true;
  }
}


function emptyIndex(seq: number): LoadedLexicalIndex {
  return { seq, rowids: [], lengths: [], alive: new Uint8Array(1024), slotOf: new SlotsByRowid(), live: 0, terms: new Map(), changes: 0, built: 0, scratch: { scores: new Float64Array(0), seen: new Uint8Array(0) } };
}

function addSlot(entry: LoadedLexicalIndex, rowid: number, length: number): number {
  const slot = entry.rowids.length;
  entry.rowids.push(rowid);
  entry.lengths.push(length);
  if (slot >= entry.alive.length) {
    const grown = new Uint8Array(Math.max(1024, entry.alive.length * 2));
    grown.set(entry.alive);
    entry.alive = grown;
  }
  entry.alive[slot] = 1;
  entry.slotOf.set(rowid, slot);
  entry.live++;
  return slot;
}

/** An fts_docsize record: one varint per column; the row's length is their sum (FTS5's xColumnSize(-1)). */
function rowLength(sz: Buffer): number {
  let at = 0;
  let total = 0;
  while (at < sz.length) {
    const [value, used] = readVarint(sz, at);
    total += value;
    at += used;
  }
  return total;
}

/** SQLite's varint (FTS5 uses it too): big-endian 7-bit groups, the ninth byte whole. */
function readVarint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = buf[at + i]!;
    if (i === 8) return [value * 256 + byte, 9];
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return [value, i + 1];
  }
  return [value, 9];
}

/** The best `limit` slots, score descending then rowid ascending, through a bounded heap (the touched slots can be the whole namespace). */
function topK(slots: readonly number[], scores: Float64Array, rowids: readonly number[], limit: number): LexicalHit[] {
  if (limit <= 0) return [];
  // worse(a, b): a ranks below b.
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && rowids[a]! > rowids[b]!);
  const heap: number[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const s of slots) {
    if (heap.length < limit) {
      heap.push(s);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (worse(heap[0]!, s)) {
      heap[0] = s;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0)).map((s) => ({ rowid: rowids[s]!, score: scores[s]! }));
}
