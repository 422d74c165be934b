-- The markdown report of the SQL edition's section of make bench (scripts/bench.sh, edition()), from
-- bench.edition. Variables: machine, calls, runs.
CREATE TEMP VIEW edition_median AS
  SELECT ord, family, edition, workload, nullif(min(call), '') AS call,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) * 1000 / :calls AS us
  FROM bench.edition WHERE run > 0 GROUP BY ord, family, edition, workload;

SELECT format(E'### The SQL edition (idgen_sql) beside idgen and core: %s calls, %s rows, median of %s runs\n\n', :calls, :calls, :runs)
    || format(E'%s. The edition in a second database of the same server (the two refuse to share one).\n\n', :'machine')
    || E'Per call: `SELECT count(f) FROM generate_series(1, N) AS g`; per row: `INSERT INTO t (n) SELECT g FROM '
    || E'generate_series(1, N) AS g`, the key (PRIMARY KEY) defaulting to the generator. Microseconds.\n\n'
    || E'| family | per call: idgen | the edition | × idgen | per row inserted: idgen | the edition | × idgen | the default |\n'
    || E'|---|---:|---:|---:|---:|---:|---:|---|\n'
    || string_agg(format('| %s | %s | %s | %s | %s | %s | %s | %s |', f.family,
                         coalesce(round(ic.us::numeric, 2)::text, ''), coalesce(round(ec.us::numeric, 2)::text, '—'),
                         coalesce(round((ec.us / ic.us)::numeric)::text, ''),
                         round(ii.us::numeric, 2), coalesce(round(ei.us::numeric, 2)::text, '—'),
                         coalesce(round((ei.us / ii.us)::numeric, 1)::text, ''),
                         coalesce('`' || ii.call || '`', 'none: `INSERT … SELECT g, g`')),
                  E'\n' ORDER BY f.ord) || E'\n'
FROM (SELECT DISTINCT ord, family FROM edition_median) f
     LEFT JOIN edition_median ic ON ic.ord = f.ord AND ic.edition = 'idgen' AND ic.workload = 'call'
     LEFT JOIN edition_median ec ON ec.ord = f.ord AND ec.edition = 'edition' AND ec.workload = 'call'
     LEFT JOIN edition_median ii ON ii.ord = f.ord AND ii.edition = 'idgen' AND ii.workload = 'insert'
     LEFT JOIN edition_median ei ON ei.ord = f.ord AND ei.edition = 'edition' AND ei.workload = 'insert';

-- The edition against the pure-SQL peers that keep its promise (bench/edition-peers.sql): per call,
-- the decoders over a table of the edition's IDs; the goal is at most 2× the peer.
CREATE TEMP VIEW edition_peer_median AS
  SELECT ord, kind, what, side, min(name) AS name, min(call) AS call,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) * 1000 / :calls AS us
  FROM bench.edition_peers WHERE run > 0 GROUP BY ord, kind, what, side;

SELECT E'\n#### The edition against the pure-SQL peers that keep its promise\n\n'
    || E'The peers are bench/edition-peers.sql: written from their authors'' descriptions, as a team would paste them. '
    || E'Generators per call, as above; decoders over a table of the edition''s IDs. Microseconds; the goal is at most 2× the peer. '
    || E'Rows marked "context" compare with a peer that keeps a weaker promise (no order within a millisecond, or Instagram''s function as published).\n\n'
    || E'| | the edition | µs | the peer | µs | × the peer |\n|---|---|---:|---|---:|---:|\n'
    || string_agg(format('| %s%s | `%s` | %s | %s | %s | %s |', e.what, CASE e.kind WHEN 'context' THEN ' (context)' ELSE '' END,
                         e.call, round(e.us::numeric, 2), p.name, round(p.us::numeric, 2), round((e.us / p.us)::numeric, 2)),
                  E'\n' ORDER BY e.ord) || E'\n'
FROM edition_peer_median e JOIN edition_peer_median p ON p.ord = e.ord AND p.side = 'peer'
WHERE e.side = 'edition';
