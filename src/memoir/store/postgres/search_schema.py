"""The search index's schema on PostgreSQL: tables, the keyword index's SQL functions, triggers.

How the keyword index reads text and ranks it is told in `search.py`, which holds the
queries; this module holds what `schema.py` applies once, and the index writers' lock.
"""

from __future__ import annotations

from memoir.store.postgres.parts import LOCK_NAMESPACE

__all__ = ["INDEX_LOCK", "ITEM_VECTORS", "LOCK_INDEX", "MAX_INDEXED_CHARS", "SCHEMA"]

# Key of the advisory lock (in memoir's namespace) that index writers hold to their commit.
INDEX_LOCK = 3
LOCK_INDEX = f"SELECT pg_advisory_xact_lock({LOCK_NAMESPACE}, {INDEX_LOCK})"
# Characters of each column the keyword index reads: 3 columns of this many stay under the
# 1 MB a tsvector may hold, whatever the text (measured worst case: ~6 bytes a character).
MAX_INDEXED_CHARS = 50_000

# Punctuation and spaces that become a space before PostgreSQL's parser sees the text: a
# regular expression's bracket, all ASCII punctuation as ranges (no backslash or quote to
# escape), then the common Unicode marks and spaces.
_PUNCTUATION = (
    "[!-/:-@[-^_`{-~"
    "\u00a0\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u200b\u2010\u2011\u2012\u2013\u2014\u2015\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2020\u2021"
    "\u2022\u2026\u2027\u2028\u2029\u202f\u2032\u2033\u2039\u203a\u203b\u205f\u3000\u3001\u3002\u3008\u3009\u300a"
    "\u300b\u300c\u300d\u300e\u300f\u3010\u3011\u3014\u3015\u301c\ufeff\uff01\uff02\uff03\uff05\uff06\uff07\uff08"
    "\uff09\uff0a\uff0c\uff0d\uff0e\uff0f\uff1a\uff1b\uff1f\uff20\uff3b\uff3c\uff3d\uff5b\uff5c\uff5d\uff5e"
    "\u0085\u00ad\u00b4\u200d\u2060\U000e0001"  # separators to FTS5 that PostgreSQL's parser would join
    "\U0010ffff]"  # the last: a lone escape character (text.py), as a cut at MAX_INDEXED_CHARS may leave
)
# The escapes of text.py (U+10FFFF, then "0" for NUL or U+10FFFF for itself), read left to
# right as pairs, separate words: NUL does for FTS5 too, and the "0" then sticks to no word.
# U+10FFFF, a noncharacter, is a letter to FTS5: the one character the two backends split apart.
_ESCAPED = "\U0010ffff[0\U0010ffff]"
# PostgreSQL drops a word longer than 2,047 bytes from a tsvector; FTS5 keeps it. Runs of this
# many characters (at most 4 bytes each; 255 is the most a regular expression may count) are
# cut apart, in the text and in a query alike, so a long word is found as the phrase of its pieces.
LONG_WORD_CHARS = 250

SCHEMA = f"""
CREATE EXTENSION IF NOT EXISTS vector;
-- What the keyword index reads of a text: text.py's escapes undone, punctuation as spaces, long
-- words cut (see search.py's docstring and the constants above).
CREATE FUNCTION memoir_search_words(body text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN regexp_replace(regexp_replace(regexp_replace(
        left(body, {MAX_INDEXED_CHARS}),
        '{_ESCAPED}', ' ', 'g'),
        '{_PUNCTUATION}', ' ', 'g'),
        '([^[:space:]]{{{LONG_WORD_CHARS}}})', '\\1 ', 'g');
CREATE FUNCTION memoir_search_vector(search_text text, context_before text, context_after text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN setweight(to_tsvector('english', memoir_search_words(search_text)), 'A')
        || setweight(to_tsvector('english', memoir_search_words(context_before)), 'B')
        || setweight(to_tsvector('english', memoir_search_words(context_after)), 'C');
-- A row's length in tokens (stop words included), as FTS5 counts it.
CREATE FUNCTION memoir_search_length(search_text text, context_before text, context_after text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN regexp_count(memoir_search_words(search_text), '[^[:space:]]+')
        + regexp_count(memoir_search_words(context_before), '[^[:space:]]+')
        + regexp_count(memoir_search_words(context_after), '[^[:space:]]+');
-- A query word (a phrase to FTS5) as a tsquery; empty for stop words.
CREATE FUNCTION memoir_search_query(word text) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN phraseto_tsquery('english', memoir_search_words(word));
-- Any of the words: their tsqueries ORed pairwise, so that the tree stays log2(n) deep (a
-- chain of `||` over thousands of words overflows the server's stack when parsed or run).
CREATE FUNCTION memoir_search_any(words text[]) RETURNS tsquery
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    parts tsquery[];
    merged tsquery[];
BEGIN
    SELECT coalesce(array_agg(q), '{{}}') INTO parts
        FROM (SELECT memoir_search_query(w) AS q FROM unnest(words) AS w) AS s WHERE numnode(q) > 0;
    IF cardinality(parts) = 0 THEN
        RETURN ''::tsquery;
    END IF;
    WHILE cardinality(parts) > 1 LOOP
        merged := '{{}}';
        FOR i IN 1 .. cardinality(parts) BY 2 LOOP
            merged := array_append(
                merged, CASE WHEN i < cardinality(parts) THEN parts[i] || parts[i + 1] ELSE parts[i] END
            );
        END LOOP;
        parts := merged;
    END LOOP;
    RETURN parts[1];
END $$;

CREATE TABLE index_items (
    item_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL UNIQUE,
    conversation_id TEXT NOT NULL,
    agent_id TEXT,
    session_id TEXT,
    role TEXT,
    created_ms BIGINT NOT NULL,
    text TEXT NOT NULL,
    search_text TEXT NOT NULL,
    context_before TEXT NOT NULL DEFAULT '',
    context_after TEXT NOT NULL DEFAULT '',
    content_hash TEXT NOT NULL,
    event_ids TEXT NOT NULL,
    metadata TEXT NOT NULL,
    search_vector tsvector NOT NULL
        GENERATED ALWAYS AS (memoir_search_vector(search_text, context_before, context_after)) STORED,
    search_length INTEGER NOT NULL
        GENERATED ALWAYS AS (memoir_search_length(search_text, context_before, context_after)) STORED
);
CREATE INDEX index_items_by_scope ON index_items (conversation_id, created_ms);
CREATE INDEX index_items_by_session ON index_items (session_id, created_ms);
CREATE INDEX index_items_by_hash ON index_items (content_hash);
CREATE INDEX index_items_by_words ON index_items USING gin (search_vector);

CREATE TABLE embeddings (
    model TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (model, content_hash)
);

-- generation: goes up when searchers must reload everything; items and tokens: BM25's totals.
CREATE TABLE index_state (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO index_state VALUES ('generation', 1), ('items', 0), ('tokens', 0);
CREATE TABLE index_removals (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    item_id BIGINT NOT NULL
);
-- How many items hold each lexeme (BM25's document frequency), so a search looks a word's
-- count up instead of counting the rows that hold it (half a million for a common word at a
-- million items). Kept by the statement triggers below; a word gone from every item stays at 0.
CREATE TABLE index_terms (lexeme TEXT PRIMARY KEY, docs BIGINT NOT NULL);

-- The items holding a query word (FTS5's document count for its phrase), at most `cap`:
-- looked up for a one-lexeme word, counted for a phrase; NULL for a stop word.
CREATE FUNCTION memoir_search_docs(word text, cap bigint) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
    query tsquery := memoir_search_query(word);
    lexemes text[];
    found bigint;
BEGIN
    IF query IS NULL OR numnode(query) = 0 THEN
        RETURN NULL;
    END IF;
    IF numnode(query) = 1 THEN
        lexemes := tsvector_to_array(to_tsvector('english', memoir_search_words(word)));
        IF cardinality(lexemes) = 1 THEN
            SELECT docs INTO found FROM index_terms WHERE lexeme = lexemes[1];
            RETURN least(coalesce(found, 0), cap);  -- as a count would stop
        END IF;
    END IF;
    SELECT count(*) INTO found FROM (SELECT FROM index_items WHERE search_vector @@ query LIMIT cap) AS held;
    RETURN found;
END $$;

-- Once per statement: the removal log (ids of deleted items), the totals, and each lexeme's
-- item count (each lexeme once per item, as unnest gives a tsvector's lexemes).
CREATE FUNCTION memoir_index_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    counted BIGINT := 0;
    tokens BIGINT := 0;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*), coalesce(sum(search_length), 0) INTO counted, tokens FROM added;
        INSERT INTO index_terms AS t (lexeme, docs)
            SELECT u.lexeme, count(*) FROM added AS a, unnest(a.search_vector) AS u GROUP BY u.lexeme
            ON CONFLICT (lexeme) DO UPDATE SET docs = t.docs + excluded.docs;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT -count(*), -coalesce(sum(search_length), 0) INTO counted, tokens FROM removed;
        INSERT INTO index_removals (item_id) SELECT item_id FROM removed ORDER BY item_id;
        UPDATE index_terms AS t SET docs = t.docs - gone.docs
            FROM (SELECT u.lexeme, count(*) AS docs FROM removed AS r, unnest(r.search_vector) AS u GROUP BY u.lexeme)
                AS gone
            WHERE t.lexeme = gone.lexeme;
    ELSE
        SELECT coalesce(sum(search_length), 0) - (SELECT coalesce(sum(search_length), 0) FROM removed)
            INTO tokens FROM added;
        INSERT INTO index_terms AS t (lexeme, docs)
            SELECT lexeme, sum(change) FROM (
                SELECT u.lexeme, 1 AS change FROM added AS a, unnest(a.search_vector) AS u
                UNION ALL
                SELECT u.lexeme, -1 FROM removed AS r, unnest(r.search_vector) AS u
            ) AS changes GROUP BY lexeme HAVING sum(change) <> 0
            ON CONFLICT (lexeme) DO UPDATE SET docs = t.docs + excluded.docs;
    END IF;
    IF counted <> 0 THEN
        UPDATE index_state SET value = value + counted WHERE key = 'items';
    END IF;
    IF tokens <> 0 THEN
        UPDATE index_state SET value = value + tokens WHERE key = 'tokens';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER index_items_added AFTER INSERT ON index_items
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memoir_index_items_changed();
CREATE TRIGGER index_items_removed AFTER DELETE ON index_items
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION memoir_index_items_changed();
CREATE TRIGGER index_items_updated AFTER UPDATE ON index_items REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION memoir_index_items_changed();
"""

# Step 008 (issue 29): each item's vectors where a conversation's scan reads them. Comparing
# a conversation's items exactly read each item's row, then its vector's row in `embeddings`
# (and that key's index), all on pages shared with every other conversation; here each item
# has a row per model cached for its text, with the columns a scope filters on, so the scan
# reads these rows and nothing else (`vectors.nearest_items`). Rows exist exactly where the
# join of items and embeddings has one, so searches find what they found before. Who keeps
# them in step: the index triggers below (items added, replaced, removed; a TRUNCATE in
# `index_clear`), and `embeddings_save` and `table_loaded` for vectors cached after their
# items. STORAGE MAIN keeps the vector in the row: pgvector's type defaults to EXTERNAL,
# which moves a wide one (768 dimensions and up) out to TOAST, another read.
ITEM_VECTORS = """
CREATE TABLE item_embeddings (
    item_id BIGINT NOT NULL,
    model TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    agent_id TEXT,
    kind TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (item_id, model)
);
ALTER TABLE item_embeddings ALTER COLUMN embedding SET STORAGE MAIN;
-- A conversation's vectors in its own run of an index's pages, sorted by conversation, read
-- without the table (an index-only scan): 10,000 items in 2,500 pages instead of 10,000 pages
-- spread over the table (41 -> 10 ms). A B-tree entry holds at most 2,704 bytes, so only rows
-- that fit with room to spare go in (vectors of up to some 600 dimensions); the others are
-- found through the second index, and read from the table.
CREATE FUNCTION memoir_scan_fits(model text, conversation_id text, agent_id text, kind text, embedding vector)
    RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN octet_length(model) + octet_length(conversation_id) + coalesce(octet_length(agent_id), 0)
        + octet_length(kind) + 4 * vector_dims(embedding) <= 2400;
CREATE INDEX item_embeddings_near ON item_embeddings (model, conversation_id, created_ms)
    INCLUDE (item_id, agent_id, kind, embedding)
    WHERE memoir_scan_fits(model, conversation_id, agent_id, kind, embedding);
CREATE INDEX item_embeddings_by_scope ON item_embeddings (model, conversation_id, created_ms)
    WHERE NOT memoir_scan_fits(model, conversation_id, agent_id, kind, embedding);
-- An index-only scan reads the table for rows on pages not yet marked all-visible, which
-- vacuum marks: after 1% new rows, not the default 20%.
ALTER TABLE item_embeddings SET (autovacuum_vacuum_insert_scale_factor = 0.01);
-- New entries of the keyword index wait in its pending list, which every keyword search reads
-- through: at the default limit of 4 MB, some 500 pages (3.6 ms of a search at 100,000 items).
-- At 128 kB a writer merges them into the index every 16 pages or so.
ALTER INDEX index_items_by_words SET (gin_pending_list_limit = 128);

-- As step 003's, and each item's vectors copied in and out with it (the join by content hash
-- finds every model's through the primary key, PostgreSQL 18's skip scan); an update leaves
-- them: it never changes an item's text or scope, only the turn after it.
CREATE OR REPLACE FUNCTION memoir_index_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    counted BIGINT := 0;
    tokens BIGINT := 0;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*), coalesce(sum(search_length), 0) INTO counted, tokens FROM added;
        INSERT INTO index_terms AS t (lexeme, docs)
            SELECT u.lexeme, count(*) FROM added AS a, unnest(a.search_vector) AS u GROUP BY u.lexeme
            ON CONFLICT (lexeme) DO UPDATE SET docs = t.docs + excluded.docs;
        INSERT INTO item_embeddings (item_id, model, conversation_id, agent_id, kind, created_ms, embedding)
            SELECT a.item_id, e.model, a.conversation_id, a.agent_id, a.kind, a.created_ms, e.embedding
            FROM added AS a JOIN embeddings AS e ON e.content_hash = a.content_hash;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT -count(*), -coalesce(sum(search_length), 0) INTO counted, tokens FROM removed;
        INSERT INTO index_removals (item_id) SELECT item_id FROM removed ORDER BY item_id;
        UPDATE index_terms AS t SET docs = t.docs - gone.docs
            FROM (SELECT u.lexeme, count(*) AS docs FROM removed AS r, unnest(r.search_vector) AS u GROUP BY u.lexeme)
                AS gone
            WHERE t.lexeme = gone.lexeme;
        DELETE FROM item_embeddings WHERE item_id IN (SELECT item_id FROM removed);
    ELSE
        SELECT coalesce(sum(search_length), 0) - (SELECT coalesce(sum(search_length), 0) FROM removed)
            INTO tokens FROM added;
        INSERT INTO index_terms AS t (lexeme, docs)
            SELECT lexeme, sum(change) FROM (
                SELECT u.lexeme, 1 AS change FROM added AS a, unnest(a.search_vector) AS u
                UNION ALL
                SELECT u.lexeme, -1 FROM removed AS r, unnest(r.search_vector) AS u
            ) AS changes GROUP BY lexeme HAVING sum(change) <> 0
            ON CONFLICT (lexeme) DO UPDATE SET docs = t.docs + excluded.docs;
    END IF;
    IF counted <> 0 THEN
        UPDATE index_state SET value = value + counted WHERE key = 'items';
    END IF;
    IF tokens <> 0 THEN
        UPDATE index_state SET value = value + tokens WHERE key = 'tokens';
    END IF;
    RETURN NULL;
END $$;

-- Existing data: every item's vectors.
INSERT INTO item_embeddings (item_id, model, conversation_id, agent_id, kind, created_ms, embedding)
    SELECT i.item_id, e.model, i.conversation_id, i.agent_id, i.kind, i.created_ms, e.embedding
    FROM index_items AS i JOIN embeddings AS e ON e.content_hash = i.content_hash;
"""
