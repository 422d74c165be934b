-- The tables of the scaling mode (scripts/bench.sh --scaling), from bench.scale: the median of the
-- rounds. Variables: machine, length (of each point), rounds.
CREATE TEMP VIEW points AS
  SELECT s.ord, s.kind, p.workload, p.name, p.clients, percentile_cont(0.5) WITHIN GROUP (ORDER BY p.per_second) AS per_second
  FROM bench.scale p JOIN bench.scaling s USING (name) GROUP BY s.ord, s.kind, p.workload, p.name, p.clients;
CREATE TEMP VIEW counts AS SELECT DISTINCT clients FROM bench.scale;

SELECT format(E'## Scaling: %s\n\n', :'machine')
    || format(E'One server, pgbench -M prepared from the same machine, as many threads as clients, %s a point, '
              'the median of %s round(s); the clients go up to the cores present.\n', :'length', :'rounds');

-- One table per workload: a row per subject, a column per number of clients, and the best figure
-- against the one-client figure.
CREATE TEMP VIEW workloads (workload, ord, title, unit, divisor) AS VALUES
  ('batch', 1, 'Batch: `SELECT count(f) FROM generate_series(1, 200)` per transaction', 'millions of IDs a second', 1e6),
  ('single', 2, 'Single ID: `SELECT f` per transaction (round trips)', 'thousands of transactions a second', 1e3),
  ('insert', 3, 'Insert: 10 rows per transaction into a table whose key defaults to f', 'thousands of rows a second', 1e3);

SELECT format(E'### %s, %s\n\n', w.title, w.unit)
    || '| generator | ' || (SELECT string_agg(format('%s %s', clients, CASE WHEN clients = 1 THEN 'client' ELSE 'clients' END), ' | ' ORDER BY clients) FROM counts)
    || E' | best ÷ 1 client |\n|---|' || (SELECT string_agg('---:', '|') FROM counts) || E'|---:|\n'
    || (SELECT string_agg(row_text, E'\n' ORDER BY ord)
        FROM (SELECT p.ord, format('| %s | %s | %s |', p.name,
                                   string_agg(CASE WHEN p.per_second / w.divisor >= 100 THEN round((p.per_second / w.divisor)::numeric)::text
                                                   ELSE round((p.per_second / w.divisor)::numeric, 2)::text END, ' | ' ORDER BY p.clients),
                                   round((max(p.per_second) / nullif(min(p.per_second) FILTER (WHERE p.clients = 1), 0))::numeric, 1)) AS row_text
              FROM points p WHERE p.workload = w.workload GROUP BY p.ord, p.name) r) || E'\n'
FROM workloads w WHERE EXISTS (SELECT FROM bench.scale WHERE workload = w.workload) ORDER BY w.ord;
